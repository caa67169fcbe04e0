import type { RawSql } from '../../db/client.ts';

/** A sub-user's granted permission keys and bound menus. */
export function privilegesRepository(raw: RawSql) {
  return {
    async grants(userId: string): Promise<string[]> {
      const { rows } = await raw.query<{ key: string }>('select key from user_grants where user_id = $1', [userId]);
      return rows.map((r) => r.key);
    },

    /** The user's menus, scoped by its tenant. */
    async menus(tenantId: string, userId: string): Promise<string[]> {
      const { rows } = await raw.query<{ menu: string }>(
        'select m.menu from user_menus m join users u on u.id = m.user_id where m.user_id = $1 and u.tenant_id = $2 order by m.menu',
        [userId, tenantId],
      );
      return rows.map((r) => r.menu);
    },
  };
}
