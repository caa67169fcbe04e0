import type { RawSql } from '../../db/client.ts';

/** A sub-user's permission keys and menus: its own grants and menus and those of its roles (its tenant's and common ones). */
export function privilegesRepository(raw: RawSql) {
  return {
    async grants(userId: string): Promise<string[]> {
      const { rows } = await raw.query<{ key: string }>(
        `select key from user_grants where user_id = $1
         union
         select unnest(r.keys) from user_roles ur join tenant_roles r on r.id = ur.role_id and (r.tenant_id = ur.tenant_id or r.tenant_id is null)
         where ur.user_id = $1`,
        [userId],
      );
      return rows.map((r) => r.key);
    },

    async tenantName(tenantId: string): Promise<string | null> {
      const { rows } = await raw.query<{ name: string }>('select name from tenants where id = $1', [tenantId]);
      return rows[0]?.name ?? null;
    },

    /** The user's menus, scoped by its tenant. */
    async menus(tenantId: string, userId: string): Promise<string[]> {
      const { rows } = await raw.query<{ menu: string }>(
        `select m.menu from user_menus m join users u on u.id = m.user_id where m.user_id = $1 and u.tenant_id = $2
         union
         select unnest(r.menus) from user_roles ur join tenant_roles r on r.id = ur.role_id and (r.tenant_id = ur.tenant_id or r.tenant_id is null)
         where ur.user_id = $1 and ur.tenant_id = $2
         order by 1`,
        [userId, tenantId],
      );
      return rows.map((r) => r.menu);
    },
  };
}
