import {
  ErrorResponseSchema,
  pageOf,
  TenantAuditBodySchema,
  TenantAuditParamsSchema,
  TenantAuditQuerySchema,
  TenantAuditStatisticSchema,
  TenantListQuerySchema,
  TenantSchema,
  TenantUpdateRequestSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { TenantsAdminService } from './tenants-admin.service.ts';

const tags = ['tenant-admin'];
const errors = { 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/** Platform administration of tenants (system managers; spec §7 tenant service). */
export function tenantsAdminRoutes(app: LoggerheadApp, svc: TenantsAdminService) {
  app.get(
    '/v1/tenant/tenants',
    {
      config: { permission: 'tenant:tenant:query' },
      schema: { tags, querystring: TenantListQuerySchema, response: { 200: pageOf(TenantSchema), ...errors } },
    },
    (req) => svc.list(requireAuth(req.auth), req.query),
  );
  app.get(
    '/v1/tenant/tenant-audits',
    {
      config: { permission: 'tenant:tenant:query' },
      schema: { tags, querystring: TenantAuditQuerySchema, response: { 200: pageOf(TenantSchema), ...errors } },
    },
    (req) => svc.list(requireAuth(req.auth), req.query),
  );
  app.get(
    '/v1/tenant/tenant-audit-statistic',
    { config: { permission: 'tenant:tenant:query' }, schema: { tags, response: { 200: TenantAuditStatisticSchema, ...errors } } },
    (req) => svc.statistic(requireAuth(req.auth)),
  );
  app.get(
    '/v1/tenant/tenants-csv-file',
    {
      config: { permission: 'tenant:tenant:export' },
      schema: { tags, querystring: TenantListQuerySchema.omit({ current_page: true, page_size: true }) },
    },
    async (req, reply) => {
      const csv = await svc.csv(requireAuth(req.auth), req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="tenants-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(csv);
    },
  );
  app.put(
    '/v1/tenant/tenants/:id',
    {
      config: { permission: 'tenant:tenant:update' },
      schema: { tags, params: z.object({ id: z.guid() }), body: TenantUpdateRequestSchema, response: { 200: TenantSchema, ...errors } },
    },
    (req) => svc.update(requireAuth(req.auth), req.params.id, req.body),
  );
  app.put(
    '/v1/tenant/tenants/:id/audit/:pass',
    {
      config: { permission: 'tenant:tenant:audit' },
      schema: { tags, params: TenantAuditParamsSchema, body: TenantAuditBodySchema, response: { 200: TenantSchema, ...errors } },
    },
    (req) => svc.audit(requireAuth(req.auth), req.params.id, req.params.pass === '1', req.body?.notify ?? false, req.body?.remark),
  );
}
