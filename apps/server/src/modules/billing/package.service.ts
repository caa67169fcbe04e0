import {
  CAPACITY_FIELDS,
  generalStorageAllowed,
  PACKAGE_DEFAULTS,
  PACKAGE_NUMBER_FIELDS,
  type PackageUpdate,
  StorageMode,
  type TenantPackage,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { type PackageRepository, type PackageRow, packageRepository } from './package.repository.ts';

type StorageFields = Pick<PackageRow, 'special_storage' | 'maximum_data_retention_days' | 'database_storage_space'>;

/**
 * Spec §4: general (shared) storage is not offered when data is kept longer
 * than 3 months or the space exceeds 2 GB; such a package is exclusive. A null
 * (unlimited) retention or space counts as exceeding.
 */
export function storageModeFor(p: StorageFields): number {
  if (p.special_storage !== StorageMode.general) return p.special_storage;
  return generalStorageAllowed(p.maximum_data_retention_days, p.database_storage_space) ? StorageMode.general : StorageMode.exclusive;
}

export function toPackage(r: PackageRow): TenantPackage {
  const numbers = Object.fromEntries(PACKAGE_NUMBER_FIELDS.map((f) => [f, r[f] === null ? null : Number(r[f])]));
  return {
    tenant_id: r.tenant_id,
    ...(numbers as Record<(typeof PACKAGE_NUMBER_FIELDS)[number], number | null>),
    special_storage: r.special_storage as 0 | 1 | 2,
    quick_delete_things_list: r.quick_delete_things_list as TenantPackage['quick_delete_things_list'],
    platform: r.platform,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

function checkQuickDeleteList(p: Pick<PackageRow, 'quick_delete_things_list' | 'quick_delete_things_num'>) {
  if (p.quick_delete_things_num !== null && p.quick_delete_things_list.length > p.quick_delete_things_num) {
    throw new ApiError(400, 'package.quick-delete-list-too-long', undefined, {
      field: 'quick_delete_things_list',
      details: { limit: p.quick_delete_things_num, given: p.quick_delete_things_list.length },
    });
  }
}

export function packageService(raw: RawSql, events: EventBus, repo: PackageRepository = packageRepository(raw)) {
  /** The tenant's package, made with the defaults on first use. 404 when the tenant does not exist. */
  async function load(tenantId: string, db: RawSql = raw, forUpdate = false): Promise<PackageRow> {
    const found = await repo.find(tenantId, db, forUpdate);
    if (found) return found;
    if (!(await repo.tenant(tenantId, db))) throw notFound('Tenant not found');
    await repo.createDefault(tenantId, storageModeFor({ special_storage: StorageMode.general, ...PACKAGE_DEFAULTS }), db);
    return (await repo.find(tenantId, db, forUpdate)) as PackageRow;
  }

  /** Writes a merged package after checking it as a whole. */
  async function save(tenantId: string, cur: PackageRow, patch: Partial<PackageRow>, db: RawSql): Promise<void> {
    const merged = { ...cur, ...patch };
    checkQuickDeleteList(merged);
    merged.special_storage = storageModeFor(merged);
    const changed: Record<string, unknown> = {};
    for (const k of Object.keys(patch)) changed[k] = merged[k as keyof PackageRow];
    changed.special_storage = merged.special_storage;
    await repo.update(tenantId, changed, db);
  }

  return {
    load,

    /** The caller's own tenant, or any tenant for a system manager. */
    async get(auth: Auth, tenantId: string): Promise<TenantPackage> {
      if (auth.tenantId !== tenantId && !auth.systemManager) throw forbidden();
      return toPackage(await load(tenantId));
    },

    /** Every tenant's package (system side). */
    async list(_auth: Auth, q: { current_page: number; page_size: number; name?: string }) {
      const { rows, total } = await repo.page(q.name, (q.current_page - 1) * q.page_size, q.page_size);
      const list = [];
      for (const t of rows) list.push({ ...toPackage(await load(t.id)), tenant_name: t.name });
      return { total, current_page: q.current_page, page_size: q.page_size, list };
    },

    /** System manager: set any subset of the package. */
    async update(_auth: Auth, tenantId: string, patch: PackageUpdate): Promise<TenantPackage> {
      await raw.transaction(async (tx) => {
        const cur = await load(tenantId, tx, true);
        await save(tenantId, cur, patch as Partial<PackageRow>, tx);
      });
      events.emit('package.changed', { tenantId });
      return toPackage(await load(tenantId));
    },

    /**
     * Applies an accepted capacity request inside the work order's transaction:
     * each number becomes the requested value, never lower than the current one
     * (a system manager may have raised it meanwhile); null (unlimited) stays.
     */
    async applyCapacity(tx: RawSql, tenantId: string, request: Record<string, unknown>): Promise<void> {
      const cur = await load(tenantId, tx, true);
      const patch: Partial<PackageRow> = {};
      for (const f of CAPACITY_FIELDS) {
        const want = request[f];
        if (typeof want !== 'number') continue;
        const have = cur[f];
        if (have === null) continue;
        patch[f] = Math.max(have, want);
      }
      if (typeof request.special_storage === 'number') patch.special_storage = request.special_storage;
      if (Array.isArray(request.quick_delete_things_list)) patch.quick_delete_things_list = request.quick_delete_things_list;
      // The work order announces 'package.changed' once its transaction has committed.
      await save(tenantId, cur, patch, tx);
    },

    /**
     * Writes package fields inside the caller's transaction (a billing order starting or ending);
     * the caller announces 'package.changed' once it has committed.
     */
    async write(tx: RawSql, tenantId: string, patch: Partial<PackageRow>): Promise<void> {
      const cur = await load(tenantId, tx, true);
      await save(tenantId, cur, patch, tx);
    },
  };
}
export type PackageService = ReturnType<typeof packageService>;
