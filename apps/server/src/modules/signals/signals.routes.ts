import { Readable } from 'node:stream';
import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const tags = ['signals'];
const withErrors = { tags, errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Decoded signals of a device: stored series, curves, history table, CSV, signal period, bus statistics. */
export async function signalsRoutes(app: LoggerheadApp, ctx: AppContext) {
  const { query, bus } = ctx.signals;
  const R = Routes.signals;

  route(app, R.series, withErrors, (req) => query.list(auth(req), req.params.things_id, req.query.channel));
  // Plain JSON.stringify: checking up to 5 × 10000 numbers against the schema on every response
  // cost more than answering the query; the schema still documents the body.
  route(app, R.curve, withErrors, async (req, reply) =>
    reply
      .type('application/json')
      .serializer(JSON.stringify)
      .send(await query.curve(auth(req), req.params.things_id, req.query)),
  );
  route(app, R.data, withErrors, (req) => query.data(auth(req), req.params.things_id, req.query));
  route(app, R.exportCsv, { tags }, async (req, reply) => {
    const body = await query.exportCsv(auth(req), req.params.things_id, req.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="signals.csv"')
      .send(Readable.from(body));
  });
  route(app, R.period, withErrors, (req) => query.period(auth(req), req.params.things_id, req.query));
  route(app, R.busStats, withErrors, (req) => bus.stats(auth(req), req.params.things_id, req.query));
}
