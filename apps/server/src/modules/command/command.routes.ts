import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import type { CommandService } from './command.service.ts';

const R = Routes.command;
export const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['commands'];
const withErrors = { tags, errors };

export const tenantAuth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Spec §7 things service "messages": issue a command, list them, get one, responses. */
export function commandRoutes(root: LoggerheadApp, svc: CommandService) {
  const app = root as unknown as App;
  route(app, R.issue, withErrors, (req) => svc.issue(tenantAuth(req), req.params.things_id, req.body));
  route(app, R.deviceTest, withErrors, (req) => svc.deviceTest(tenantAuth(req), req.params.things_id, req.body));
  route(app, R.page, withErrors, (req) => svc.page(tenantAuth(req), req.params.things_id, req.query));
  route(app, R.responses, withErrors, (req) => svc.responses(tenantAuth(req), req.params.things_id, req.query));
  route(app, R.tenantResponses, withErrors, (req) => svc.responses(tenantAuth(req), undefined, req.query));
  route(app, R.get, withErrors, (req) => svc.get(tenantAuth(req), req.params.things_id, req.params.correlation_id));
  route(app, R.cancel, withErrors, (req) => svc.cancel(tenantAuth(req), req.params.things_id, req.params.correlation_id));
}
