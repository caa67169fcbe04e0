import {
  ErrorResponseSchema,
  OkSchema,
  RuleStatusParamSchema,
  TenantIdParamsSchema,
  TenantParamsSchema,
  TriggerRuleExportQuerySchema,
  TriggerRuleExportSchema,
  TriggerRuleImportResultSchema,
  TriggerRuleImportSchema,
  TriggerRuleInputSchema,
  TriggerRulePageSchema,
  TriggerRuleQuerySchema,
  TriggerRuleSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';
import type { RulesService } from './rules.service.ts';

const Tenant = TenantParamsSchema;
const TenantId = TenantIdParamsSchema;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['alert'];
const base = '/v1/alert-mgmt/tenants/:tenant_id/trigger-rules';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Trigger rules (spec §7 alert-mgmt): list, create, get, update, status, delete, import, export. */
export function alertRoutes(app: LoggerheadApp, rules: RulesService) {
  app.get(
    base,
    {
      config: { permission: 'alert:trigger-rule:query' },
      schema: { tags, params: Tenant, querystring: TriggerRuleQuerySchema, response: { 200: TriggerRulePageSchema, ...errors } },
    },
    (req) =>
      rules.list(
        auth(req),
        { thingsId: req.query.things_id, name: req.query.name, status: req.query.status, dataType: req.query.data_type },
        req.query.current_page,
        req.query.page_size,
      ),
  );
  app.post(
    base,
    {
      config: { permission: 'alert:trigger-rule:create' },
      schema: { tags, params: Tenant, body: TriggerRuleInputSchema, response: { 200: TriggerRuleSchema, ...errors } },
    },
    (req) => rules.create(auth(req), req.body),
  );
  app.get(
    `${base}/export`,
    {
      config: { permission: 'alert:trigger-rule:export' },
      schema: { tags, params: Tenant, querystring: TriggerRuleExportQuerySchema, response: { 200: TriggerRuleExportSchema, ...errors } },
    },
    async (req, reply) => {
      const body = await rules.exportRules(auth(req), req.query);
      return reply.header('content-disposition', 'attachment; filename="trigger-rules.json"').send(body);
    },
  );
  app.post(
    `${base}/import`,
    {
      config: { permission: 'alert:trigger-rule:import' },
      schema: { tags, params: Tenant, body: TriggerRuleImportSchema, response: { 200: TriggerRuleImportResultSchema, ...errors } },
    },
    (req) => rules.importRules(auth(req), req.body),
  );
  app.get(
    `${base}/:id`,
    {
      config: { permission: 'alert:trigger-rule:query' },
      schema: { tags, params: TenantId, response: { 200: TriggerRuleSchema, ...errors } },
    },
    (req) => rules.get(auth(req), req.params.id),
  );
  app.put(
    `${base}/:id`,
    {
      config: { permission: 'alert:trigger-rule:update' },
      schema: { tags, params: TenantId, body: TriggerRuleInputSchema, response: { 200: TriggerRuleSchema, ...errors } },
    },
    (req) => rules.update(auth(req), req.params.id, req.body),
  );
  app.put(
    `${base}/:id/status/:status`,
    {
      config: { permission: 'alert:trigger-rule:updateStatus' },
      schema: { tags, params: RuleStatusParamSchema, response: { 200: TriggerRuleSchema, ...errors } },
    },
    (req) => rules.setStatus(auth(req), req.params.id, req.params.status as 0 | 1),
  );
  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'alert:trigger-rule:delete' },
      schema: { tags, params: TenantId, response: { 200: OkSchema, ...errors } },
    },
    async (req) => {
      await rules.remove(auth(req), req.params.id);
      return { ok: true as const };
    },
  );
}
