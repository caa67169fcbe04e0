import { ApiKeyCreatedSchema, ApiKeyInputSchema, ApiKeyPageSchema, ApiKeyQuerySchema } from '../schemas/api-keys.ts';
import { OkSchema } from '../schemas/common.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const keys = '/control/tenants/:tenant_id/api-keys';

/** Tenant API keys for machines: list, create (the token shown once), revoke. */
export const ApiKeyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: keys,
    params: TenantParams,
    query: ApiKeyQuerySchema,
    response: ApiKeyPageSchema,
    permission: 'control:api-key:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: keys,
    params: TenantParams,
    body: ApiKeyInputSchema,
    response: ApiKeyCreatedSchema,
    permission: 'control:api-key:create',
  }),
  /** Revokes a key: calls with it are refused from then on; it stays listed as revoked. */
  revoke: defineRoute({
    method: 'DELETE',
    path: `${keys}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'control:api-key:delete',
  }),
};
