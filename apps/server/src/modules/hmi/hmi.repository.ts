import type { HmiCanvas } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface HmiScreenRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  canvas: HmiCanvas;
  status: number;
  published_at: Date | null;
  widget_count: number;
  user_count: number;
  created_at: Date;
  updated_at: Date;
}

const COLS = `s.id, s.tenant_id, s.name, s.description, s.canvas, s.status, s.published_at, s.created_at, s.updated_at,
  jsonb_array_length(coalesce(s.canvas->'widgets', '[]'::jsonb))::int as widget_count,
  (select count(*)::int from hmi_user_screens u where u.screen_id = s.id) as user_count`;

export interface HmiUserRow {
  user_id: string;
  username: string;
  name: string;
  screen_ids: string[];
}

/** HMI screens and their users. SQL only; every query is scoped by the tenant. */
export function hmiRepository(raw: RawSql) {
  return {
    async page(tenantId: string, q: { keyword?: string; status?: number }, offset: number, limit: number) {
      const params: unknown[] = [tenantId];
      let where = 's.tenant_id = $1';
      if (q.keyword)
        where += ` and (strpos(lower(s.name), lower($${params.push(q.keyword)})) > 0 or strpos(lower(s.description), lower($${params.length})) > 0)`;
      if (q.status !== undefined) where += ` and s.status = $${params.push(q.status)}`;
      const { rows } = await raw.query<HmiScreenRow>(
        `select ${COLS} from hmi_screens s where ${where} order by s.updated_at desc, s.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from hmi_screens s where ${where}`, params);
      return { rows, total: Number(c.rows[0].n) };
    },

    async get(tenantId: string, id: string): Promise<HmiScreenRow | undefined> {
      const { rows } = await raw.query<HmiScreenRow>(`select ${COLS} from hmi_screens s where s.tenant_id = $1 and s.id = $2`, [
        tenantId,
        id,
      ]);
      return rows[0];
    },

    async count(tenantId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from hmi_screens where tenant_id = $1', [tenantId]);
      return Number(rows[0].n);
    },

    async byName(tenantId: string, name: string): Promise<string | undefined> {
      const { rows } = await raw.query<{ id: string }>('select id from hmi_screens where tenant_id = $1 and lower(name) = lower($2)', [
        tenantId,
        name,
      ]);
      return rows[0]?.id;
    },

    async insert(tenantId: string, userId: string, f: { name: string; description: string; canvas: HmiCanvas }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into hmi_screens (tenant_id, name, description, canvas, created_by) values ($1, $2, $3, $4::jsonb, $5) returning id`,
        [tenantId, f.name, f.description, JSON.stringify(f.canvas), userId],
      );
      return rows[0].id;
    },

    async update(tenantId: string, id: string, f: { name: string; description: string; canvas: HmiCanvas }): Promise<boolean> {
      const { rows } = await raw.query(
        `update hmi_screens set name = $3, description = $4, canvas = $5::jsonb, updated_at = now()
          where tenant_id = $1 and id = $2 returning 1`,
        [tenantId, id, f.name, f.description, JSON.stringify(f.canvas)],
      );
      return rows.length > 0;
    },

    async setStatus(tenantId: string, id: string, status: number): Promise<boolean> {
      const { rows } = await raw.query(
        `update hmi_screens set status = $3::smallint,
                published_at = case when $3::smallint = 1 then coalesce(published_at, now()) end,
                updated_at = now()
          where tenant_id = $1 and id = $2 returning 1`,
        [tenantId, id, status],
      );
      return rows.length > 0;
    },

    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from hmi_screens where tenant_id = $1 and id = $2 returning 1', [tenantId, id]);
      return rows.length > 0;
    },

    /** Published screens: every one (`userId` null), or those given to the user. */
    async published(tenantId: string, userId: string | null): Promise<HmiScreenRow[]> {
      const { rows } = await raw.query<HmiScreenRow>(
        `select ${COLS} from hmi_screens s
          where s.tenant_id = $1 and s.status = 1
            and ($2::uuid is null or exists (select 1 from hmi_user_screens u where u.screen_id = s.id and u.user_id = $2::uuid))
          order by s.name, s.id`,
        [tenantId, userId],
      );
      return rows;
    },

    async isGiven(tenantId: string, userId: string, screenId: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from hmi_user_screens where tenant_id = $1 and user_id = $2 and screen_id = $3', [
        tenantId,
        userId,
        screenId,
      ]);
      return rows.length > 0;
    },

    /** The tenant's sub-users and the screens given to each. */
    async users(tenantId: string, userId?: string): Promise<HmiUserRow[]> {
      const { rows } = await raw.query<HmiUserRow>(
        `select u.id as user_id, u.username, u.name,
                coalesce((select array_agg(h.screen_id order by h.created_at, h.screen_id) from hmi_user_screens h
                           where h.user_id = u.id and h.tenant_id = $1), '{}') as screen_ids
           from users u
          where u.tenant_id = $1 and u.parent_user_id is not null and ($2::uuid is null or u.id = $2::uuid)
          order by u.username`,
        [tenantId, userId ?? null],
      );
      return rows;
    },

    /** How many of the ids are screens of the tenant. */
    async screensInTenant(tenantId: string, ids: string[]): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from hmi_screens where tenant_id = $1 and id = any($2::uuid[])',
        [tenantId, ids],
      );
      return Number(rows[0].n);
    },

    /** Replaces the screens given to a user (inside a transaction). */
    async setUserScreens(tenantId: string, userId: string, ids: string[]): Promise<void> {
      await raw.query('delete from hmi_user_screens where tenant_id = $1 and user_id = $2 and not (screen_id = any($3::uuid[]))', [
        tenantId,
        userId,
        ids,
      ]);
      await raw.query(
        `insert into hmi_user_screens (tenant_id, user_id, screen_id)
         select $1, $2, x from unnest($3::uuid[]) as x on conflict do nothing`,
        [tenantId, userId, ids],
      );
    },
  };
}

export type HmiRepository = ReturnType<typeof hmiRepository>;
