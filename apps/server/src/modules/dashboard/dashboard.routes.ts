import { DEFAULT_DASHBOARD_TYPE, ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type Auth, requireAuth } from '../../lib/auth.ts';
import { conflict, forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { type DashboardRow, dashboardRepository } from './dashboard.repository.ts';

const tags = ['data'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags, errors };
const R = Routes.dashboard;

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

  route(app, R.list, withErrors, async (req) => {
    const auth = requireAuth(req.auth);
    ownTenant(auth, req.params.tenant_id);
    const rows = await repo.list(auth.tenantId, req.query.business_type ?? null);
    return { list: rows.map(toDashboard) };
  });

  route(app, R.create, withErrors, async (req, reply) => {
    const auth = requireAuth(req.auth);
    ownTenant(auth, req.params.tenant_id);
    const isDefault = req.body.business_type === DEFAULT_DASHBOARD_TYPE;
    // Spec §6: only the manager creates the default dashboard.
    if (isDefault && !auth.isManager) throw forbidden('Only the tenant manager creates the default dashboard');
    const row = await repo.insert(auth.tenantId, auth.userId, req.body.business_type, req.body.name);
    if (!row) throw conflict('http.409', 'The tenant already has its default dashboard', 'business_type');
    return reply.code(201).send(toDashboard(row));
  });
}
