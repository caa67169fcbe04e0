import { PACKAGE_NUMBER_FIELDS, type PackageNumberField } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export type PackageRow = {
  tenant_id: string;
  special_storage: number;
  quick_delete_things_list: unknown[];
  platform: number;
  updated_at: Date;
} & Record<PackageNumberField, number | null>;

const COLUMNS = ['tenant_id', ...PACKAGE_NUMBER_FIELDS, 'special_storage', 'quick_delete_things_list', 'platform', 'updated_at'];
const WRITABLE = new Set<string>([...PACKAGE_NUMBER_FIELDS, 'special_storage', 'quick_delete_things_list', 'platform']);

/** SQL only; one row per tenant, made with the column defaults on first read. */
export function packageRepository(raw: RawSql) {
  return {
    async tenant(tenantId: string, db: RawSql = raw): Promise<{ id: string; is_system: boolean; quota_exempt: boolean } | null> {
      const { rows } = await db.query<{ id: string; is_system: boolean; quota_exempt: boolean }>(
        'select id, is_system, quota_exempt from tenants where id = $1',
        [tenantId],
      );
      return rows[0] ?? null;
    },

    async find(tenantId: string, db: RawSql = raw, forUpdate = false): Promise<PackageRow | null> {
      const { rows } = await db.query<PackageRow>(
        `select ${COLUMNS.join(', ')} from tenant_packages where tenant_id = $1${forUpdate ? ' for update' : ''}`,
        [tenantId],
      );
      return rows[0] ?? null;
    },

    async createDefault(tenantId: string, specialStorage: number, db: RawSql = raw): Promise<void> {
      await db.query('insert into tenant_packages (tenant_id, special_storage) values ($1, $2) on conflict (tenant_id) do nothing', [
        tenantId,
        specialStorage,
      ]);
    },

    async update(tenantId: string, patch: Record<string, unknown>, db: RawSql = raw): Promise<void> {
      const keys = Object.keys(patch).filter((k) => WRITABLE.has(k));
      if (!keys.length) return;
      const sets = keys.map((k, i) => `${k} = $${i + 2}${k === 'quick_delete_things_list' ? '::jsonb' : ''}`);
      const values = keys.map((k) => (k === 'quick_delete_things_list' ? JSON.stringify(patch[k]) : patch[k]));
      await db.query(`update tenant_packages set ${sets.join(', ')}, updated_at = now() where tenant_id = $1`, [tenantId, ...values]);
    },

    /** Every tenant with its package (null columns where none was made yet). */
    async page(name: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [];
      let cond = '';
      if (name) {
        params.push(`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        cond = 'where t.name ilike $1';
      }
      const count = await raw.query<{ n: number }>(`select count(*)::int as n from tenants t ${cond}`, params);
      const { rows } = await raw.query<{ id: string; name: string; has: boolean }>(
        `select t.id, t.name, p.tenant_id is not null as has from tenants t left join tenant_packages p on p.tenant_id = t.id
          ${cond} order by t.created_at, t.id offset $${params.length + 1} limit $${params.length + 2}`,
        [...params, offset, limit],
      );
      return { rows, total: count.rows[0].n };
    },
  };
}
export type PackageRepository = ReturnType<typeof packageRepository>;
