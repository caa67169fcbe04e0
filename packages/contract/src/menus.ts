import type { PermissionKey } from './permissions.ts';

/**
 * Header and user-dropdown menu entries (spec §2). Sub-users see only the
 * entries bound to them; SystemSetting is never shown to sub-users.
 */
export const MENU_KEYS = [
  'home',
  'dashboard',
  'car',
  'dbc',
  'test',
  'ecu',
  'fence',
  'workorder',
  'device-type',
  'label',
  'group',
  'project',
  'forward',
  'statistics',
  'data-usage',
  'plugin',
  'job',
  'hmi',
  'api-key',
  'fault-code',
  'subuser',
  'oplog',
  'system-config',
  'system-setting',
] as const;

export type MenuKey = (typeof MENU_KEYS)[number];

/** Menu entries a sub-user can never be bound to. */
export const MANAGER_ONLY_MENUS: readonly MenuKey[] = ['subuser', 'forward', 'system-setting'];

/**
 * What a menu entry needs to open: binding the menu also grants these (the manager can still take
 * them away). Data, not calls: typed as keys so that a renamed or misspelt one fails to compile.
 * The server enforces the keys; this table only saves the manager from picking them one by one.
 */
export const MENU_GRANTS: Partial<Record<MenuKey, readonly PermissionKey[]>> = {
  home: ['things:things:page', 'things:things:query', 'things:things:queryone', 'things:info-model:query'],
  dashboard: ['data-mgmt:dashboard:query', 'data-mgmt:things-data:history-aggregation'],
  car: ['car:car:query', 'things:things:page'],
  dbc: ['mapping:dbc:query'],
  // Tests: the scripts, routines and runs tabs (and their reports); the device picker of a start.
  test: ['test-mgmt:script:query', 'test-mgmt:routine:query', 'test-mgmt:run:query', 'things:things:page'],
  ecu: ['candtu:ecu:query'],
  fence: ['fence:fence:query'],
  workorder: ['workorder:workorder:query', 'workorder:workorder:create'],
  'device-type': ['things:info-model:query', 'mapping:function-block:query', 'mapping:category:query'],
  // Labels: the registry; Device groups: groups, their devices and commands (the device picker too).
  label: ['tenant:label:query', 'things:things:page'],
  group: ['group:group:query', 'things:things:page'],
  // Projects: the projects the sub-user is a member of and their devices.
  project: ['project:project:query', 'things:things:page'],
  'fault-code': ['candtu:dtc:query'],
  oplog: ['data-mgmt:op-log:query'],
  'api-key': ['control:api-key:query'],
  // Statistics: the tasks, their results and history; the device picker of a task.
  statistics: ['data-mgmt:statistics-task:query', 'data-mgmt:statistics-result:query', 'things:things:page'],
  // Data service: the plugins (list and test-run box), download templates and clean tasks; their device picker.
  plugin: [
    'data-mgmt:plugin:query',
    'data-mgmt:plugin:execute',
    'data-mgmt:download-template:query',
    'data-mgmt:clean-task:query',
    'things:things:page',
  ],
  // Data usage: the tenant's flow over time and its devices ranked by traffic (storage against the quota needs no key).
  'data-usage': ['data-mgmt:tenant-flow:query', 'data-mgmt:tenant-ranking:query'],
  // Scheduled jobs: the jobs and their log; the device and group pickers of the job dialog.
  job: ['job-mgmt:job:query', 'job-mgmt:job-log:query', 'things:things:page', 'group:group:query'],
  // HMI screens: the screens, and the device picker of the editor.
  hmi: ['out-hmi:screen:query', 'things:things:page'],
  'system-config': ['tenant:customization:update'],
};
