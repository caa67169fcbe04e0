import {
  CapacityRequestSchema,
  PackageListQuerySchema,
  PackagePageSchema,
  PackageSchema,
  PackageUpdateSchema,
  TenantUsagePageSchema,
  ThingUsagePageSchema,
  ThingUsageQuerySchema,
  TpsRequestSchema,
  TpsResponseSchema,
  UsageSchema,
} from '../schemas/billing.ts';
import { PageQuerySchema } from '../schemas/common.ts';
import { WorkOrderDetailSchema } from '../schemas/workorder.ts';
import { defineRoute, IdParams, TenantParams } from './define.ts';

/**
 * Packages (spec §7 tenant service: specification), capacity usage (spec §3, §9 rate units), the
 * capacity request (a work order) and the TPS estimator (docs/tps.md).
 */
export const BillingRoutes = {
  /** Every tenant's package (system managers). */
  packages: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/all/specification',
    query: PackageListQuerySchema,
    response: PackagePageSchema,
    permission: 'tenant:tenant:query',
  }),
  /** A tenant's package: the caller's own, or any for a system manager (the service checks). */
  package: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/:id/specification',
    params: IdParams,
    response: PackageSchema,
    signedIn: true,
  }),
  updatePackage: defineRoute({
    method: 'PUT',
    path: '/tenant/tenants/:id/specification',
    params: IdParams,
    body: PackageUpdateSchema,
    response: PackageSchema,
    permission: 'tenant:specification:update',
  }),
  /** The single package of a tenant (spec §7 "single package for tenant"). */
  tenantPackage: defineRoute({
    method: 'GET',
    path: '/billing/tenants/:tenant_id/package',
    params: TenantParams,
    response: PackageSchema,
    signedIn: true,
  }),
  /** Opens a capacity work order. */
  requestCapacity: defineRoute({
    method: 'POST',
    path: '/billing/tenants/:tenant_id/capacity-requests',
    params: TenantParams,
    body: CapacityRequestSchema,
    response: WorkOrderDetailSchema,
    status: 201,
    permission: 'workorder:workorder:create',
  }),
  usage: defineRoute({
    method: 'GET',
    path: '/data-mgmt/tenants/:tenant_id/usage',
    params: TenantParams,
    response: UsageSchema,
    signedIn: true,
  }),
  usageByThing: defineRoute({
    method: 'GET',
    path: '/data-mgmt/tenants/:tenant_id/usage/things',
    params: TenantParams,
    query: ThingUsageQuerySchema,
    response: ThingUsagePageSchema,
    signedIn: true,
  }),
  /** Every tenant's usage (system managers). */
  usageOfAll: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/all/usage-statistics',
    query: PageQuerySchema,
    response: TenantUsagePageSchema,
    permission: 'tenant:tenant:query',
  }),
  /** A calculator: no data read. */
  assessTps: defineRoute({
    method: 'POST',
    path: '/billing/tools/assess-tps',
    body: TpsRequestSchema,
    response: TpsResponseSchema,
    signedIn: true,
  }),
};
