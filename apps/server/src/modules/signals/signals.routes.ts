import { Readable } from 'node:stream';
import {
  BusStatsQuerySchema,
  BusStatsSchema,
  CurveQuerySchema,
  CurveSchema,
  ErrorResponseSchema,
  SignalDataPageSchema,
  SignalDataQuerySchema,
  SignalExportQuerySchema,
  SignalListQuerySchema,
  SignalPeriodQuerySchema,
  SignalPeriodSchema,
  SignalSeriesSchema,
  TenantThingParamsSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';

const TenantThing = TenantThingParamsSchema;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const tags = ['signals'];
const base = '/v1/data-mgmt/tenants/:tenant_id/things/:things_id';

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Decoded signals of a device: stored series, curves, history table, CSV, signal period, bus statistics. */
export async function signalsRoutes(app: LoggerheadApp, ctx: AppContext) {
  const { query, bus } = ctx.signals;

  app.get(
    `${base}/signals`,
    {
      config: { permission: 'data-mgmt:things-data:query' },
      schema: { tags, params: TenantThing, querystring: SignalListQuerySchema, response: { 200: z.array(SignalSeriesSchema), ...errors } },
    },
    (req) => query.list(auth(req), req.params.things_id, req.query.channel),
  );
  app.get(
    `${base}/signals/curve`,
    {
      config: { permission: 'data-mgmt:things-data:history-aggregation' },
      schema: { tags, params: TenantThing, querystring: CurveQuerySchema, response: { 200: CurveSchema, ...errors } },
    },
    // Plain JSON.stringify: checking up to 5 × 10000 numbers against the schema on every response
    // cost more than answering the query; the schema still documents the body.
    async (req, reply) =>
      reply
        .type('application/json')
        .serializer(JSON.stringify)
        .send(await query.curve(auth(req), req.params.things_id, req.query)),
  );
  app.get(
    `${base}/signals/data`,
    {
      config: { permission: 'data-mgmt:things-data:query' },
      schema: { tags, params: TenantThing, querystring: SignalDataQuerySchema, response: { 200: SignalDataPageSchema, ...errors } },
    },
    (req) => query.data(auth(req), req.params.things_id, req.query),
  );
  app.get(
    `${base}/signals/export`,
    {
      config: { permission: 'data-mgmt:things-data:download' },
      schema: { tags, params: TenantThing, querystring: SignalExportQuerySchema },
    },
    async (req, reply) => {
      const body = await query.exportCsv(auth(req), req.params.things_id, req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="signals.csv"')
        .send(Readable.from(body));
    },
  );
  app.get(
    `${base}/signals/period`,
    {
      config: { permission: 'data-mgmt:things-data:signal-period' },
      schema: { tags, params: TenantThing, querystring: SignalPeriodQuerySchema, response: { 200: SignalPeriodSchema, ...errors } },
    },
    (req) => query.period(auth(req), req.params.things_id, req.query),
  );
  app.get(
    `${base}/bus-statistics`,
    {
      config: { permission: 'data-mgmt:things-data:signal-period' },
      schema: { tags, params: TenantThing, querystring: BusStatsQuerySchema, response: { 200: BusStatsSchema, ...errors } },
    },
    (req) => bus.stats(auth(req), req.params.things_id, req.query),
  );
}
