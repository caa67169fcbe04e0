import { OkSchema } from '../schemas/common.ts';
import {
  EdgeIssuancePageSchema,
  EdgeIssuanceQuerySchema,
  EdgeIssueResultSchema,
  EdgeIssueSchema,
  EdgeRuleInputSchema,
  EdgeRulePageSchema,
  EdgeRuleQuerySchema,
  EdgeRuleSchema,
} from '../schemas/edge.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const rules = '/alert-mgmt/tenants/:tenant_id/edge-computing-rules';

/** Edge-computing rules and their issuance history (spec §7 /alert-mgmt). */
export const EdgeRuleRoutes = {
  list: defineRoute({
    method: 'GET',
    path: rules,
    params: TenantParams,
    query: EdgeRuleQuerySchema,
    response: EdgeRulePageSchema,
    permission: 'alert:edge-computing:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: rules,
    params: TenantParams,
    body: EdgeRuleInputSchema,
    response: EdgeRuleSchema,
    permission: 'alert:edge-computing:create',
  }),
  /** Every issuance of the tenant's rules to devices it can see, newest first. */
  issuances: defineRoute({
    method: 'GET',
    path: `${rules}/issuances`,
    params: TenantParams,
    query: EdgeIssuanceQuerySchema,
    response: EdgeIssuancePageSchema,
    permission: 'alert:edge-computing:query',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: EdgeRuleSchema,
    permission: 'alert:edge-computing:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${rules}/:id`,
    params: TenantIdParams,
    body: EdgeRuleInputSchema,
    response: EdgeRuleSchema,
    permission: 'alert:edge-computing:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'alert:edge-computing:delete',
  }),
  /** Sends the rule to devices (`edge.set_rule`, docs/device-protocol.md); each device's answer is tracked. */
  issue: defineRoute({
    method: 'POST',
    path: `${rules}/:id/issuance`,
    params: TenantIdParams,
    body: EdgeIssueSchema,
    response: EdgeIssueResultSchema,
    permission: 'alert:edge-computing:issuance',
  }),
};
