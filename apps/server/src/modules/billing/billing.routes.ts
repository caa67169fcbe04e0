import {
  CapacityRequestSchema,
  ErrorResponseSchema,
  PackageListQuerySchema,
  PackagePageSchema,
  PackageSchema,
  PackageUpdateSchema,
  PageQuerySchema,
  TenantUsagePageSchema,
  ThingUsagePageSchema,
  ThingUsageQuerySchema,
  TpsRequestSchema,
  TpsResponseSchema,
  UsageSchema,
  WorkOrderDetailSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import type { CapacityService } from './capacity.service.ts';
import type { PackageService } from './package.service.ts';
import { assessTps } from './tps.estimator.ts';
import type { UsageService } from './usage.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const Id = z.object({ id: z.uuid() });
const TenantParams = z.object({ tenant_id: z.uuid() });

export function billingRoutes(app: App, svc: { packages: PackageService; usage: UsageService; capacity: CapacityService }) {
  // Packages (spec §7 tenant service: specification).
  app.get(
    '/v1/tenant/tenants/all/specification',
    {
      config: { permission: 'tenant:tenant:query' },
      schema: { tags: ['billing'], querystring: PackageListQuerySchema, response: { 200: PackagePageSchema, ...errors } },
    },
    (req) => svc.packages.list(requireAuth(req.auth), req.query),
  );
  app.get(
    '/v1/tenant/tenants/:id/specification',
    { schema: { tags: ['billing'], params: Id, response: { 200: PackageSchema, ...errors } } },
    (req) => svc.packages.get(requireAuth(req.auth), req.params.id),
  );
  app.put(
    '/v1/tenant/tenants/:id/specification',
    {
      config: { permission: 'tenant:specification:update' },
      schema: { tags: ['billing'], params: Id, body: PackageUpdateSchema, response: { 200: PackageSchema, ...errors } },
    },
    (req) => svc.packages.update(requireAuth(req.auth), req.params.id, req.body),
  );
  // The single package of a tenant (spec §7 "single package for tenant").
  app.get(
    '/v1/billing/tenants/:tenant_id/package',
    { schema: { tags: ['billing'], params: TenantParams, response: { 200: PackageSchema, ...errors } } },
    (req) => svc.packages.get(requireAuth(req.auth), req.params.tenant_id),
  );
  app.post(
    '/v1/billing/tenants/:tenant_id/capacity-requests',
    {
      config: { permission: 'workorder:workorder:create' },
      schema: { tags: ['billing'], params: TenantParams, body: CapacityRequestSchema, response: { 201: WorkOrderDetailSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await svc.capacity.request(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );

  // Capacity usage (spec §3 usage, §9 rate units).
  app.get(
    '/v1/data-mgmt/tenants/:tenant_id/usage',
    { schema: { tags: ['billing'], params: TenantParams, response: { 200: UsageSchema, ...errors } } },
    (req) => svc.usage.get(requireAuth(req.auth), req.params.tenant_id),
  );
  app.get(
    '/v1/data-mgmt/tenants/:tenant_id/usage/things',
    {
      schema: {
        tags: ['billing'],
        params: TenantParams,
        querystring: ThingUsageQuerySchema,
        response: { 200: ThingUsagePageSchema, ...errors },
      },
    },
    (req) => svc.usage.perThing(requireAuth(req.auth), req.params.tenant_id, req.query),
  );
  app.get(
    '/v1/tenant/tenants/all/usage-statistics',
    {
      config: { permission: 'tenant:tenant:query' },
      schema: { tags: ['billing'], querystring: PageQuerySchema, response: { 200: TenantUsagePageSchema, ...errors } },
    },
    (req) => svc.usage.all(requireAuth(req.auth), req.query),
  );

  // TPS estimator (billing tools_assessTps), docs/tps.md.
  app.post(
    '/v1/billing/tools/assess-tps',
    { config: { noOpLog: true }, schema: { tags: ['billing'], body: TpsRequestSchema, response: { 200: TpsResponseSchema, ...errors } } },
    async (req) => assessTps(req.body),
  );
}
