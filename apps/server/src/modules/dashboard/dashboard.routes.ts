import {
  CreateDashboardRequestSchema,
  DashboardListQuerySchema,
  DashboardSchema,
  DEFAULT_DASHBOARD_TYPE,
  ErrorResponseSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type Auth, requireAuth } from '../../lib/auth.ts';
import { conflict, forbidden } from '../../lib/errors.ts';
import { type DashboardRow, dashboardRepository } from './dashboard.repository.ts';

const tags = ['data'];
const TenantParams = z.object({ tenant_id: z.guid() });
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 409: ErrorResponseSchema };

const toDashboard = (r: DashboardRow) => ({ ...r, created_at: r.created_at.getTime() });

function ownTenant(auth: Auth, tenantId: string) {
  if (auth.tenantId !== tenantId) throw forbidden();
}

/**
 * Dashboards (spec §7: get a batch by tenant and business type; add one with tenant,
 * business type and name). At login the console asks for the tenant's default dashboard
 * and, when there is none and the user is the manager, creates it (spec §4, §6).
 */
export function dashboardRoutes(app: LoggerheadApp, ctx: AppContext) {
  const repo = dashboardRepository(ctx.database.raw);
  const base = '/v1/data-mgmt/tenants/:tenant_id/dashboards';

  app.get(
    base,
    {
      schema: {
        tags,
        params: TenantParams,
        querystring: DashboardListQuerySchema,
        response: { 200: z.object({ list: z.array(DashboardSchema) }), ...errors },
      },
    },
    async (req) => {
      const auth = requireAuth(req.auth);
      ownTenant(auth, req.params.tenant_id);
      const rows = await repo.list(auth.tenantId, req.query.business_type ?? null);
      return { list: rows.map(toDashboard) };
    },
  );

  app.post(
    base,
    {
      config: { permission: 'data-mgmt:dashboard:create' },
      schema: { tags, params: TenantParams, body: CreateDashboardRequestSchema, response: { 201: DashboardSchema, ...errors } },
    },
    async (req, reply) => {
      const auth = requireAuth(req.auth);
      ownTenant(auth, req.params.tenant_id);
      const isDefault = req.body.business_type === DEFAULT_DASHBOARD_TYPE;
      // Spec §6: only the manager creates the default dashboard.
      if (isDefault && !auth.isManager) throw forbidden('Only the tenant manager creates the default dashboard');
      const row = await repo.insert(auth.tenantId, auth.userId, req.body.business_type, req.body.name);
      if (!row) throw conflict('http.409', 'The tenant already has its default dashboard', 'business_type');
      return reply.code(201).send(toDashboard(row));
    },
  );
}
