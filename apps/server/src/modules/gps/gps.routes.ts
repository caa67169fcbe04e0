import {
  ErrorResponseSchema,
  GpsLiveQuerySchema,
  GpsLiveSchema,
  GpsTrackQuerySchema,
  GpsTrackSchema,
  TenantThingParamsSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';
import { gpsRepository } from './gps.repository.ts';
import { gpsService } from './gps.service.ts';

const TenantThing = TenantThingParamsSchema;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const tags = ['gps'];
const base = '/v1/things/tenants/:tenant_id/things/:things_id/gps';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** GPS track of a device for a time range (thinned, with distance and stops), and its latest fixes. */
export function gpsRoutes(app: LoggerheadApp, ctx: AppContext) {
  const gps = gpsService(ctx.database.raw, gpsRepository(ctx.database.raw));
  app.get(
    base,
    {
      config: { permission: 'things:gps:query' },
      schema: { tags, params: TenantThing, querystring: GpsTrackQuerySchema, response: { 200: GpsTrackSchema, ...errors } },
    },
    (req) => gps.track(auth(req), req.params.things_id, req.query),
  );
  app.get(
    `${base}/live`,
    {
      config: { permission: 'things:gps:query' },
      schema: { tags, params: TenantThing, querystring: GpsLiveQuerySchema, response: { 200: GpsLiveSchema, ...errors } },
    },
    (req) => gps.live(auth(req), req.params.things_id, req.query.limit),
  );
}
