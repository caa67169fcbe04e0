import type { DeviceAccess, ThingListQuery } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { restrictedUser } from './things.access.ts';

/** One CAN channel of a device as stored in `things.attributes.channels` (jsonb). */
export interface ThingChannel {
  index: number;
  typeId?: number | null;
  status?: number | null;
  signalStrategy?: string | null;
}

/** One tenant label value of a device as stored in `things.labels` (jsonb). */
export interface ThingLabel {
  tenantLabelId: string;
  labelValue: string;
  description?: string | null;
}

export interface ThingRow {
  id: string;
  tenant_id: string;
  third_things_id: string;
  name: string;
  description: string | null;
  info_model_id: string;
  info_model_name: string;
  can_channels: number;
  thing_type: number;
  parent_things_id: string | null;
  things_key: string;
  collected: boolean;
  labels: ThingLabel[];
  attributes: { channels?: ThingChannel[] };
  is_online: boolean;
  connection_status: number;
  digital_twin_things_status: number;
  sd_card_status: string | null;
  firmware: string | null;
  server: string | null;
  channel_enable: number;
  malformed_count: number;
  last_seen_at: Date | null;
  created_at: Date;
  updated_at: Date;
  access: DeviceAccess;
}

export interface DeviceTypeRow {
  id: string;
  tenant_id: string | null;
  name: string;
  display_name: string | null;
  description: string | null;
  can_channels: number;
  thing_type: number;
}

export interface NewThing {
  thirdThingsId: string;
  name: string;
  description: string | null;
  infoModelId: string;
  thingType: number;
  parentThingsId: string | null;
  thingsKey: string;
  labels: ThingLabel[];
  channels: ThingChannel[];
}

/** The caller's own star ($3 user, $4 read-only session or null): favourites are per user (spec §3 collected). */
const COLLECTED = `exists (select 1 from user_favourite_things f
  where f.things_id = t.id and f.user_id = $3::uuid and f.session_id is not distinct from $4::uuid)`;

/** Parameters: $1 tenant, $2 restricted sub-user or null, $3 caller, $4 favourites session (see `who`). */
const SELECT = `
  select t.id, t.tenant_id, t.third_things_id, t.name, t.description, t.info_model_id, dt.name as info_model_name,
         dt.can_channels, t.thing_type, t.parent_things_id, t.things_key, ${COLLECTED} as collected, t.labels, t.attributes,
         t.is_online, t.connection_status, t.digital_twin_things_status, t.sd_card_status, t.firmware, t.server,
         t.channel_enable, t.malformed_count, t.last_seen_at, t.created_at, t.updated_at,
         case when $2::uuid is null then 'write' else a.access end as access
    from things t
    join device_types dt on dt.id = t.info_model_id
    left join user_device_access a on a.things_id = t.id and a.user_id = $2::uuid`;

const ORDER: Record<ThingListQuery['order_param'], string> = {
  created_at: 't.created_at',
  name: 't.name',
  third_things_id: 't.third_things_id',
  last_seen_at: 't.last_seen_at',
};

/** A read-only session (the experience account) reads every device as a read-only grant: no access key. */
function readOnlyView(auth: Auth, r: ThingRow): ThingRow {
  return auth.readOnly && r.access === 'write' ? { ...r, access: 'read' } : r;
}

const truthy = (v: string | undefined) => (v === undefined ? undefined : v === '1' || v === 'true');

/**
 * $1..$4 of every device query. A read-only session is one user shared by every visitor of the
 * experience account: its favourites are kept per session, so no visitor sees another's stars.
 */
const who = (auth: Auth) => [auth.tenantId, restrictedUser(auth), auth.userId, auth.readOnly ? auth.sessionId : null];

