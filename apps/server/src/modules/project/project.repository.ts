import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface ProjectRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  things_count: number;
  group_count: number;
  vehicle_count: number;
  user_count: number;
  device_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface ProjectDeviceRow {
  things_id: string;
  third_things_id: string;
  name: string;
  is_online: boolean;
  direct: boolean;
}

const COLS = `p.id, p.tenant_id, p.name, p.description, p.created_at, p.updated_at,
  (select count(*)::int from project_things x where x.project_id = p.id) as things_count,
  (select count(*)::int from project_groups x where x.project_id = p.id) as group_count,
  (select count(*)::int from project_vehicles x where x.project_id = p.id) as vehicle_count,
  (select count(*)::int from project_users x where x.project_id = p.id) as user_count,
  (select count(*)::int from project_devices d join things t on t.id = d.things_id and t.tenant_id = p.tenant_id
    where d.project_id = p.id) as device_count`;

/** The member tables of a project, by kind: table and column. */
const KINDS = {
  things: { table: 'project_things', column: 'things_id', source: 'things' },
  groups: { table: 'project_groups', column: 'group_id', source: 'device_groups' },
  vehicles: { table: 'project_vehicles', column: 'vehicle_id', source: 'vehicles' },
} as const;
export type ProjectKind = keyof typeof KINDS;

