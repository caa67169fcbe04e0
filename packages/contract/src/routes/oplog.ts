import { OpLogQuerySchema, OpLogSchema } from '../schemas/accounts.ts';
import { pageOf } from '../schemas/common.ts';
import { defineRoute, TenantParams } from './define.ts';

/** Operation log of one tenant (UserManager/Log): every change made through the API, by whom, when, from where. */
export const OpLogRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/data-mgmt/tenants/:tenant_id/op-logs',
    params: TenantParams,
    query: OpLogQuerySchema,
    response: pageOf(OpLogSchema),
    permission: 'data-mgmt:op-log:query',
  }),
};
