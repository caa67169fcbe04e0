import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { CLEAN_SWEEP, dataServiceService } from './data-service.service.ts';
import type { downloadsService } from './downloads.service.ts';

const R = Routes.dataService;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['data'], errors };

/** Download templates and clean tasks (spec §7 /data-mgmt); clean tasks run daily on the job scheduler. */
export function dataServiceRoutes(app: LoggerheadApp, ctx: AppContext, exports: ReturnType<typeof downloadsService>) {
  const svc = dataServiceService({ raw: ctx.database.raw, exports, signals: ctx.signals });
  ctx.scheduler?.every(CLEAN_SWEEP, '41 * * * *', async () => {
    const n = await svc.sweep();
    if (n) app.log.info({ tasks: n }, 'clean tasks run');
  });
  const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenant_id: string } }) =>
    inTenant(requireAuth(req.auth), req.params.tenant_id);

  route(app, R.templates, withErrors, (req) => svc.templates(auth(req), req.query));
  route(app, R.createTemplate, withErrors, (req) => svc.createTemplate(auth(req), req.body));
  route(app, R.template, withErrors, (req) => svc.template(auth(req), req.params.id));
  route(app, R.updateTemplate, withErrors, (req) => svc.updateTemplate(auth(req), req.params.id, req.body));
  route(app, R.removeTemplate, withErrors, (req) => svc.removeTemplate(auth(req), req.params.id));
  route(app, R.runTemplate, withErrors, (req) => svc.runTemplate(auth(req), req.params.id, req.body));

  route(app, R.cleanTasks, withErrors, (req) => svc.cleanTasks(auth(req), req.query));
  route(app, R.createCleanTask, withErrors, (req) => svc.createCleanTask(auth(req), req.body));
  route(app, R.cleanTask, withErrors, (req) => svc.cleanTask(auth(req), req.params.id));
  route(app, R.updateCleanTask, withErrors, (req) => svc.updateCleanTask(auth(req), req.params.id, req.body));
  route(app, R.setCleanTaskStatus, withErrors, (req) => svc.setCleanTaskStatus(auth(req), req.params.id, req.params.status));
  route(app, R.removeCleanTask, withErrors, (req) => svc.removeCleanTask(auth(req), req.params.id));
  route(app, R.runCleanTask, withErrors, (req) => svc.runCleanTask(auth(req), req.params.id));
  return svc;
}
