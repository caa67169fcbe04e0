import {
  ErrorResponseSchema,
  PageQuerySchema,
  QuickDeleteRequestSchema,
  QuickDeleteTaskPageSchema,
  QuickDeleteTaskSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { quickDeleteService } from './quick-delete.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 423: ErrorResponseSchema };
const Tenant = z.object({ tenant_id: z.uuid() });
const tags = ['data'];
const base = '/v1/data-mgmt/tenants/:tenant_id/quick-delete-tasks';

/** Spec §7 data service quick-delete task (tenant, delete_children, things_id), with the password. */
export function quickDeleteRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = quickDeleteService({
    raw: ctx.database.raw,
    events: ctx.events,
    dataDir: ctx.config.dataDir,
    reauth: (auth, password) => ctx.control.reauth(auth, password),
    packages: ctx.packages,
    usage: ctx.usage,
    signals: ctx.signals,
    log: app.log,
    owner: ctx.jobs.owner,
  });
  ctx.jobs.register('quick-delete', (pass) => svc.recover(pass));

  app.post(
    base,
    {
      config: { permission: 'data-mgmt:things-data:delete' },
      schema: { tags, params: Tenant, body: QuickDeleteRequestSchema, response: { 201: QuickDeleteTaskSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await svc.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  app.get(
    base,
    {
      config: { permission: 'data-mgmt:things-data:query' },
      schema: { tags, params: Tenant, querystring: PageQuerySchema, response: { 200: QuickDeleteTaskPageSchema, ...errors } },
    },
    (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.query),
  );
  app.get(
    `${base}/:id`,
    {
      config: { permission: 'data-mgmt:things-data:query' },
      schema: { tags, params: Tenant.extend({ id: z.uuid() }), response: { 200: QuickDeleteTaskSchema, ...errors } },
    },
    (req) => svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.id),
  );

  app.addHook('onClose', async () => {
    await svc.idle();
  });
  return svc;
}
