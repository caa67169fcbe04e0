import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import type { EventsService } from './events.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const withErrors = { tags: ['alert'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Alert events (spec §7 alert-data-mgmt): query, handle, delete, delete all. */
export function eventsRoutes(app: LoggerheadApp, events: EventsService) {
  const R = Routes.alertEvents;
  route(app, R.list, withErrors, (req) => events.list(auth(req), req.query));
  route(app, R.removeAll, withErrors, (req) => events.removeAll(auth(req), req.query));
  route(app, R.get, withErrors, (req) => events.get(auth(req), req.params.id));
  route(app, R.handle, withErrors, (req) => events.handle(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, async (req) => {
    await events.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
}
