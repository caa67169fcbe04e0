/**
 * Permission keys of spec §6: `module:resource:action`. One table, imported by
 * the server (checked on every call) and the web client (the stored map refuses
 * locally with http.403). `scope` says who can hold the key:
 * - `system`: platform system managers only;
 * - `tenant`: a tenant manager always; a sub-user when granted;
 * - `manager`: the tenant manager only, never granted to a sub-user (sub-user
 *   management: spec §2 hides it from sub-users, §6 "only the manager");
 * - `device-read` / `device-write`: also needs that level on the device addressed.
 */
export type PermissionScope = 'system' | 'manager' | 'tenant' | 'device-read' | 'device-write';

/** The keys, by who can hold them. */
export const PERMISSION_KEYS_BY_SCOPE = {
  'device-read': [
    'things:things:query',
    'things:things:queryone',
    'things:things:page',
    'things:things:export',
    'data-mgmt:things-data:query',
    'data-mgmt:things-data:download',
    'data-mgmt:things-data:history-aggregation',
    'data-mgmt:things-data:signal-period',
    'data-mgmt:dashboard:query',
    'alert:trigger-rule:query',
    'alert-data:event:query',
    'mapping:dbc:query',
    'candtu:ecu:query',
    'candtu:dtc:query',
    'things:gps:query',
    'things:message:query',
    'test-mgmt:run:query',
    'test-mgmt:run:export',
    'things:digital-twin:query',
  ],
  'device-write': [
    'things:things:create',
    'things:things:update',
    'things:things:delete',
    'things:things:import',
    'things:things:command',
    'things:things:reset-status',
    'data-mgmt:things-data:delete',
    'data-mgmt:things-data:log-handle',
    'data-mgmt:things-data:import',
    'data-mgmt:dashboard:create',
    'data-mgmt:dashboard:update',
    'data-mgmt:dashboard:delete',
    'alert:trigger-rule:create',
    'alert:trigger-rule:update',
    'alert:trigger-rule:delete',
    'alert:trigger-rule:updateStatus',
    'alert:trigger-rule:import',
    'alert:trigger-rule:export',
    'alert-data:event:handle',
    'alert-data:event:delete',
    'mapping:dbc:create',
    'mapping:dbc:update',
    'mapping:dbc:delete',
    'mapping:dbc:bind',
    'mapping:dbc:unbind',
    'mapping:dbc:updateStatus',
    'candtu:ecu:create',
    'candtu:ecu:update',
    'candtu:ecu:delete',
    'candtu:dtc:create',
    'candtu:dtc:delete',
    'candtu:uds:execute',
    'candtu:ecu:upgrade',
    'firmware:firmware:notify-upgrade',
    'group:device:command',
    'group:device:bind',
    'group:device:unbind',
    'test-mgmt:run:execute',
    'test-mgmt:run:cancel',
    'test-mgmt:run:delete',
    'things:digital-twin:update',
    'alert:edge-computing:issuance',
  ],
  tenant: [
    'firmware:firmware:query',
    'firmware:firmware:upload',
    'firmware:firmware:delete',
    'firmware:firmware:public',
    'firmware:firmware:get-desc',
    'job-mgmt:job:query',
    'job-mgmt:job:create',
    'job-mgmt:job:edit',
    'job-mgmt:job:edit-status',
    'job-mgmt:job:delete',
    'job-mgmt:job-log:query',
    'job-mgmt:job-log:delete',
    'tenant:customization:update',
    'tenant:label:query',
    'tenant:label:create',
    'tenant:label:update',
    'tenant:label:delete',
    'group:group:query',
    'group:group:create',
    'group:group:update',
    'group:group:delete',
    'project:project:query',
    'control:user-menu:query',
    'control:user-role:query',
    'data-mgmt:op-log:query',
    'data-mgmt:statistics-task:query',
    'data-mgmt:statistics-task:create',
    'data-mgmt:statistics-task:update',
    'data-mgmt:statistics-task:delete',
    'data-mgmt:statistics-task:updateStatus',
    'data-mgmt:statistics-task:execute',
    'data-mgmt:statistics-result:query',
    'data-mgmt:statistics-result:export',
    'data-mgmt:tenant-flow:query',
    'data-mgmt:tenant-ranking:query',
    'data-mgmt:plugin:query',
    'data-mgmt:plugin:create',
    'data-mgmt:plugin:update',
    'data-mgmt:plugin:delete',
    'data-mgmt:plugin:execute',
    'data-mgmt:download-template:query',
    'data-mgmt:download-template:create',
    'data-mgmt:download-template:update',
    'data-mgmt:download-template:delete',
    'data-mgmt:clean-task:query',
    'data-mgmt:clean-task:create',
    'data-mgmt:clean-task:update',
    'data-mgmt:clean-task:delete',
    'data-mgmt:clean-task:updateStatus',
    'data-mgmt:clean-task:execute',
    'control:api-key:query',
    'control:api-key:create',
    'control:api-key:delete',
    'workorder:workorder:create',
    'workorder:workorder:query',
    'fence:fence:query',
    'fence:fence:create',
    'fence:fence:update',
    'fence:fence:delete',
    'car:car:query',
    'car:car:create',
    'car:car:update',
    'car:car:delete',
    'things:info-model:query',
    'things:info-model:create',
    'things:info-model:update',
    'things:info-model:delete',
    'mapping:function-block:query',
    'mapping:function-block:create',
    'mapping:function-block:update',
    'mapping:function-block:delete',
    'mapping:category:query',
    'mapping:category:create',
    'mapping:category:update',
    'mapping:category:delete',
    'mapping:entity:query',
    'mapping:entity:create',
    'mapping:entity:update',
    'mapping:entity:delete',
    'mapping:mapping-rule:query',
    'mapping:mapping-rule:create',
    'mapping:mapping-rule:update',
    'mapping:mapping-rule:delete',
    'alert:twins-rule:query',
    'alert:twins-rule:create',
    'alert:twins-rule:update',
    'alert:twins-rule:delete',
    'alert:twins-rule:updateStatus',
    'alert:edge-computing:query',
    'alert:edge-computing:create',
    'alert:edge-computing:update',
    'alert:edge-computing:delete',
    'test-mgmt:script:query',
    'test-mgmt:script:create',
    'test-mgmt:script:update',
    'test-mgmt:script:delete',
    'test-mgmt:script:validate',
    'test-mgmt:script:import',
    'test-mgmt:script:export',
    'test-mgmt:routine:query',
    'test-mgmt:routine:create',
    'test-mgmt:routine:update',
    'test-mgmt:routine:delete',
    'out-hmi:screen:query',
    'out-hmi:screen:create',
    'out-hmi:screen:update',
    'out-hmi:screen:delete',
    'out-hmi:screen:updateStatus',
  ],
  manager: [
    'alert:things-forward:query',
    'alert:things-forward:create',
    'alert:things-forward:update',
    'alert:things-forward:delete',
    'alert:things-forward:updateStatus',
    'alert:things-forward:handle',
    'tenant:user:query',
    'tenant:user:create',
    'tenant:user:update',
    'tenant:user:delete',
    'tenant:user:reset-password',
    // A project decides which devices its sub-users see, as device grants do: the manager's alone.
    'project:project:create',
    'project:project:update',
    'project:project:delete',
    'project:project:bind',
    'project:project:unbind',
    'control:user-menu:update',
    'control:user-role:update',
    'control:tenant-role:query',
    'control:tenant-role:create',
    'control:tenant-role:update',
    'control:tenant-role:delete',
    'billing:order:query',
    'billing:order:create',
    'billing:order:pay',
    'billing:order:cancel',
    'out-hmi:user:query',
    'out-hmi:user:update',
  ],
  system: [
    'tenant:tenant:query',
    'tenant:tenant:update',
    'tenant:tenant:audit',
    'tenant:tenant:export',
    'tenant:tenant:reset-password',
    'tenant:specification:update',
    'notification:push-log:query',
    'out-web:notice:create',
    'out-web:notice:update',
    'out-web:notice:delete',
    'out-web:notice:query',
    'workorder:workorder:handle',
    'mapping:function-block:public',
    'mapping:info-model:public',
    'billing:catalogue:update',
    'billing:coupon:query',
    'billing:order:handle',
    'control:common-role:query',
    'control:common-role:create',
    'control:common-role:update',
    'control:common-role:delete',
    'control:menu:query',
    'control:menu:update',
    'out-web:deploy:query',
    'out-web:deploy:update',
    'control:super-session:create',
    'out-wrapper:user-behaviour:query',
  ],
} as const satisfies Record<PermissionScope, readonly string[]>;

