import type { DeviceAccessEntry } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { setClause, type UserRow } from './accounts.repository.ts';

export interface SubUserRelations {
  devices: DeviceAccessEntry[];
  menus: string[];
  grants: string[];
}

/** Sub-users of one tenant; every statement carries the tenant id. */
export function subUsersRepository(raw: RawSql) {
  return {
    async count(tenantId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from users where tenant_id = $1 and parent_user_id is not null',
        [tenantId],
      );
      return rows[0].n;
    },

    async page(tenantId: string, f: { username?: string; mobile?: string }, page: number, size: number) {
      const params: unknown[] = [tenantId];
      let where = 'tenant_id = $1 and parent_user_id is not null';
      if (f.username) {
        params.push(`%${f.username.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where += ` and username ilike $${params.length}`;
      }
      if (f.mobile) {
        params.push(`%${f.mobile.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where += ` and mobile like $${params.length}`;
      }
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from users where ${where}`, params);
      const { rows } = await raw.query<UserRow>(
        `select * from users where ${where} order by created_at desc, id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, size, (page - 1) * size],
      );
      return { total: total.rows[0].n, rows };
    },

    async get(tenantId: string, userId: string): Promise<UserRow | null> {
      const { rows } = await raw.query<UserRow>('select * from users where id = $1 and tenant_id = $2 and parent_user_id is not null', [
        userId,
        tenantId,
      ]);
      return rows[0] ?? null;
    },

    async insert(v: {
      tenantId: string;
      parentId: string;
      username: string;
      mobile: string;
      areaCode: string;
      email: string | null;
      description: string | null;
      passwordHash: string;
    }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into users (tenant_id, parent_user_id, username, name, mobile, area_code, email, description, password_hash, is_manager)
         values ($1,$2,$3,$3,$4,$5,$6,$7,$8,false) returning id`,
        [v.tenantId, v.parentId, v.username, v.mobile, v.areaCode, v.email, v.description, v.passwordHash],
      );
      return rows[0].id;
    },

    async update(tenantId: string, userId: string, fields: Record<string, unknown>) {
      const set = setClause({ ...fields, updated_at: new Date() }, 3);
      await raw.query(`update users set ${set.sql} where id = $1 and tenant_id = $2 and parent_user_id is not null`, [
        userId,
        tenantId,
        ...set.params,
      ]);
    },

    async delete(tenantId: string, userId: string): Promise<boolean> {
      const { rows } = await raw.query('delete from users where id = $1 and tenant_id = $2 and parent_user_id is not null returning id', [
        userId,
        tenantId,
      ]);
      return rows.length > 0;
    },

    async setGrants(tenantId: string, userId: string, keys: string[]) {
      await raw.query('delete from user_grants where user_id = (select id from users where id = $1 and tenant_id = $2)', [
        userId,
        tenantId,
      ]);
      if (keys.length) {
        await raw.query(
          'insert into user_grants (user_id, key) select u.id, k from users u, unnest($3::text[]) k where u.id = $1 and u.tenant_id = $2',
          [userId, tenantId, keys],
        );
      }
    },

    async setMenus(tenantId: string, userId: string, menus: string[]) {
      await raw.query('delete from user_menus where user_id = (select id from users where id = $1 and tenant_id = $2)', [userId, tenantId]);
      if (menus.length) {
        await raw.query(
          'insert into user_menus (user_id, menu) select u.id, m from users u, unnest($3::text[]) m where u.id = $1 and u.tenant_id = $2',
          [userId, tenantId, menus],
        );
      }
    },

    async setDevices(tenantId: string, userId: string, devices: DeviceAccessEntry[]) {
      await raw.query('delete from user_device_grants where user_id = $1 and tenant_id = $2', [userId, tenantId]);
      if (devices.length) {
        await raw.query(
          `insert into user_device_grants (user_id, tenant_id, things_id, access)
           select $1, $2, d.things_id, d.access from unnest($3::uuid[], $4::text[]) as d(things_id, access)`,
          [userId, tenantId, devices.map((d) => d.things_id), devices.map((d) => d.access)],
        );
      }
    },

    async relations(tenantId: string, userIds: string[]): Promise<Map<string, SubUserRelations>> {
      const out = new Map<string, SubUserRelations>(userIds.map((id) => [id, { devices: [], menus: [], grants: [] }]));
      if (!userIds.length) return out;
      const devices = await raw.query<{ user_id: string; things_id: string; access: 'read' | 'write' }>(
        'select user_id, things_id, access from user_device_grants where tenant_id = $1 and user_id = any($2::uuid[]) order by things_id',
        [tenantId, userIds],
      );
      for (const d of devices.rows) out.get(d.user_id)?.devices.push({ things_id: d.things_id, access: d.access });
      const menus = await raw.query<{ user_id: string; menu: string }>(
        `select m.user_id, m.menu from user_menus m join users u on u.id = m.user_id
         where u.tenant_id = $1 and m.user_id = any($2::uuid[]) order by m.menu`,
        [tenantId, userIds],
      );
      for (const m of menus.rows) out.get(m.user_id)?.menus.push(m.menu);
      const grants = await raw.query<{ user_id: string; key: string }>(
        `select g.user_id, g.key from user_grants g join users u on u.id = g.user_id
         where u.tenant_id = $1 and g.user_id = any($2::uuid[]) order by g.key`,
        [tenantId, userIds],
      );
      for (const g of grants.rows) out.get(g.user_id)?.grants.push(g.key);
      return out;
    },

    /**
     * Device ids of the list that are not devices of this tenant. Works before the
     * devices migration has landed (no things table yet: nothing to check against).
     */
    async unknownThings(tenantId: string, ids: string[]): Promise<string[]> {
      if (!ids.length) return [];
      const t = await raw.query<{ ok: boolean }>(`select to_regclass('things') is not null as ok`);
      if (!t.rows[0].ok) return [];
      const { rows } = await raw.query<{ id: string }>(
        'select id::text as id from things where tenant_id = $1 and id::text = any($2::text[])',
        [tenantId, ids],
      );
      const found = new Set(rows.map((r) => r.id));
      return ids.filter((id) => !found.has(id));
    },
  };
}
export type SubUsersRepository = ReturnType<typeof subUsersRepository>;
