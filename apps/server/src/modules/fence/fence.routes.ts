import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { fenceRepository } from './fence.repository.ts';
import { fenceService } from './fence.service.ts';

const R = Routes.fence;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['fence'];
const withErrors = { tags, errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** E-fences (EFenceManager): list, create, get, update, bind devices, delete. */
export function fenceRoutes(app: LoggerheadApp, ctx: AppContext) {
  const fences = fenceService(ctx.database.raw, fenceRepository(ctx.database.raw), ctx.events);
  route(app, R.list, withErrors, (req) => fences.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => fences.create(auth(req), req.body));
  route(app, R.get, withErrors, (req) => fences.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => fences.update(auth(req), req.params.id, req.body));
  route(app, R.bind, withErrors, (req) => fences.bind(auth(req), req.params.id, req.body.things_ids));
  route(app, R.remove, withErrors, async (req) => {
    await fences.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
}
