import { z } from 'zod';
import {
  GlobalMenuSchema,
  RoleInputSchema,
  RoleListSchema,
  RoleSchema,
  TenantApiListSchema,
  UserMenusSchema,
  UserPrivilegesSchema,
  UserRolesSchema,
} from '../schemas/roles.ts';
import { defineRoute, IdParams, TenantIdParams, TenantParams, TenantUserParams } from './define.ts';

const roles = '/control/tenants/:tenant_id/roles';

/**
 * Spec §6/§7 control roles: a tenant's roles (its own and the common ones, which its manager lists and
 * gives but does not change) (bundles of permission keys and menus) and the roles of
 * its sub-users. Only the tenant manager changes them; the server enforces a role's keys on its holders.
 */
export const RoleRoutes = {
  list: defineRoute({
    method: 'GET',
    path: roles,
    params: TenantParams,
    response: RoleListSchema,
    permission: 'control:tenant-role:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: roles,
    params: TenantParams,
    body: RoleInputSchema,
    response: RoleSchema,
    permission: 'control:tenant-role:create',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${roles}/:id`,
    params: TenantIdParams,
    body: RoleInputSchema,
    response: RoleSchema,
    permission: 'control:tenant-role:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${roles}/:id`,
    params: TenantIdParams,
    response: z.object({ ok: z.literal(true) }),
    permission: 'control:tenant-role:delete',
  }),
  userRoles: defineRoute({
    method: 'GET',
    path: '/control/tenants/:tenant_id/users/:user_id/roles',
    params: TenantUserParams,
    response: RoleListSchema,
    permission: 'control:user-role:query',
  }),
  setUserRoles: defineRoute({
    method: 'PUT',
    path: '/control/tenants/:tenant_id/users/:user_id/roles',
    params: TenantUserParams,
    body: UserRolesSchema,
    response: RoleListSchema,
    permission: 'control:user-role:update',
  }),
  /** Spec §7 control privileges: what a user of the tenant holds (its own and its roles' keys and menus). */
  userPrivileges: defineRoute({
    method: 'GET',
    path: '/control/tenants/:tenant_id/users/:user_id/privileges',
    params: TenantUserParams,
    response: UserPrivilegesSchema,
    permission: 'control:user-role:query',
  }),
  /** Spec §7 control user menus: a sub-user's own menus (the same bindings the sub-user form sets). */
  userMenus: defineRoute({
    method: 'GET',
    path: '/control/tenants/:tenant_id/users/:user_id/menus',
    params: TenantUserParams,
    response: UserMenusSchema,
    permission: 'control:user-menu:query',
  }),
  /** Replaces a sub-user's own menus; a manager-only menu is refused; its sessions read the change on their next call. */
  setUserMenus: defineRoute({
    method: 'PUT',
    path: '/control/tenants/:tenant_id/users/:user_id/menus',
    params: TenantUserParams,
    body: UserMenusSchema,
    response: UserMenusSchema,
    permission: 'control:user-menu:update',
  }),
  /** Spec §7 control tenant-apis: the APIs (permission keys) a role or a sub-user of the caller's tenant may be given. */
  tenantApis: defineRoute({
    method: 'GET',
    path: '/control/tenant-apis',
    response: TenantApiListSchema,
    permission: 'control:tenant-role:query',
  }),
};

const common = '/control/common-roles';

/** Spec §7 control common-roles: roles the system manager defines for every tenant. */
export const CommonRoleRoutes = {
  list: defineRoute({ method: 'GET', path: common, response: RoleListSchema, permission: 'control:common-role:query' }),
  create: defineRoute({
    method: 'POST',
    path: common,
    body: RoleInputSchema,
    response: RoleSchema,
    permission: 'control:common-role:create',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${common}/:id`,
    params: IdParams,
    body: RoleInputSchema,
    response: RoleSchema,
    permission: 'control:common-role:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${common}/:id`,
    params: IdParams,
    response: z.object({ ok: z.literal(true) }),
    permission: 'control:common-role:delete',
  }),
};

/** The global menu configuration the header reads (through the global config); the system manager edits it. */
export const GlobalMenuRoutes = {
  get: defineRoute({ method: 'GET', path: '/control/menus', response: GlobalMenuSchema, permission: 'control:menu:query' }),
  update: defineRoute({
    method: 'PUT',
    path: '/control/menus',
    body: GlobalMenuSchema,
    response: GlobalMenuSchema,
    permission: 'control:menu:update',
  }),
};
