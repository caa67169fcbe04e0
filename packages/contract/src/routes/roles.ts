import { z } from 'zod';
import { RoleInputSchema, RoleListSchema, RoleSchema, UserRolesSchema } from '../schemas/roles.ts';
import { defineRoute, TenantIdParams, TenantParams, TenantUserParams } from './define.ts';

const roles = '/control/tenants/:tenant_id/roles';

/**
 * Spec §6/§7 control roles: a tenant's roles (bundles of permission keys and menus) and the roles of
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
};