export function thingsRepository(raw: RawSql) {
  return {
    async list(auth: Auth, q: ThingListQuery): Promise<{ total: number; rows: ThingRow[] }> {
      const params: unknown[] = who(auth);
      const where = ['t.tenant_id = $1', '($2::uuid is null or a.access is not null)'];
      if (q.keyword) {
        params.push(`%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`(t.name ilike $${params.length} or t.third_things_id ilike $${params.length})`);
      }
      if (q.info_model_id) {
        params.push(q.info_model_id);
        where.push(`t.info_model_id = $${params.length}`);
      }
      const collected = truthy(q.collected);
      if (collected !== undefined) {
        where.push(collected ? COLLECTED : `not ${COLLECTED}`);
      }
      const online = truthy(q.is_online);
      if (online !== undefined) {
        params.push(online);
        where.push(`t.is_online = $${params.length}`);
      }
      if (q.label) {
        params.push(
          JSON.stringify([
            q.label_value !== undefined ? { tenantLabelId: q.label, labelValue: q.label_value } : { tenantLabelId: q.label },
          ]),
        );
        where.push(`t.labels @> $${params.length}::jsonb`);
      }
      if (q.group_id) {
        params.push(q.group_id);
        where.push(
          `exists (select 1 from device_group_things g where g.tenant_id = t.tenant_id and g.group_id = $${params.length} and g.things_id = t.id)`,
        );
      }
      if (q.parent_things_id) {
        params.push(q.parent_things_id);
        where.push(`t.parent_things_id = $${params.length}`);
      }
      const gateway = truthy(q.is_gateway);
      if (gateway !== undefined) {
        where.push(`${gateway ? '' : 'not '}exists (select 1 from things c where c.parent_things_id = t.id and c.tenant_id = t.tenant_id)`);
      }
      const w = where.join(' and ');
      const count = await raw.query<{ n: number }>(
        // $3 and $4 are named even when no favourites filter uses them: every parameter needs a type.
        `select count(*)::int as n, $3::uuid as caller, $4::uuid as session from things t
           left join user_device_access a on a.things_id = t.id and a.user_id = $2::uuid where ${w}`,
        params,
      );
      const dir = q.order_type === 1 ? 'desc' : 'asc';
      params.push(q.page_size, (q.current_page - 1) * q.page_size);
      const { rows } = await raw.query<ThingRow>(
        `${SELECT} where ${w} order by ${ORDER[q.order_param]} ${dir} nulls last, t.id limit $${params.length - 1} offset $${params.length}`,
        params,
      );
      return { total: count.rows[0]?.n ?? 0, rows: rows.map((r) => readOnlyView(auth, r)) };
    },

    async get(auth: Auth, id: string): Promise<ThingRow | null> {
      const { rows } = await raw.query<ThingRow>(
        `${SELECT} where t.tenant_id = $1 and t.id = $5 and ($2::uuid is null or a.access is not null)`,
        [...who(auth), id],
      );
      return rows[0] ? readOnlyView(auth, rows[0]) : null;
    },

    /**
     * The device's parents, nearest first (its gateway, that gateway's gateway…), of the tenant,
     * whether the caller may see them or not (the service filters); at most 32 levels.
     */
    async ancestorIds(tenantId: string, id: string): Promise<string[]> {
      const { rows } = await raw.query<{ id: string }>(
        `with recursive up(id, depth) as (
           select parent_things_id, 1 from things where id = $2 and tenant_id = $1 and parent_things_id is not null
           union all
           select t.parent_things_id, up.depth + 1 from things t join up on t.id = up.id
            where t.tenant_id = $1 and t.parent_things_id is not null and up.depth < 32)
         select id::text from up order by depth`,
        [tenantId, id],
      );
      return rows.map((r) => r.id);
    },

    /** Makes `childIds` (of the tenant) children of `parentId`, or takes them away from it (`parentId` null, only its own). */
    async setParent(tenantId: string, childIds: string[], parentId: string | null, from?: string): Promise<number> {
      const { rows } = await raw.query(
        `update things set parent_things_id = $3, updated_at = now()
          where tenant_id = $1 and id = any($2::uuid[]) and ($4::uuid is null or parent_things_id = $4) returning id`,
        [tenantId, childIds, parentId, from ?? null],
      );
      return rows.length;
    },

    /** Devices of the tenant, all and CAN loggers (package limits count these). */
    async countTenant(auth: Auth): Promise<{ all: number; can: number }> {
      const { rows } = await raw.query<{ all: number; can: number }>(
        'select count(*)::int as all, (count(*) filter (where thing_type = 0))::int as can from things where tenant_id = $1',
        [auth.tenantId],
      );
      return rows[0] ?? { all: 0, can: 0 };
    },

    async existsDeviceId(deviceId: string): Promise<boolean> {
      // Device IDs are unique platform-wide: a logger authenticates with its ID alone.
      const { rows } = await raw.query('select 1 from things where third_things_id = $1', [deviceId]);
      return rows.length > 0;
    },

    async insert(auth: Auth, t: NewThing): Promise<string> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `insert into things (tenant_id, third_things_id, name, description, info_model_id, thing_type, parent_things_id,
                               things_key, labels, attributes, created_by)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9::jsonb,$10::jsonb,$11) returning id`,
          [
            auth.tenantId,
            t.thirdThingsId,
            t.name,
            t.description,
            t.infoModelId,
            t.thingType,
            t.parentThingsId,
            t.thingsKey,
            JSON.stringify(t.labels),
            JSON.stringify({ channels: t.channels }),
            auth.userId,
          ],
        );
        const id = rows[0].id;
        // A sub-user who adds a device may then manage it: a grant, and for a project member the
        // device joins the projects it may write in (a member sees only its projects' devices).
        const user = restrictedUser(auth);
        if (user) {
          await tx.query(`insert into user_device_grants (user_id, tenant_id, things_id, access) values ($1,$2,$3,'write')`, [
            user,
            auth.tenantId,
            id,
          ]);
          await tx.query(
            `insert into project_things (tenant_id, project_id, things_id)
             select $2, pu.project_id, $3 from project_users pu where pu.user_id = $1 and pu.tenant_id = $2 and pu.access = 'write'
             on conflict do nothing`,
            [user, auth.tenantId, id],
          );
        }
        return id;
      });
    },

    /**
     * Stars or un-stars a device for the caller alone. A read-only session's stars are its own and
     * go when it has ended: each change of one clears those of the user's ended sessions.
     */
    async setFavourite(auth: Auth, id: string, on: boolean): Promise<void> {
      const session = auth.readOnly ? auth.sessionId : null;
      if (on) {
        await raw.query(
          `insert into user_favourite_things (user_id, tenant_id, things_id, session_id)
           select $1, t.tenant_id, t.id, $4 from things t where t.tenant_id = $2 and t.id = $3
           on conflict do nothing`,
          [auth.userId, auth.tenantId, id, session],
        );
      } else {
        await raw.query(
          'delete from user_favourite_things where user_id = $1 and things_id = $2 and session_id is not distinct from $3::uuid',
          [auth.userId, id, session],
        );
      }
      if (session) {
        await raw.query(
          `delete from user_favourite_things f using sessions s
            where f.user_id = $1 and f.session_id = s.id and (s.revoked_at is not null or s.expires_at <= now())`,
          [auth.userId],
        );
      }
    },

    async update(auth: Auth, id: string, set: Record<string, unknown>): Promise<void> {
      const cols = Object.keys(set);
      if (!cols.length) return;
      const assigns = cols.map((c, i) => `${c} = $${i + 3}${c === 'labels' || c === 'attributes' ? '::jsonb' : ''}`);
      await raw.query(`update things set ${assigns.join(', ')}, updated_at = now() where tenant_id = $1 and id = $2`, [
        auth.tenantId,
        id,
        ...cols.map((c) => (c === 'labels' || c === 'attributes' ? JSON.stringify(set[c]) : set[c])),
      ]);
    },

    async remove(auth: Auth, id: string): Promise<{ third_things_id: string } | null> {
      return raw.transaction(async (tx) => {
        const { rows } = await tx.query<{ third_things_id: string }>(
          'delete from things where tenant_id = $1 and id = $2 returning third_things_id',
          [auth.tenantId, id],
        );
        if (!rows.length) return null;
        // Frame chunks carry no foreign key (partitioned); the device's data goes with it.
        await tx.query('delete from frame_chunks where tenant_id = $1 and things_id = $2', [auth.tenantId, id]);
        await tx.query('delete from storage_usage where tenant_id = $1 and things_id = $2', [auth.tenantId, id]);
        return rows[0];
      });
    },

    async listTypes(auth: Auth): Promise<DeviceTypeRow[]> {
      const { rows } = await raw.query<DeviceTypeRow>(
        `select id, tenant_id, name, display_name, description, can_channels, thing_type
           from device_types where tenant_id is null or tenant_id = $1 order by tenant_id nulls first, name`,
        [auth.tenantId],
      );
      return rows;
    },

    async getType(auth: Auth, idOrName: string): Promise<DeviceTypeRow | null> {
      const isId = /^[0-9a-f-]{36}$/i.test(idOrName);
      const { rows } = await raw.query<DeviceTypeRow>(
        `select id, tenant_id, name, display_name, description, can_channels, thing_type
           from device_types where (tenant_id is null or tenant_id = $1) and ${isId ? 'id = $2::uuid' : 'name = $2'}
          order by tenant_id nulls last limit 1`,
        [auth.tenantId, idOrName],
      );
      return rows[0] ?? null;
    },

    async insertType(auth: Auth, t: Omit<DeviceTypeRow, 'id' | 'tenant_id'>): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into device_types (tenant_id, name, display_name, description, can_channels, thing_type)
         values ($1,$2,$3,$4,$5,$6) returning id`,
        [auth.tenantId, t.name, t.display_name, t.description, t.can_channels, t.thing_type],
      );
      return rows[0].id;
    },

    async usage(auth: Auth, id: string): Promise<{ frames: number; bytes: number; last: number | null }> {
      const { rows } = await raw.query<{ frames: number; bytes: number }>(
        `select coalesce(sum(frames),0)::bigint as frames, coalesce(sum(bytes),0)::bigint as bytes
           from storage_usage where tenant_id = $1 and things_id = $2`,
        [auth.tenantId, id],
      );
      const last = await raw.query<{ t: number | null }>(
        'select max(time_end) as t from frame_chunks where tenant_id = $1 and things_id = $2',
        [auth.tenantId, id],
      );
      return {
        frames: Number(rows[0]?.frames ?? 0),
        bytes: Number(rows[0]?.bytes ?? 0),
        last: last.rows[0]?.t == null ? null : Number(last.rows[0].t),
      };
    },

    async events(auth: Auth, id: string, page: number, size: number, kind?: string) {
      const params: unknown[] = [auth.tenantId, id];
      let extra = '';
      if (kind) {
        params.push(kind);
        extra = ` and kind = $${params.length}`;
      }
      const total = await raw.query<{ n: number }>(
        `select count(*)::int as n from device_events where tenant_id = $1 and things_id = $2${extra}`,
        params,
      );
      const { rows } = await raw.query<{ id: number; at: Date; kind: string; message: string; detail: Record<string, unknown> | null }>(
        `select id, at, kind, message, detail from device_events where tenant_id = $1 and things_id = $2${extra}
          order by at desc, id desc limit ${size} offset ${(page - 1) * size}`,
        params,
      );
      return { total: total.rows[0]?.n ?? 0, rows };
    },
  };
}

export type ThingsRepository = ReturnType<typeof thingsRepository>;
