import { OkSchema } from '../schemas/common.ts';
import { FenceBindSchema, FenceInputSchema, FencePageSchema, FenceQuerySchema, FenceSchema } from '../schemas/fence.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/fence/tenants/:tenant_id/fences';

/** E-fences (EFenceManager): list, create, get, update, bind devices, delete (spec §7 fence service). */
export const FenceRoutes = {
  list: defineRoute({
    method: 'GET',
    path: base,
    params: TenantParams,
    query: FenceQuerySchema,
    response: FencePageSchema,
    permission: 'fence:fence:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: base,
    params: TenantParams,
    body: FenceInputSchema,
    response: FenceSchema,
    permission: 'fence:fence:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/:id`,
    params: TenantIdParams,
    response: FenceSchema,
    permission: 'fence:fence:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/:id`,
    params: TenantIdParams,
    body: FenceInputSchema,
    response: FenceSchema,
    permission: 'fence:fence:update',
  }),
  bind: defineRoute({
    method: 'PUT',
    path: `${base}/:id/things`,
    params: TenantIdParams,
    body: FenceBindSchema,
    response: FenceSchema,
    permission: 'fence:fence:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'fence:fence:delete',
  }),
};
