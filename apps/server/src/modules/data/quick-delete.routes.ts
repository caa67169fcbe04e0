import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { quickDeleteService } from './quick-delete.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 423: ErrorResponseSchema };
const tags = ['data'];
const withErrors = { tags, errors };
const R = Routes.data;

/** Spec §7 data service quick-delete task (tenant, delete_children, things_id), with the password. */
export function quickDeleteRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = quickDeleteService({
    raw: ctx.database.raw,
    events: ctx.events,
    files: ctx.files,
    reauth: (auth, password) => ctx.control.reauth(auth, password),
    packages: ctx.packages,
    usage: ctx.usage,
    signals: ctx.signals,
    log: app.log,
    owner: ctx.jobs.owner,
  });
  ctx.jobs.register('quick-delete', (pass) => svc.recover(pass));

  route(app, R.createQuickDelete, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  route(app, R.quickDeletes, withErrors, (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.query));
  route(app, R.quickDelete, withErrors, (req) => svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.id));

  app.addHook('onClose', async () => {
    await svc.idle();
  });
  return svc;
}
