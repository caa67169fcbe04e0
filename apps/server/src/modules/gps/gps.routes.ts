import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { gpsRepository } from './gps.repository.ts';
import { gpsService } from './gps.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const tags = ['gps'];
const withErrors = { tags, errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** GPS track of a device for a time range (thinned, with distance and stops), and its latest fixes. */
export function gpsRoutes(app: LoggerheadApp, ctx: AppContext) {
  const gps = gpsService(ctx.database.raw, gpsRepository(ctx.database.raw));
  route(app, Routes.gps.track, withErrors, (req) => gps.track(auth(req), req.params.things_id, req.query));
  route(app, Routes.gps.live, withErrors, (req) => gps.live(auth(req), req.params.things_id, req.query.limit));
}
