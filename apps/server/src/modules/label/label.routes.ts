import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { labelRepository } from './label.repository.ts';
import { labelService } from './label.service.ts';

const R = Routes.labels;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['labels'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** The tenant's label registry (spec §7 /tenant/tenants/{tenant_id}/labels). */
export function labelRoutes(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  const labels = labelService({
    repo: labelRepository(ctx.database.raw),
    assertCanAdd: (a, resource, current) => ctx.quota.assertCanAdd(a, resource, current),
  });
  route(app, R.list, withErrors, (req) => labels.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => labels.create(auth(req), req.body));
  route(app, R.batch, withErrors, (req) => labels.batch(auth(req), req.query.ids));
  route(app, R.get, withErrors, (req) => labels.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => labels.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, (req) => labels.remove(auth(req), req.params.ids));
}
