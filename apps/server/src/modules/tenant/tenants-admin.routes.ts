import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import type { TenantsAdminService } from './tenants-admin.service.ts';

const tags = ['tenant-admin'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const withErrors = { tags, errors };

/** Platform administration of tenants (system managers; spec §7 tenant service). */
export function tenantsAdminRoutes(app: LoggerheadApp, svc: TenantsAdminService) {
  const R = Routes.tenantAdmin;
  route(app, R.list, withErrors, (req) => svc.list(requireAuth(req.auth), req.query));
  route(app, R.audits, withErrors, (req) => svc.list(requireAuth(req.auth), req.query));
  route(app, R.auditStatistic, withErrors, (req) => svc.statistic(requireAuth(req.auth)));
  route(app, R.csv, { tags }, async (req, reply) => {
    const csv = await svc.csv(requireAuth(req.auth), req.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="tenants-${new Date().toISOString().slice(0, 10)}.csv"`)
      .send(csv);
  });
  route(app, R.get, withErrors, (req) => svc.get(requireAuth(req.auth), req.params.id));
  route(app, R.users, withErrors, (req) => svc.users(requireAuth(req.auth), req.params.id, req.query));
  route(app, R.resetUserPassword, withErrors, async (req, reply) => {
    await svc.resetUserPassword(requireAuth(req.auth), req.params.id, req.params.user_id, req.body?.password);
    return reply.code(204).send();
  });
  route(app, R.quotas, withErrors, (req) => svc.quotas(requireAuth(req.auth), req.params.id));
  route(app, R.updateQuotas, withErrors, (req) => svc.updateQuotas(requireAuth(req.auth), req.params.id, req.body));
  route(app, R.update, withErrors, (req) => svc.update(requireAuth(req.auth), req.params.id, req.body));
  route(app, R.audit, withErrors, (req) =>
    svc.audit(requireAuth(req.auth), req.params.id, req.params.pass === '1', req.body?.notify ?? false, req.body?.remark),
  );
}
