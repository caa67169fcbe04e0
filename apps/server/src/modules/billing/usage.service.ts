import { USAGE_RATE_FULL, type Usage } from '@loggerhead/contract';
import type { Auth } from '../../lib/auth.ts';
import { forbidden } from '../../lib/errors.ts';
import type { PackageService } from './package.service.ts';
import { TENANT_WIDE, type UsageRepository } from './usage.repository.ts';

const MB = 1024 * 1024;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Spec §9: rate in 1/100 percent of the package space (GB × 1024 MB); over from 10000. */
export function usageRate(bytes: number, storageGb: number | null): number {
  if (storageGb === null) return 0;
  const capacity = storageGb * 1024 * MB;
  if (capacity === 0) return bytes > 0 ? USAGE_RATE_FULL : 0;
  return Math.floor((bytes * USAGE_RATE_FULL) / capacity);
}

/**
 * Capacity accounting. The ingest and file stores report what they store:
 *
 *   await ctx.usage.add(tenantId, thingsId, +bytes);   // stored
 *   await ctx.usage.add(tenantId, thingsId, -bytes);   // deleted (never below 0)
 *   await ctx.usage.remove(tenantId, thingsId);        // device deleted
 *
 * Use `usage.TENANT_WIDE` as thingsId for files not tied to a device.
 */
export function usageService(repo: UsageRepository, packages: PackageService) {
  async function of(tenantId: string): Promise<Usage> {
    const [bytes, pkg] = await Promise.all([repo.total(tenantId), packages.load(tenantId)]);
    const gb = pkg.database_storage_space;
    const rate = usageRate(bytes, gb);
    return {
      tenant_id: tenantId,
      total_disk_usage: round2(bytes / MB),
      total_capacity: gb === null ? null : gb * 1024,
      disk_usage_rate: rate,
      over: rate >= USAGE_RATE_FULL,
    };
  }

  function assertTenant(auth: Auth, tenantId: string) {
    if (auth.tenantId !== tenantId && !auth.systemManager) throw forbidden();
  }

  return {
    TENANT_WIDE,
    add: (tenantId: string, thingsId: string, bytes: number) => repo.add(tenantId, thingsId, bytes),
    remove: (tenantId: string, thingsId: string) => repo.remove(tenantId, thingsId),
    /** Usage without an access check, for other modules (e.g. refuse an export when over). */
    of,
    /** Bytes stored, exact (no access check). */
    bytes: (tenantId: string) => repo.total(tenantId),
    async isOver(tenantId: string): Promise<boolean> {
      return (await of(tenantId)).over;
    },

    async get(auth: Auth, tenantId: string): Promise<Usage> {
      assertTenant(auth, tenantId);
      return of(tenantId);
    },

    /** The capacity statistics table: bytes per device, largest first. */
    async perThing(auth: Auth, tenantId: string, q: { current_page: number; page_size: number }) {
      assertTenant(auth, tenantId);
      const pkg = await packages.load(tenantId);
      const { rows, total } = await repo.perThing(tenantId, (q.current_page - 1) * q.page_size, q.page_size);
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((r) => ({
          things_id: r.things_id,
          name: r.name,
          bytes: Number(r.bytes),
          usage: round2(Number(r.bytes) / MB),
          rate: usageRate(Number(r.bytes), pkg.database_storage_space),
        })),
      };
    },

    /** Every tenant's usage (system side). */
    async all(_auth: Auth, q: { current_page: number; page_size: number }) {
      const { rows, total } = await repo.tenants((q.current_page - 1) * q.page_size, q.page_size);
      const list = [];
      for (const t of rows) list.push({ ...(await of(t.id)), tenant_name: t.name });
      return { total, current_page: q.current_page, page_size: q.page_size, list };
    },
  };
}
export type UsageService = ReturnType<typeof usageService>;
