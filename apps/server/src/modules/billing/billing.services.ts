import type { RawSql } from '../../db/client.ts';
import type { EventBus } from '../../lib/events.ts';
import { packageRepository } from './package.repository.ts';
import { type PackageService, packageService } from './package.service.ts';
import { type QuotaService, quotaService } from './quota.service.ts';
import { usageRepository } from './usage.repository.ts';
import { type UsageService, usageService } from './usage.service.ts';

export interface BillingServices {
  /** Tenant packages: `packages.load(tenantId)` for the raw limits. */
  packages: PackageService;
  /** `quota.assertCanAdd(auth | tenantId, resource, currentCount, adding = 1)`. */
  quota: QuotaService;
  /** `usage.add(tenantId, thingsId, bytes)`, `usage.remove`, `usage.of`, `usage.isOver`. */
  usage: UsageService;
}

/** The billing services other modules reach through the shared context. */
export function billingServices(raw: RawSql, events: EventBus): BillingServices {
  const repo = packageRepository(raw);
  const packages = packageService(raw, events, repo);
  return { packages, quota: quotaService(packages, repo), usage: usageService(usageRepository(raw), packages) };
}
