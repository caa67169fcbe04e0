import {
  AlertEventHandleSchema,
  AlertEventPageSchema,
  AlertEventQuerySchema,
  AlertEventSchema,
  ErrorResponseSchema,
  OkSchema,
  TenantIdParamsSchema,
  TenantParamsSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';
import type { EventsService } from './events.service.ts';

const Tenant = TenantParamsSchema;
const TenantId = TenantIdParamsSchema;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const tags = ['alert'];
const base = '/v1/alert-data-mgmt/tenants/:tenant_id/events';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Alert events (spec §7 alert-data-mgmt): query, handle, delete, delete all. */
export function eventsRoutes(app: LoggerheadApp, events: EventsService) {
  app.get(
    base,
    {
      config: { permission: 'alert-data:event:query' },
      schema: { tags, params: Tenant, querystring: AlertEventQuerySchema, response: { 200: AlertEventPageSchema, ...errors } },
    },
    (req) => events.list(auth(req), req.query),
  );
  app.delete(
    base,
    {
      config: { permission: 'alert-data:event:delete' },
      schema: {
        tags,
        params: Tenant,
        querystring: AlertEventQuerySchema.omit({ current_page: true, page_size: true }),
        response: { 200: z.object({ deleted: z.number().int() }), ...errors },
      },
    },
    (req) => events.removeAll(auth(req), req.query),
  );
  app.get(
    `${base}/:id`,
    {
      config: { permission: 'alert-data:event:query' },
      schema: { tags, params: TenantId, response: { 200: AlertEventSchema, ...errors } },
    },
    (req) => events.get(auth(req), req.params.id),
  );
  app.put(
    `${base}/:id/handle`,
    {
      config: { permission: 'alert-data:event:handle' },
      schema: { tags, params: TenantId, body: AlertEventHandleSchema, response: { 200: AlertEventSchema, ...errors } },
    },
    (req) => events.handle(auth(req), req.params.id, req.body),
  );
  app.delete(
    `${base}/:id`,
    { config: { permission: 'alert-data:event:delete' }, schema: { tags, params: TenantId, response: { 200: OkSchema, ...errors } } },
    async (req) => {
      await events.remove(auth(req), req.params.id);
      return { ok: true as const };
    },
  );
}
