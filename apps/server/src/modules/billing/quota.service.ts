import type { QuotaResource } from '@loggerhead/contract';
import type { Auth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import type { PackageRepository } from './package.repository.ts';
import type { PackageService } from './package.service.ts';

/**
 * Package fields whose spec default is 0 for "not limited" (spec §3: maximum_total_number_documents_stored 0).
 */
const ZERO_IS_UNLIMITED = new Set<QuotaResource>(['maximum_total_number_documents_stored']);

export interface QuotaCheck {
  resource: QuotaResource;
  /** null: no limit. */
  limit: number | null;
  current: number;
  adding: number;
  allowed: boolean;
}

/**
 * Package limits other modules enforce before adding something. They count
 * what they own (devices, sub-users, rules…) and ask here:
 *
 *   await ctx.quota.assertCanAdd(auth, 'sub_user_num', await repo.count(auth.tenantId));
 *
 * Refuses with 403 `quota.limit-reached` and `details: {resource, limit, current}`.
 * Every tenant is limited, the platform's own included, unless the system manager has exempted it
 * (`tenants.quota_exempt`, decision 0118).
 */
export function quotaService(packages: PackageService, repo: PackageRepository) {
  async function check(who: Auth | string, resource: QuotaResource, currentCount: number, adding = 1): Promise<QuotaCheck> {
    const tenantId = typeof who === 'string' ? who : who.tenantId;
    const tenant = await repo.tenant(tenantId);
    if (tenant?.quota_exempt) return { resource, limit: null, current: currentCount, adding, allowed: true };
    const set = (await packages.load(tenantId))[resource];
    const limit = set === 0 && ZERO_IS_UNLIMITED.has(resource) ? null : set;
    const allowed = limit === null || currentCount + adding <= limit;
    return { resource, limit, current: currentCount, adding, allowed };
  }

  return {
    check,

    /** Throws 403 quota.limit-reached unless `currentCount + adding` fits the tenant's package. */
    async assertCanAdd(who: Auth | string, resource: QuotaResource, currentCount: number, adding = 1): Promise<void> {
      const c = await check(who, resource, currentCount, adding);
      if (!c.allowed) {
        throw new ApiError(403, 'quota.limit-reached', undefined, {
          details: { resource, limit: c.limit, current: currentCount },
        });
      }
    },

    /** The tenant's limit for a resource; null = unlimited. */
    async limit(tenantId: string, resource: QuotaResource): Promise<number | null> {
      return (await check(tenantId, resource, 0, 0)).limit;
    },
  };
}
export type QuotaService = ReturnType<typeof quotaService>;
