import { TenantFlowQuerySchema, TenantFlowSchema, TenantRankingPageSchema, TenantRankingQuerySchema } from '../schemas/traffic.ts';
import { defineRoute, TenantParams } from './define.ts';

const base = '/data-mgmt/tenants/:tenant_id';

/** Tenant flow and ranking (spec §7 /data-mgmt); the tenant's usage is `Routes.billing.usage` beside them. */
export const TrafficRoutes = {
  flow: defineRoute({
    method: 'GET',
    path: `${base}/flow`,
    params: TenantParams,
    query: TenantFlowQuerySchema,
    response: TenantFlowSchema,
    permission: 'data-mgmt:tenant-flow:query',
  }),
  ranking: defineRoute({
    method: 'GET',
    path: `${base}/ranking`,
    params: TenantParams,
    query: TenantRankingQuerySchema,
    response: TenantRankingPageSchema,
    permission: 'data-mgmt:tenant-ranking:query',
  }),
};
