import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { CapacityService } from './capacity.service.ts';
import type { PackageService } from './package.service.ts';
import { assessTps } from './tps.estimator.ts';
import type { UsageService } from './usage.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const withErrors = { tags: ['billing'], errors };

export function billingRoutes(app: App, svc: { packages: PackageService; usage: UsageService; capacity: CapacityService }) {
  const R = Routes.billing;
  // Packages (spec §7 tenant service: specification).
  route(app, R.packages, withErrors, (req) => svc.packages.list(requireAuth(req.auth), req.query));
  route(app, R.package, withErrors, (req) => svc.packages.get(requireAuth(req.auth), req.params.id));
  route(app, R.updatePackage, withErrors, (req) => svc.packages.update(requireAuth(req.auth), req.params.id, req.body));
  // The single package of a tenant (spec §7 "single package for tenant").
  route(app, R.tenantPackage, withErrors, (req) => svc.packages.get(requireAuth(req.auth), req.params.tenant_id));
  route(app, R.requestCapacity, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.capacity.request(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );

  // Capacity usage (spec §3 usage, §9 rate units).
  route(app, R.usage, withErrors, (req) => svc.usage.get(requireAuth(req.auth), req.params.tenant_id));
  route(app, R.usageByThing, withErrors, (req) => svc.usage.perThing(requireAuth(req.auth), req.params.tenant_id, req.query));
  route(app, R.usageOfAll, withErrors, (req) => svc.usage.all(requireAuth(req.auth), req.query));

  // TPS estimator (billing tools_assessTps), docs/tps.md.
  route(app, R.assessTps, { ...withErrors, config: { noOpLog: true } }, async (req) => assessTps(req.body));
}
