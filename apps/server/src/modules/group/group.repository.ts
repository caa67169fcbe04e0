import type { CommandState } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface GroupRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  things_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  things_id: string;
  third_things_id: string;
  name: string;
  is_online: boolean;
  bound_at: Date;
}

export interface GroupCommandRow {
  id: string;
  group_id: string;
  description: string | null;
  operation_name: string;
  operation_params: Record<string, unknown>;
  created_at: Date;
  states: Record<string, number> | null;
}

export interface GroupCommandItemRow {
  things_id: string;
  third_things_id: string;
  name: string;
  correlation_id: string;
  state: CommandState;
  code: number | null;
  message: string | null;
  answered_at: Date | null;
}

const COLS = `g.id, g.tenant_id, g.name, g.description, g.created_at, g.updated_at,
  (select count(*)::int from device_group_things m where m.group_id = g.id) as things_count`;

/** Members' command states of a group command, counted: `{answered: 2, timeout: 1}`. */
const STATES = `(select jsonb_object_agg(s.state, s.n) from (
    select c.state, count(*)::int as n from group_command_items i join device_commands c on c.correlation_id = i.correlation_id
    where i.group_command_id = gc.id group by c.state) s) as states`;

/** Device groups, their members and group commands. SQL only; every query is scoped by `auth.tenantId`. */
export function groupRepository(raw: RawSql) {
  return {
    async page(auth: Auth, q: { keyword?: string; thingsId?: string }, offset: number, limit: number) {
      const params: unknown[] = [auth.tenantId];
      const where = ['g.tenant_id = $1'];
      if (q.keyword) where.push(`strpos(lower(g.name), lower($${params.push(q.keyword)})) > 0`);
      if (q.thingsId)
        where.push(`exists (select 1 from device_group_things x where x.group_id = g.id and x.things_id = $${params.push(q.thingsId)})`);
      const w = where.join(' and ');
      const { rows } = await raw.query<GroupRow>(
        `select ${COLS} from device_groups g where ${w} order by g.created_at desc, g.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from device_groups g where ${w}`, params);
      return { rows, total: c.rows[0].n };
    },

    async get(auth: Auth, id: string): Promise<GroupRow | null> {
      const { rows } = await raw.query<GroupRow>(`select ${COLS} from device_groups g where g.tenant_id = $1 and g.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async nameTaken(auth: Auth, name: string, exceptId: string | null = null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from device_groups where tenant_id = $1 and name = $2 and ($3::uuid is null or id <> $3::uuid)',
        [auth.tenantId, name, exceptId],
      );
      return rows.length > 0;
    },

    async insert(auth: Auth, v: { name: string; description: string | null }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        'insert into device_groups (tenant_id, name, description, created_by) values ($1,$2,$3,$4) returning id',
        [auth.tenantId, v.name, v.description, auth.userId],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, v: { name: string; description: string | null }): Promise<boolean> {
      const { rows } = await raw.query(
        'update device_groups set name = $3, description = $4, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [auth.tenantId, id, v.name, v.description],
      );
      return rows.length > 0;
    },

    async remove(auth: Auth, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from device_groups where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return rows.length > 0;
    },

    /** Members, only those granted to `userId` when it is set (a sub-user sees only its devices). */
    async members(auth: Auth, groupId: string, userId: string | null, offset: number, limit: number) {
      const params = [auth.tenantId, groupId, userId];
      const from = `from device_group_things m join things t on t.id = m.things_id and t.tenant_id = m.tenant_id
        where m.tenant_id = $1 and m.group_id = $2
          and ($3::uuid is null or exists (select 1 from user_device_access a where a.things_id = t.id and a.user_id = $3::uuid))`;
      const { rows } = await raw.query<MemberRow>(
        `select t.id as things_id, t.third_things_id, t.name, t.is_online, m.created_at as bound_at ${from}
         order by t.name, t.id limit $4 offset $5`,
        [...params, limit, offset],
      );
      const c = await raw.query<{ n: number }>(`select count(*)::int as n ${from}`, params);
      return { rows, total: c.rows[0].n };
    },

    /** Every member's id. */
    async memberIds(auth: Auth, groupId: string): Promise<string[]> {
      const { rows } = await raw.query<{ things_id: string }>(
        'select things_id from device_group_things where tenant_id = $1 and group_id = $2 order by created_at, things_id',
        [auth.tenantId, groupId],
      );
      return rows.map((r) => r.things_id);
    },

    /** Which of `ids` are devices of the tenant. */
    async tenantThings(auth: Auth, ids: string[]): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>('select id from things where tenant_id = $1 and id = any($2::uuid[])', [
        auth.tenantId,
        ids,
      ]);
      return rows.map((r) => r.id);
    },

    async bind(auth: Auth, groupId: string, ids: string[]): Promise<number> {
      const { rows } = await raw.query(
        `insert into device_group_things (tenant_id, group_id, things_id)
         select $1, $2, t.id from things t where t.tenant_id = $1 and t.id = any($3::uuid[])
         on conflict do nothing returning things_id`,
        [auth.tenantId, groupId, ids],
      );
      await raw.query('update device_groups set updated_at = now() where tenant_id = $1 and id = $2', [auth.tenantId, groupId]);
      return rows.length;
    },

    async unbind(auth: Auth, groupId: string, ids: string[]): Promise<number> {
      const { rows } = await raw.query(
        'delete from device_group_things where tenant_id = $1 and group_id = $2 and things_id = any($3::uuid[]) returning things_id',
        [auth.tenantId, groupId, ids],
      );
      await raw.query('update device_groups set updated_at = now() where tenant_id = $1 and id = $2', [auth.tenantId, groupId]);
      return rows.length;
    },

    async insertCommand(
      auth: Auth,
      groupId: string,
      v: { description: string | null; operationName: string; operationParams: Record<string, unknown> },
    ): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into group_commands (tenant_id, group_id, description, operation_name, operation_params, created_by)
         values ($1,$2,$3,$4,$5::jsonb,$6) returning id`,
        [auth.tenantId, groupId, v.description, v.operationName, JSON.stringify(v.operationParams), auth.userId],
      );
      return rows[0].id;
    },

    async addCommandItem(auth: Auth, commandId: string, thingsId: string, correlationId: string): Promise<void> {
      await raw.query('insert into group_command_items (group_command_id, tenant_id, things_id, correlation_id) values ($1,$2,$3,$4)', [
        commandId,
        auth.tenantId,
        thingsId,
        correlationId,
      ]);
    },

    async commands(auth: Auth, groupId: string, offset: number, limit: number) {
      const { rows } = await raw.query<GroupCommandRow>(
        `select gc.id, gc.group_id, gc.description, gc.operation_name, gc.operation_params, gc.created_at, ${STATES}
         from group_commands gc where gc.tenant_id = $1 and gc.group_id = $2 order by gc.created_at desc, gc.id limit $3 offset $4`,
        [auth.tenantId, groupId, limit, offset],
      );
      const c = await raw.query<{ n: number }>('select count(*)::int as n from group_commands where tenant_id = $1 and group_id = $2', [
        auth.tenantId,
        groupId,
      ]);
      return { rows, total: c.rows[0].n };
    },

    async command(auth: Auth, groupId: string, id: string): Promise<GroupCommandRow | null> {
      const { rows } = await raw.query<GroupCommandRow>(
        `select gc.id, gc.group_id, gc.description, gc.operation_name, gc.operation_params, gc.created_at, ${STATES}
         from group_commands gc where gc.tenant_id = $1 and gc.group_id = $2 and gc.id = $3`,
        [auth.tenantId, groupId, id],
      );
      return rows[0] ?? null;
    },

    /** Each member's command of a group command, with its device command's state. */
    async commandItems(auth: Auth, commandId: string): Promise<GroupCommandItemRow[]> {
      const { rows } = await raw.query<GroupCommandItemRow>(
        `select i.things_id, t.third_things_id, t.name, i.correlation_id, c.state, c.code, c.message, c.answered_at
         from group_command_items i
         join things t on t.id = i.things_id and t.tenant_id = i.tenant_id
         join device_commands c on c.correlation_id = i.correlation_id and c.things_id = i.things_id
         where i.tenant_id = $1 and i.group_command_id = $2 order by t.name, t.id`,
        [auth.tenantId, commandId],
      );
      return rows;
    },
  };
}
export type GroupRepository = ReturnType<typeof groupRepository>;
