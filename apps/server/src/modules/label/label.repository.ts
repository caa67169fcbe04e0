import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface LabelRow {
  id: string;
  tenant_id: string;
  label: string;
  description: string | null;
  label_value: string | null;
  things_count: number;
  created_at: Date;
  updated_at: Date;
}

/** Devices of the tenant whose labels refer to `l`. */
const THINGS_COUNT = `(select count(*)::int from things t where t.tenant_id = l.tenant_id
  and t.labels @> jsonb_build_array(jsonb_build_object('tenantLabelId', l.id::text))) as things_count`;
const COLS = `l.id, l.tenant_id, l.label, l.description, l.label_value, l.created_at, l.updated_at, ${THINGS_COUNT}`;

/** The tenant's label registry. SQL only; every query is scoped by `auth.tenantId`. */
export function labelRepository(raw: RawSql) {
  return {
    async page(auth: Auth, keyword: string | undefined, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      let where = 'l.tenant_id = $1';
      if (keyword)
        where += ` and (strpos(lower(l.label), lower($${params.push(keyword)})) > 0 or strpos(lower(coalesce(l.description, '')), lower($${params.length})) > 0)`;
      const { rows } = await raw.query<LabelRow>(
        `select ${COLS} from tenant_labels l where ${where} order by l.created_at desc, l.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from tenant_labels l where ${where}`, params);
      return { rows, total: c.rows[0].n };
    },

    /** All labels of the tenant (or those of `ids`), by name, at most `limit`. */
    async batch(auth: Auth, ids: string[] | null, limit: number): Promise<LabelRow[]> {
      const { rows } = await raw.query<LabelRow>(
        `select ${COLS} from tenant_labels l where l.tenant_id = $1 and ($2::uuid[] is null or l.id = any($2::uuid[]))
         order by l.label limit $3`,
        [auth.tenantId, ids, limit],
      );
      return rows;
    },

    async get(auth: Auth, id: string): Promise<LabelRow | null> {
      const { rows } = await raw.query<LabelRow>(`select ${COLS} from tenant_labels l where l.tenant_id = $1 and l.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async byName(auth: Auth, label: string): Promise<LabelRow | null> {
      const { rows } = await raw.query<LabelRow>(`select ${COLS} from tenant_labels l where l.tenant_id = $1 and l.label = $2`, [
        auth.tenantId,
        label,
      ]);
      return rows[0] ?? null;
    },

    /** Which of `ids` are labels of the tenant. */
    async existing(auth: Auth, ids: string[]): Promise<Set<string>> {
      const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
      if (!uuids.length) return new Set();
      const { rows } = await raw.query<{ id: string }>('select id from tenant_labels where tenant_id = $1 and id = any($2::uuid[])', [
        auth.tenantId,
        uuids,
      ]);
      return new Set(rows.map((r) => r.id));
    },

    async count(auth: Auth): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from tenant_labels where tenant_id = $1', [auth.tenantId]);
      return rows[0].n;
    },

    async insert(auth: Auth, v: { label: string; description: string | null; label_value: string | null }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        'insert into tenant_labels (tenant_id, label, description, label_value, created_by) values ($1,$2,$3,$4,$5) returning id',
        [auth.tenantId, v.label, v.description, v.label_value, auth.userId],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, v: { label: string; description: string | null; label_value: string | null }): Promise<boolean> {
      const r = await raw.query(
        'update tenant_labels set label = $3, description = $4, label_value = $5, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [auth.tenantId, id, v.label, v.description, v.label_value],
      );
      return r.rows.length > 0;
    },

    /** Deletes the labels and takes them off the tenant's devices, in one transaction. */
    async remove(auth: Auth, ids: string[]): Promise<{ deleted: number; thingsUpdated: number }> {
      return raw.transaction(async (tx) => {
        const del = await tx.query<{ id: string }>('delete from tenant_labels where tenant_id = $1 and id = any($2::uuid[]) returning id', [
          auth.tenantId,
          ids,
        ]);
        const gone = del.rows.map((r) => r.id);
        if (!gone.length) return { deleted: 0, thingsUpdated: 0 };
        const upd = await tx.query(
          `update things t set labels = coalesce(
             (select jsonb_agg(e.l order by e.ord) from jsonb_array_elements(t.labels) with ordinality as e(l, ord)
              where not (e.l ->> 'tenantLabelId' = any($2::text[]))), '[]'::jsonb), updated_at = now()
           where t.tenant_id = $1 and exists (select 1 from jsonb_array_elements(t.labels) x where x ->> 'tenantLabelId' = any($2::text[]))
           returning t.id`,
          [auth.tenantId, gone],
        );
        return { deleted: gone.length, thingsUpdated: upd.rows.length };
      });
    },
  };
}
export type LabelRepository = ReturnType<typeof labelRepository>;
