import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { panelsService } from './panels.service.ts';

const tags = ['data'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags, errors };
const R = Routes.dashboard;

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/**
 * Panels of a dashboard (spec §3 Panel, §7 data service "dashboards and panels"): list in
 * panel_order, add, change, delete, reorder, and the latest values a number or gauge panel shows.
 */
export function panelRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = panelsService(ctx.database.raw, ctx.signals.repo);

  route(app, R.panels, withErrors, async (req) => ({ list: await svc.list(auth(req), req.params.dashboard_id) }));
  route(app, R.createPanel, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.create(auth(req), req.params.dashboard_id, req.body)),
  );
  route(app, R.reorderPanels, withErrors, async (req) => ({ list: await svc.reorder(auth(req), req.params.dashboard_id, req.body.ids) }));
  route(app, R.panel, withErrors, (req) => svc.get(auth(req), req.params.dashboard_id, req.params.id));
  route(app, R.updatePanel, withErrors, (req) => svc.update(auth(req), req.params.dashboard_id, req.params.id, req.body));
  route(app, R.removePanel, { tags }, async (req, reply) => {
    await svc.remove(auth(req), req.params.dashboard_id, req.params.id);
    return reply.code(204).send();
  });
  route(app, R.panelValues, withErrors, async (req) => ({ list: await svc.values(auth(req), req.params.dashboard_id, req.params.id) }));
}