/** A permission key the contract knows: a misspelt key in a route or a call does not compile. */
export type PermissionKey = (typeof PERMISSION_KEYS_BY_SCOPE)[PermissionScope][number];

export interface PermissionDef {
  key: PermissionKey;
  scope: PermissionScope;
}

export const PERMISSIONS: readonly PermissionDef[] = (Object.keys(PERMISSION_KEYS_BY_SCOPE) as PermissionScope[]).flatMap((scope) =>
  PERMISSION_KEYS_BY_SCOPE[scope].map((key): PermissionDef => ({ key, scope })),
);

const byKey = new Map<string, PermissionDef>(PERMISSIONS.map((p) => [p.key, p]));

export function permissionDef(key: string): PermissionDef | undefined {
  return byKey.get(key);
}

export const PERMISSION_KEYS: readonly PermissionKey[] = PERMISSIONS.map((p) => p.key);

export function isPermissionKey(key: string): key is PermissionKey {
  return byKey.has(key);
}

/** Keys a tenant manager may grant to a sub-user. */
export const GRANTABLE_KEYS: readonly string[] = PERMISSIONS.filter((p) => p.scope !== 'system' && p.scope !== 'manager').map((p) => p.key);

/**
 * Spec §6: non-managers get a stored map of allowed API names (each true);
 * managers have the map removed. A call whose key the map lacks is refused
 * locally with http.403.
 */
export type PermissionMap = Record<string, true>;

export function isAllowedByMap(map: PermissionMap | null | undefined, key: string): boolean {
  if (!map) return true;
  return map[key] === true;
}

/** Device permission levels of spec §6. */
export type DeviceAccess = 'read' | 'write';
