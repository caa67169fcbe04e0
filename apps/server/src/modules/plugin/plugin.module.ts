import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { pluginService } from './plugin.service.ts';

const R = Routes.plugins;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['plugins'], errors };

/** Data transform and export plugins (spec §7 /data-mgmt). */
export function pluginModule(app: LoggerheadApp, ctx: AppContext) {
  const svc = pluginService({ raw: ctx.database.raw });
  const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenant_id: string } }) =>
    inTenant(requireAuth(req.auth), req.params.tenant_id);
  route(app, R.list, withErrors, (req) => svc.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => svc.create(auth(req), req.body));
  route(app, R.test, withErrors, (req) => svc.test(auth(req), req.body));
  route(app, R.get, withErrors, (req) => svc.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => svc.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, (req) => svc.remove(auth(req), req.params.id));
  return svc;
}
