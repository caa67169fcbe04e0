import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { SWEEP, statisticsService } from './statistics.service.ts';

const R = Routes.statistics;
const tags = ['statistics'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags, errors };

/** Statistics (spec §7 /data-mgmt): the routes, and the sweep that computes due windows every five minutes. */
export function statisticsModule(app: LoggerheadApp, ctx: AppContext) {
  const svc = statisticsService({ raw: ctx.database.raw });
  ctx.scheduler?.every(SWEEP, '*/5 * * * *', async () => {
    await svc.sweep();
  });
  const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenant_id: string } }) =>
    inTenant(requireAuth(req.auth), req.params.tenant_id);

  route(app, R.methods, { tags }, () => svc.methods());
  route(app, R.list, withErrors, (req) => svc.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => svc.create(auth(req), req.body));
  route(app, R.get, withErrors, (req) => svc.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => svc.update(auth(req), req.params.id, req.body));
  route(app, R.setStatus, withErrors, (req) => svc.setStatus(auth(req), req.params.id, req.params.status));
  route(app, R.remove, withErrors, (req) => svc.remove(auth(req), req.params.id));
  route(app, R.run, withErrors, (req) => svc.runRange(auth(req), req.params.id, req.body));
  route(app, R.results, withErrors, (req) => svc.results(auth(req), req.query));
  route(app, R.resultsCsv, withErrors, async (req, reply) => {
    const { name, csv } = await svc.csv(auth(req), req.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(`statistics-${name}.csv`)}`)
      .send(csv);
  });
  route(app, R.history, withErrors, (req) => svc.history(auth(req), req.query));
  return svc;
}
