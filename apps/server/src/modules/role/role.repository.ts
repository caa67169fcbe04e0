import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export interface RoleRow {
  id: string;
  /** Null for a common role. */
  tenant_id: string | null;
  name: string;
  description: string | null;
  keys: string[];
  menus: string[];
  user_count: number;
  created_at: Date;
  updated_at: Date;
}

/** A role's columns; its holders are counted in tenant `$1` (every tenant when `$1` is null). */
const COLS = `r.id, r.tenant_id, r.name, r.description, r.keys, r.menus, r.created_at, r.updated_at,
  (select count(*)::int from user_roles ur where ur.role_id = r.id and ($1::uuid is null or ur.tenant_id = $1)) as user_count`;
/** Roles tenant `$1` may use: its own and the common ones. */
const USABLE = '(r.tenant_id = $1 or r.tenant_id is null)';

export interface RoleFields {
  name: string;
  description: string | null;
  keys: string[];
  menus: string[];
}

/**
 * Tenant roles, common roles and the roles of sub-users. SQL only; every query is scoped by
 * `auth.tenantId` (a tenant reads the common roles too, and changes only its own).
 */
export function roleRepository(raw: RawSql) {
  return {
    /** The tenant's own roles, then the common ones. */
    async list(auth: Auth): Promise<RoleRow[]> {
      const { rows } = await raw.query<RoleRow>(
        `select ${COLS} from tenant_roles r where ${USABLE} order by r.tenant_id is null, r.name, r.id`,
        [auth.tenantId],
      );
      return rows;
    },

    /** A role the tenant may use (its own or a common one). */
    async get(auth: Auth, id: string): Promise<RoleRow | null> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where ${USABLE} and r.id = $2`, [auth.tenantId, id]);
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
        `select ${COLS} from tenant_roles r join user_roles u on u.role_id = r.id and u.tenant_id = $1
         where ${USABLE} and u.user_id = $2 order by r.tenant_id is null, r.name, r.id`,
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
             select $1, $2, r.id from tenant_roles r where ${USABLE} and r.id = any($3::uuid[])`,
            [auth.tenantId, userId, roleIds],
          );
      });
    },

    /** Common roles, each with its holders in every tenant. */
    async listCommon(): Promise<RoleRow[]> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where r.tenant_id is null order by r.name, r.id`, [
        null,
      ]);
      return rows;
    },

    async getCommon(id: string): Promise<RoleRow | null> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where r.tenant_id is null and r.id = $2`, [null, id]);
      return rows[0] ?? null;
    },

    async commonByName(name: string): Promise<RoleRow | null> {
      const { rows } = await raw.query<RoleRow>(`select ${COLS} from tenant_roles r where r.tenant_id is null and r.name = $2`, [
        null,
        name,
      ]);
      return rows[0] ?? null;
    },

    async insertCommon(auth: Auth, f: RoleFields): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into tenant_roles (tenant_id, name, description, keys, menus, created_by) values (null, $1, $2, $3::text[], $4::text[], $5)
         returning id`,
        [f.name, f.description, f.keys, f.menus, auth.userId],
      );
      return rows[0].id;
    },

    async updateCommon(id: string, f: RoleFields): Promise<boolean> {
      const r = await raw.query(
        `update tenant_roles set name = $2, description = $3, keys = $4::text[], menus = $5::text[], updated_at = now()
         where tenant_id is null and id = $1 returning id`,
        [id, f.name, f.description, f.keys, f.menus],
      );
      return r.rows.length > 0;
    },

    async removeCommon(id: string): Promise<boolean> {
      const r = await raw.query('delete from tenant_roles where tenant_id is null and id = $1 returning id', [id]);
      return r.rows.length > 0;
    },
  };
}
