import { z } from 'zod';
import {
  AlertEventHandleSchema,
  AlertEventPageSchema,
  AlertEventQuerySchema,
  AlertEventSchema,
  RuleStatusParamSchema,
  TriggerRuleExportQuerySchema,
  TriggerRuleExportSchema,
  TriggerRuleImportResultSchema,
  TriggerRuleImportSchema,
  TriggerRuleInputSchema,
  TriggerRulePageSchema,
  TriggerRuleQuerySchema,
  TriggerRuleSchema,
} from '../schemas/alert.ts';
import { OkSchema } from '../schemas/common.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const rules = '/alert-mgmt/tenants/:tenant_id/trigger-rules';
const events = '/alert-data-mgmt/tenants/:tenant_id/events';

/** Trigger rules (spec §7 alert-mgmt): list, create, get, update, status, delete, import, export. */
export const AlertRoutes = {
  list: defineRoute({
    method: 'GET',
    path: rules,
    params: TenantParams,
    query: TriggerRuleQuerySchema,
    response: TriggerRulePageSchema,
    permission: 'alert:trigger-rule:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: rules,
    params: TenantParams,
    body: TriggerRuleInputSchema,
    response: TriggerRuleSchema,
    permission: 'alert:trigger-rule:create',
  }),
  /** The rules as a JSON file (also sent as an attachment). */
  exportRules: defineRoute({
    method: 'GET',
    path: `${rules}/export`,
    params: TenantParams,
    query: TriggerRuleExportQuerySchema,
    response: TriggerRuleExportSchema,
    permission: 'alert:trigger-rule:export',
  }),
  importRules: defineRoute({
    method: 'POST',
    path: `${rules}/import`,
    params: TenantParams,
    body: TriggerRuleImportSchema,
    response: TriggerRuleImportResultSchema,
    permission: 'alert:trigger-rule:import',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: TriggerRuleSchema,
    permission: 'alert:trigger-rule:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${rules}/:id`,
    params: TenantIdParams,
    body: TriggerRuleInputSchema,
    response: TriggerRuleSchema,
    permission: 'alert:trigger-rule:update',
  }),
  /** `:status` is 1 or `enable`, 0 or `disable`. */
  setStatus: defineRoute({
    method: 'PUT',
    path: `${rules}/:id/status/:status`,
    params: RuleStatusParamSchema,
    response: TriggerRuleSchema,
    permission: 'alert:trigger-rule:updateStatus',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'alert:trigger-rule:delete',
  }),
};

/** Alert events (spec §7 alert-data-mgmt): query, handle, delete, delete all. */
export const AlertEventRoutes = {
  list: defineRoute({
    method: 'GET',
    path: events,
    params: TenantParams,
    query: AlertEventQuerySchema,
    response: AlertEventPageSchema,
    permission: 'alert-data:event:query',
  }),
  /** Every event the filter selects. */
  removeAll: defineRoute({
    method: 'DELETE',
    path: events,
    params: TenantParams,
    query: AlertEventQuerySchema.omit({ current_page: true, page_size: true }),
    response: z.object({ deleted: z.number().int() }),
    permission: 'alert-data:event:delete',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${events}/:id`,
    params: TenantIdParams,
    response: AlertEventSchema,
    permission: 'alert-data:event:query',
  }),
  handle: defineRoute({
    method: 'PUT',
    path: `${events}/:id/handle`,
    params: TenantIdParams,
    body: AlertEventHandleSchema,
    response: AlertEventSchema,
    permission: 'alert-data:event:handle',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${events}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'alert-data:event:delete',
  }),
};
