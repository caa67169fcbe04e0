import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { trafficService } from './traffic.service.ts';

const R = Routes.traffic;
const withErrors = { tags: ['data'], errors: { 400: ErrorResponseSchema, 403: ErrorResponseSchema } };

/** Tenant flow and device ranking (spec §7 /data-mgmt); hours past what a range reads are dropped daily. */
export function trafficRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = trafficService({ raw: ctx.database.raw });
  runPeriodically(app, ctx, { name: 'traffic-prune', everyMs: 86_400_000, cron: '23 4 * * *', work: () => svc.prune() });
  const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenant_id: string } }) =>
    inTenant(requireAuth(req.auth), req.params.tenant_id);

  route(app, R.flow, withErrors, (req) => svc.flow(auth(req), req.query));
  route(app, R.ranking, withErrors, (req) => svc.ranking(auth(req), req.query));
  return svc;
}
