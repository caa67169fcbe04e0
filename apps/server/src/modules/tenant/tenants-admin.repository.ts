import type { RawSql } from '../../db/client.ts';
import { setClause, type TenantRow, type UserRow } from './accounts.repository.ts';

export type AdminTenantRow = TenantRow & { manager_username: string | null; manager_id: string | null; manager_email: string | null };

export interface TenantFilter {
  name?: string;
  mobile?: string;
  status?: number;
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Where-clause of the tenant list; the platform's own tenant is not a customer and never listed. */
function where(f: TenantFilter): { sql: string; params: unknown[] } {
  const parts = ['not t.is_system'];
  const params: unknown[] = [];
  if (f.name) {
    params.push(like(f.name));
    parts.push(`(t.name ilike $${params.length} or t.organization_name ilike $${params.length})`);
  }
  if (f.mobile) {
    params.push(like(f.mobile));
    parts.push(`t.mobile ilike $${params.length}`);
  }
  if (f.status !== undefined) {
    params.push(f.status);
    parts.push(`t.status = $${params.length}`);
  }
  return { sql: parts.join(' and '), params };
}

const SELECT = `select t.*, m.username as manager_username, m.id as manager_id, m.email as manager_email
  from tenants t
  left join lateral (select id, username, email from users u where u.tenant_id = t.id and u.is_manager and u.parent_user_id is null
                     order by u.created_at limit 1) m on true`;

/** Export tasks that hold no document: cancelled (6) and failed (7) — DownloadStatus. */
const NOT_STORED = '6, 7';

/** Platform administration: spans tenants by design, reachable only with system-scope keys. */
export function tenantsAdminRepository(raw: RawSql) {
  return {
    async page(f: TenantFilter, page: number, size: number): Promise<{ total: number; rows: AdminTenantRow[] }> {
      const w = where(f);
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from tenants t where ${w.sql}`, w.params);
      const { rows } = await raw.query<AdminTenantRow>(
        `${SELECT} where ${w.sql} order by t.created_at desc, t.id limit $${w.params.length + 1} offset $${w.params.length + 2}`,
        [...w.params, size, (page - 1) * size],
      );
      return { total: total.rows[0].n, rows };
    },

    async all(f: TenantFilter, max: number): Promise<AdminTenantRow[]> {
      const w = where(f);
      const { rows } = await raw.query<AdminTenantRow>(
        `${SELECT} where ${w.sql} order by t.created_at desc, t.id limit $${w.params.length + 1}`,
        [...w.params, max],
      );
      return rows;
    },

    /** Any tenant, the platform's own included (its quotas are the system manager's too). */
    async byIdWithPlatform(id: string): Promise<AdminTenantRow | null> {
      const { rows } = await raw.query<AdminTenantRow>(`${SELECT} where t.id = $1`, [id]);
      return rows[0] ?? null;
    },

    async setQuotaExempt(id: string, exempt: boolean): Promise<void> {
      await raw.query('update tenants set quota_exempt = $2, updated_at = $3 where id = $1', [id, exempt, new Date()]);
    },

    async byId(id: string): Promise<AdminTenantRow | null> {
      const { rows } = await raw.query<AdminTenantRow>(`${SELECT} where t.id = $1 and not t.is_system`, [id]);
      return rows[0] ?? null;
    },

    async statistic() {
      const { rows } = await raw.query<{ status: number; n: number }>(
        'select status, count(*)::int as n from tenants where not is_system group by status',
      );
      const by = (s: number) => rows.find((r) => r.status === s)?.n ?? 0;
      return { total: rows.reduce((a, r) => a + r.n, 0), pending: by(0), active: by(1), rejected: by(2), disabled: by(3) };
    },

    /** A customer tenant's users, its manager first; `tenantId` comes from a checked path. */
    async users(tenantId: string, page: number, size: number): Promise<{ total: number; rows: UserRow[] }> {
      const total = await raw.query<{ n: number }>('select count(*)::int as n from users where tenant_id = $1 and not machine', [tenantId]);
      const { rows } = await raw.query<UserRow>(
        `select * from users where tenant_id = $1 and not machine
          order by (is_manager and parent_user_id is null) desc, created_at, id limit $2 offset $3`,
        [tenantId, size, (page - 1) * size],
      );
      return { total: total.rows[0].n, rows };
    },

    async user(tenantId: string, userId: string): Promise<UserRow | null> {
      const { rows } = await raw.query<UserRow>('select * from users where tenant_id = $1 and id = $2', [tenantId, userId]);
      return rows[0] ?? null;
    },

    /** What one tenant uses of each quota: devices, sub-users, labels, trigger rules, export documents. */
    async quotaUsage(tenantId: string): Promise<{ things: number; users: number; labels: number; rules: number; documents: number }> {
      const { rows } = await raw.query<{ things: number; users: number; labels: number; rules: number; documents: number }>(
        `select (select count(*)::int from things where tenant_id = $1) as things,
                (select count(*)::int from users where tenant_id = $1 and parent_user_id is not null) as users,
                (select count(*)::int from tenant_labels where tenant_id = $1) as labels,
                (select count(*)::int from trigger_rules where tenant_id = $1) as rules,
                (select count(*)::int from download_tasks where tenant_id = $1 and status not in (${NOT_STORED})) as documents`,
        [tenantId],
      );
      return rows[0];
    },

    async update(id: string, fields: Record<string, unknown>) {
      const set = setClause({ ...fields, updated_at: new Date() }, 2);
      await raw.query(`update tenants set ${set.sql} where id = $1 and not is_system`, [id, ...set.params]);
    },
  };
}
export type TenantsAdminRepository = ReturnType<typeof tenantsAdminRepository>;
