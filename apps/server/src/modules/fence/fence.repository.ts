import type { FenceValues } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface FenceRow {
  id: string;
  tenant_id: string;
  name: string;
  type: 'region' | 'border';
  region: FenceValues['region'];
  border: FenceValues['border'];
  description: string;
  things_ids: string[] | null;
  rule_count: number;
  created_at: Date;
  updated_at: Date;
}

const COLS = `f.id, f.tenant_id, f.name, f.type, f.region, f.border, f.description, f.created_at, f.updated_at,
  (select array_agg(ft.things_id::text order by ft.things_id) from fence_things ft where ft.fence_id = f.id) as things_ids,
  (select count(*)::int from trigger_rules r where r.fence_id = f.id) as rule_count`;

export function fenceRepository(raw: RawSql) {
  return {
    async page(auth: Auth, q: { name?: string; type?: string; thingsId?: string }, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      const where = ['f.tenant_id = $1'];
      if (q.name) where.push(`strpos(lower(f.name), lower($${params.push(q.name)})) > 0`);
      if (q.type) where.push(`f.type = $${params.push(q.type)}`);
      if (q.thingsId)
        where.push(`exists (select 1 from fence_things x where x.fence_id = f.id and x.things_id = $${params.push(q.thingsId)})`);
      const w = where.join(' and ');
      const { rows } = await raw.query<FenceRow>(
        `select ${COLS} from fences f where ${w} order by f.created_at desc, f.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from fences f where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async get(auth: Auth, id: string): Promise<FenceRow | null> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
      const { rows } = await raw.query<FenceRow>(`select ${COLS} from fences f where f.tenant_id = $1 and f.id = $2`, [auth.tenantId, id]);
      return rows[0] ?? null;
    },

    /** Devices the fence acts on: those bound to it and those of trigger rules that use it. */
    async linkedThings(auth: Auth, id: string): Promise<string[]> {
      const { rows } = await raw.query<{ things_id: string }>(
        `select things_id from fence_things where tenant_id = $1 and fence_id = $2
         union select things_id from trigger_rules where tenant_id = $1 and fence_id = $2 and things_id is not null`,
        [auth.tenantId, id],
      );
      return rows.map((r) => r.things_id);
    },

    async nameTaken(auth: Auth, name: string, exceptId: string | null = null): Promise<boolean> {
      const { rows } = await raw.query('select 1 from fences where tenant_id = $1 and name = $2 and ($3::uuid is null or id <> $3::uuid)', [
        auth.tenantId,
        name,
        exceptId,
      ]);
      return rows.length > 0;
    },

    async insert(auth: Auth, v: FenceValues): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into fences (tenant_id, name, type, region, border, description, created_by) values ($1,$2,$3,$4,$5,$6,$7) returning id`,
        [
          auth.tenantId,
          v.name,
          v.type,
          v.type === 'region' ? JSON.stringify(v.region) : null,
          v.type === 'border' ? JSON.stringify(v.border) : null,
          v.description,
          auth.userId,
        ],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, v: FenceValues): Promise<void> {
      await raw.query(
        `update fences set name = $3, type = $4, region = $5, border = $6, description = $7, updated_at = now()
          where tenant_id = $1 and id = $2`,
        [
          auth.tenantId,
          id,
          v.name,
          v.type,
          v.type === 'region' ? JSON.stringify(v.region) : null,
          v.type === 'border' ? JSON.stringify(v.border) : null,
          v.description,
        ],
      );
    },

    /** Replaces the fence's devices. */
    async bind(auth: Auth, id: string, thingsIds: string[]): Promise<void> {
      await raw.transaction(async (tx) => {
        await tx.query('delete from fence_things where tenant_id = $1 and fence_id = $2', [auth.tenantId, id]);
        if (thingsIds.length)
          await tx.query(
            `insert into fence_things (fence_id, things_id, tenant_id) select $2, x, $1 from unnest($3::uuid[]) as x on conflict do nothing`,
            [auth.tenantId, id, thingsIds],
          );
      });
    },

    async remove(auth: Auth, id: string): Promise<void> {
      await raw.query('delete from fences where tenant_id = $1 and id = $2', [auth.tenantId, id]);
    },
  };
}
export type FenceRepository = ReturnType<typeof fenceRepository>;
