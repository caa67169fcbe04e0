import {
  CommandIssueSchema,
  CommandListQuerySchema,
  CommandPageSchema,
  CommandResponseListSchema,
  CommandSchema,
  ErrorResponseSchema,
  ResponseQuerySchema,
  TenantParamsSchema,
  TenantThingParamsSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { inTenant } from '../things/things.access.ts';
import type { CommandService } from './command.service.ts';

const Tenant = TenantParamsSchema;
const TenantThing = TenantThingParamsSchema;
const TenantThingCorr = TenantThing.extend({ correlation_id: z.string().max(64) });
export const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['commands'];
const base = '/v1/things/tenants/:tenant_id';

export const tenantAuth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Spec §7 things service "messages": issue a command, list them, get one, responses. */
export function commandRoutes(root: LoggerheadApp, svc: CommandService) {
  const app = root as unknown as App;
  app.post(
    `${base}/things/:things_id/messages`,
    {
      config: { permission: 'things:things:command' },
      schema: { tags, params: TenantThing, body: CommandIssueSchema, response: { 200: CommandSchema, ...errors } },
    },
    (req) => svc.issue(tenantAuth(req), req.params.things_id, req.body),
  );
  app.get(
    `${base}/things/:things_id/messages`,
    {
      config: { permission: 'things:message:query' },
      schema: { tags, params: TenantThing, querystring: CommandListQuerySchema, response: { 200: CommandPageSchema, ...errors } },
    },
    (req) => svc.page(tenantAuth(req), req.params.things_id, req.query),
  );
  app.get(
    `${base}/things/:things_id/messages/responses`,
    {
      config: { permission: 'things:message:query' },
      schema: { tags, params: TenantThing, querystring: ResponseQuerySchema, response: { 200: CommandResponseListSchema, ...errors } },
    },
    (req) => svc.responses(tenantAuth(req), req.params.things_id, req.query),
  );
  app.get(
    `${base}/messages/responses`,
    {
      config: { permission: 'things:message:query' },
      schema: { tags, params: Tenant, querystring: ResponseQuerySchema, response: { 200: CommandResponseListSchema, ...errors } },
    },
    (req) => svc.responses(tenantAuth(req), undefined, req.query),
  );
  app.get(
    `${base}/things/:things_id/messages/:correlation_id`,
    {
      config: { permission: 'things:message:query' },
      schema: { tags, params: TenantThingCorr, response: { 200: CommandSchema, ...errors } },
    },
    (req) => svc.get(tenantAuth(req), req.params.things_id, req.params.correlation_id),
  );
  app.post(
    `${base}/things/:things_id/messages/:correlation_id/cancel`,
    {
      config: { permission: 'things:things:command' },
      schema: { tags, params: TenantThingCorr, response: { 200: CommandSchema, ...errors } },
    },
    (req) => svc.cancel(tenantAuth(req), req.params.things_id, req.params.correlation_id),
  );
}
