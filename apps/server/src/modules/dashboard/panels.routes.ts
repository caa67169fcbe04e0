import {
  ErrorResponseSchema,
  PanelBodySchema,
  PanelOrderSchema,
  PanelSchema,
  PanelValuesSchema,
  TenantParamsSchema,
  UuidSchema,
} from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { inTenant } from '../things/things.access.ts';
import { panelsService } from './panels.service.ts';

const tags = ['data'];
const Dashboard = TenantParamsSchema.extend({ dashboard_id: UuidSchema });
const PanelParams = Dashboard.extend({ id: UuidSchema });
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const PanelList = z.object({ list: z.array(PanelSchema) });

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/**
 * Panels of a dashboard (spec §3 Panel, §7 data service "dashboards and panels"): list in
 * panel_order, add, change, delete, reorder, and the latest values a number or gauge panel shows.
 */
export function panelRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = panelsService(ctx.database.raw, ctx.signals.repo);
  const base = '/v1/data-mgmt/tenants/:tenant_id/dashboards/:dashboard_id/panels';

  app.get(
    base,
    { config: { permission: 'data-mgmt:dashboard:query' }, schema: { tags, params: Dashboard, response: { 200: PanelList, ...errors } } },
    async (req) => ({ list: await svc.list(auth(req), req.params.dashboard_id) }),
  );
  app.post(
    base,
    {
      config: { permission: 'data-mgmt:dashboard:create' },
      schema: { tags, params: Dashboard, body: PanelBodySchema, response: { 201: PanelSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await svc.create(auth(req), req.params.dashboard_id, req.body)),
  );
  app.put(
    `${base}/order`,
    {
      config: { permission: 'data-mgmt:dashboard:update' },
      schema: { tags, params: Dashboard, body: PanelOrderSchema, response: { 200: PanelList, ...errors } },
    },
    async (req) => ({ list: await svc.reorder(auth(req), req.params.dashboard_id, req.body.ids) }),
  );
  app.get(
    `${base}/:id`,
    {
      config: { permission: 'data-mgmt:dashboard:query' },
      schema: { tags, params: PanelParams, response: { 200: PanelSchema, ...errors } },
    },
    (req) => svc.get(auth(req), req.params.dashboard_id, req.params.id),
  );
  app.put(
    `${base}/:id`,
    {
      config: { permission: 'data-mgmt:dashboard:update' },
      schema: { tags, params: PanelParams, body: PanelBodySchema, response: { 200: PanelSchema, ...errors } },
    },
    (req) => svc.update(auth(req), req.params.dashboard_id, req.params.id, req.body),
  );
  app.delete(
    `${base}/:id`,
    { config: { permission: 'data-mgmt:dashboard:delete' }, schema: { tags, params: PanelParams } },
    async (req, reply) => {
      await svc.remove(auth(req), req.params.dashboard_id, req.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    `${base}/:id/values`,
    {
      config: { permission: 'data-mgmt:dashboard:query' },
      schema: { tags, params: PanelParams, response: { 200: PanelValuesSchema, ...errors } },
    },
    async (req) => ({ list: await svc.values(auth(req), req.params.dashboard_id, req.params.id) }),
  );
}
