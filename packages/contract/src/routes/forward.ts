import { OkSchema, PageQuerySchema } from '../schemas/common.ts';
import {
  ForwardDeadLetterPageSchema,
  ForwardDeadLetterPickSchema,
  ForwardDeadLetterResultSchema,
  ForwardRuleInputSchema,
  ForwardRulePageSchema,
  ForwardRuleQuerySchema,
  ForwardRuleSchema,
  ForwardStatusParamSchema,
  ForwardTestResultSchema,
  ForwardTestSchema,
} from '../schemas/forward.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const rules = '/alert-mgmt/tenants/:tenant_id/things-forward-rules';

/** Things-forward rules (spec §7 alert-mgmt): rules, their status, a destination test, dead letters. */
export const ForwardRoutes = {
  list: defineRoute({
    method: 'GET',
    path: rules,
    params: TenantParams,
    query: ForwardRuleQuerySchema,
    response: ForwardRulePageSchema,
    permission: 'alert:things-forward:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: rules,
    params: TenantParams,
    body: ForwardRuleInputSchema,
    response: ForwardRuleSchema,
    permission: 'alert:things-forward:create',
  }),
  /** Connects to a destination and sends one test message; nothing is stored. */
  testDestination: defineRoute({
    method: 'POST',
    path: `${rules}/test-destination`,
    params: TenantParams,
    body: ForwardTestSchema,
    response: ForwardTestResultSchema,
    permission: 'alert:things-forward:update',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: ForwardRuleSchema,
    permission: 'alert:things-forward:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${rules}/:id`,
    params: TenantIdParams,
    body: ForwardRuleInputSchema,
    response: ForwardRuleSchema,
    permission: 'alert:things-forward:update',
  }),
  /** `:status` is 1 or `enable`, 0 or `disable`, 2 or `pause` (spec §4: the new status in the path). */
  setStatus: defineRoute({
    method: 'PUT',
    path: `${rules}/:id/status/:status`,
    params: ForwardStatusParamSchema,
    response: ForwardRuleSchema,
    permission: 'alert:things-forward:updateStatus',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'alert:things-forward:delete',
  }),
  deadLetters: defineRoute({
    method: 'GET',
    path: `${rules}/:id/dead-letters`,
    params: TenantIdParams,
    query: PageQuerySchema,
    response: ForwardDeadLetterPageSchema,
    permission: 'alert:things-forward:query',
  }),
  /** Puts dead letters back in the outbox (after the device's queued messages). */
  replayDeadLetters: defineRoute({
    method: 'POST',
    path: `${rules}/:id/dead-letters/replay`,
    params: TenantIdParams,
    body: ForwardDeadLetterPickSchema,
    response: ForwardDeadLetterResultSchema,
    permission: 'alert:things-forward:handle',
  }),
  discardDeadLetters: defineRoute({
    method: 'POST',
    path: `${rules}/:id/dead-letters/discard`,
    params: TenantIdParams,
    body: ForwardDeadLetterPickSchema,
    response: ForwardDeadLetterResultSchema,
    permission: 'alert:things-forward:handle',
  }),
};