/** Projects and what they hold. SQL only; every query is scoped by `auth.tenantId`. */
export function projectRepository(raw: RawSql) {
  return {
    /** Projects of the tenant; only those `memberId` is a member of when it is set. */
    async page(auth: Auth, q: { keyword?: string; memberId: string | null }, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      const where = ['p.tenant_id = $1'];
      if (q.keyword) where.push(`strpos(lower(p.name), lower($${params.push(q.keyword)})) > 0`);
      if (q.memberId)
        where.push(`exists (select 1 from project_users u where u.project_id = p.id and u.user_id = $${params.push(q.memberId)})`);
      const w = where.join(' and ');
      const { rows } = await raw.query<ProjectRow>(
        `select ${COLS} from projects p where ${w} order by p.created_at desc, p.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from projects p where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async get(auth: Auth, id: string, memberId: string | null = null): Promise<ProjectRow | null> {
      const { rows } = await raw.query<ProjectRow>(
        `select ${COLS} from projects p where p.tenant_id = $1 and p.id = $2
           and ($3::uuid is null or exists (select 1 from project_users u where u.project_id = p.id and u.user_id = $3::uuid))`,
        [auth.tenantId, id, memberId],
      );
      return rows[0] ?? null;
    },

    async nameTaken(auth: Auth, name: string, exceptId: string | null = null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from projects where tenant_id = $1 and name = $2 and ($3::uuid is null or id <> $3::uuid)',
        [auth.tenantId, name, exceptId],
      );
      return rows.length > 0;
    },

    async insert(auth: Auth, v: { name: string; description: string | null }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        'insert into projects (tenant_id, name, description, created_by) values ($1,$2,$3,$4) returning id',
        [auth.tenantId, v.name, v.description, auth.userId],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, v: { name: string; description: string | null }): Promise<boolean> {
      const { rows } = await raw.query(
        'update projects set name = $3, description = $4, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [auth.tenantId, id, v.name, v.description],
      );
      return rows.length > 0;
    },

    async remove(auth: Auth, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from projects where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return rows.length > 0;
    },

    /** The project's devices, only those `userId` may see when it is set. */
    async devices(auth: Auth, id: string, userId: string | null, offset: number, limit: number) {
      const params = [auth.tenantId, id, userId];
      const from = `from (select distinct things_id from project_devices where project_id = $2 and tenant_id = $1) d
        join things t on t.id = d.things_id and t.tenant_id = $1
        where ($3::uuid is null or exists (select 1 from user_device_access a where a.things_id = t.id and a.user_id = $3::uuid))`;
      const { rows } = await raw.query<ProjectDeviceRow>(
        `select t.id as things_id, t.third_things_id, t.name, t.is_online,
                exists (select 1 from project_things x where x.project_id = $2 and x.things_id = t.id) as direct
         ${from} order by t.name, t.id limit $4 offset $5`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n ${from}`, params);
      return { rows, total: c.rows[0].n };
    },

    async members(auth: Auth, id: string) {
      const groups = await raw.query<{ id: string; name: string }>(
        `select g.id, g.name from project_groups x join device_groups g on g.id = x.group_id
         where x.tenant_id = $1 and x.project_id = $2 order by g.name, g.id`,
        [auth.tenantId, id],
      );
      const vehicles = await raw.query<{ id: string; name: string }>(
        `select v.id, v.name from project_vehicles x join vehicles v on v.id = x.vehicle_id
         where x.tenant_id = $1 and x.project_id = $2 order by v.name, v.id`,
        [auth.tenantId, id],
      );
      const users = await raw.query<{ user_id: string; username: string; name: string | null; access: 'read' | 'write' }>(
        `select u.id as user_id, u.username, u.name, x.access from project_users x join users u on u.id = x.user_id
         where x.tenant_id = $1 and x.project_id = $2 order by u.username, u.id`,
        [auth.tenantId, id],
      );
      return { groups: groups.rows, vehicles: vehicles.rows, users: users.rows };
    },

    /** Which of `ids` are devices, groups or vehicles of the tenant. */
    async ofTenant(auth: Auth, kind: ProjectKind, ids: string[]): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>(
        `select id from ${KINDS[kind].source} where tenant_id = $1 and id = any($2::uuid[])`,
        [auth.tenantId, ids],
      );
      return rows.map((r) => r.id);
    },

    /** Which of `ids` are sub-users of the tenant (not its manager, not a machine account of an API key). */
    async subUsers(auth: Auth, ids: string[]): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>(
        `select id from users where tenant_id = $1 and id = any($2::uuid[]) and not is_manager and not system_manager and not machine`,
        [auth.tenantId, ids],
      );
      return rows.map((r) => r.id);
    },

    async bind(auth: Auth, id: string, kind: ProjectKind, ids: string[]): Promise<number> {
      const k = KINDS[kind];
      const { rows } = await raw.query(
        `insert into ${k.table} (tenant_id, project_id, ${k.column})
         select $1, $2, s.id from ${k.source} s where s.tenant_id = $1 and s.id = any($3::uuid[])
         on conflict do nothing returning ${k.column}`,
        [auth.tenantId, id, ids],
      );
      return rows.length;
    },

    async unbind(auth: Auth, id: string, kind: ProjectKind, ids: string[]): Promise<number> {
      const k = KINDS[kind];
      const { rows } = await raw.query(
        `delete from ${k.table} where tenant_id = $1 and project_id = $2 and ${k.column} = any($3::uuid[]) returning ${k.column}`,
        [auth.tenantId, id, ids],
      );
      return rows.length;
    },

    /** Adds sub-users or changes their access; how many were added or changed. */
    async bindUsers(auth: Auth, id: string, users: { user_id: string; access: 'read' | 'write' }[]): Promise<number> {
      const { rows } = await raw.query(
        `insert into project_users (tenant_id, project_id, user_id, access)
         select $1, $2, x.user_id, x.access from unnest($3::uuid[], $4::text[]) as x(user_id, access)
         join users u on u.id = x.user_id and u.tenant_id = $1
         on conflict (project_id, user_id) do update set access = excluded.access where project_users.access <> excluded.access
         returning user_id`,
        [auth.tenantId, id, users.map((u) => u.user_id), users.map((u) => u.access)],
      );
      return rows.length;
    },

    async unbindUsers(auth: Auth, id: string, ids: string[]): Promise<number> {
      const { rows } = await raw.query(
        'delete from project_users where tenant_id = $1 and project_id = $2 and user_id = any($3::uuid[]) returning user_id',
        [auth.tenantId, id, ids],
      );
      return rows.length;
    },

    /** The members of every project of the tenant that holds one of these devices, groups or vehicles. */
    async membersHolding(tenantId: string, kind: ProjectKind, ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      const k = KINDS[kind];
      const { rows } = await raw.query<{ user_id: string }>(
        `select distinct pu.user_id from project_users pu join ${k.table} h on h.project_id = pu.project_id
          where h.tenant_id = $1 and h.${k.column} = any($2::uuid[])`,
        [tenantId, ids],
      );
      return rows.map((r) => r.user_id);
    },

    async memberIds(auth: Auth, id: string): Promise<string[]> {
      const { rows } = await raw.query<{ user_id: string }>('select user_id from project_users where tenant_id = $1 and project_id = $2', [
        auth.tenantId,
        id,
      ]);
      return rows.map((r) => r.user_id);
    },

    async touch(auth: Auth, id: string): Promise<void> {
      await raw.query('update projects set updated_at = now() where tenant_id = $1 and id = $2', [auth.tenantId, id]);
    },
  };
}
export type ProjectRepository = ReturnType<typeof projectRepository>;
