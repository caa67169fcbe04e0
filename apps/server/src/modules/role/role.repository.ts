import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface RoleRow {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  keys: string[];
  menus: string[];
  user_count: number;
  created_at: Date;
  updated_at: Date;
}

const COLS = `r.id, r.tenant_id, r.name, r.description, r.keys, r.menus, r.created_at, r.updated_at,
  (select count(*)::int from user_roles ur where ur.role_id = r.id) as user_count`;

export interface RoleFields {
  name: string;
  description: string | null;
  keys: string[];
  menus: string[];
}

/** Tenant roles and the roles of sub-users. SQL only; every query is scoped by `auth.tenantId`. */
export function roleRepository(raw: RawSql) {
  return {
    async list(auth: Auth): Promise<RoleRow[]> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where r.tenant_id = $1 order by r.name, r.id`, [
        auth.tenantId,
      ]);
      return rows;
    },

    async get(auth: Auth, id: string): Promise<RoleRow | null> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where r.tenant_id = $1 and r.id = $2`, [
        auth.tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async byName(auth: Auth, name: string): Promise<RoleRow | null> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where r.tenant_id = $1 and r.name = $2`, [
        auth.tenantId,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insert(auth: Auth, f: RoleFields): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into tenant_roles (tenant_id, name, description, keys, menus, created_by) values ($1, $2, $3, $4::text[], $5::text[], $6)
         returning id`,
        [auth.tenantId, f.name, f.description, f.keys, f.menus, auth.userId],
      );
      return rows[0].id;
    },

    async update(auth: Auth, id: string, f: RoleFields): Promise<boolean> {
      const r = await raw.query(
        `update tenant_roles set name = $3, description = $4, keys = $5::text[], menus = $6::text[], updated_at = now()
         where tenant_id = $1 and id = $2 returning id`,
        [auth.tenantId, id, f.name, f.description, f.keys, f.menus],
      );
      return r.rows.length > 0;
    },

    async remove(auth: Auth, id: string): Promise<boolean> {
      const r = await raw.query('delete from tenant_roles where tenant_id = $1 and id = $2 returning id', [auth.tenantId, id]);
      return r.rows.length > 0;
    },

    /** Whether `userId` is a sub-user (not the manager) of the tenant. */
    async isSubUser(auth: Auth, userId: string): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>(
        'select id from users where tenant_id = $1 and id = $2 and not is_manager and not system_manager',
        [auth.tenantId, userId],
      );
      return rows.length > 0;
    },

    async rolesOf(auth: Auth, userId: string): Promise<RoleRow[]> {
      const { rows } = await raw.query<RoleRow>(
        `select ${COLS} from tenant_roles r join user_roles u on u.role_id = r.id and u.tenant_id = r.tenant_id
         where r.tenant_id = $1 and u.user_id = $2 order by r.name, r.id`,
        [auth.tenantId, userId],
      );
      return rows;
    },

    /** Replaces the user's roles with `roleIds` (all of the tenant, checked by the caller). */
    async setRoles(auth: Auth, userId: string, roleIds: string[]): Promise<void> {
      await raw.transaction(async (tx) => {
        await tx.query('delete from user_roles where tenant_id = $1 and user_id = $2', [auth.tenantId, userId]);
        if (roleIds.length)
          await tx.query(
            `insert into user_roles (tenant_id, user_id, role_id)
             select $1, $2, r.id from tenant_roles r where r.tenant_id = $1 and r.id = any($3::uuid[])`,
            [auth.tenantId, userId, roleIds],
          );
      });
    },
  };
}
