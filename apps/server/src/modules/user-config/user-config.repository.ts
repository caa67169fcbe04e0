import type { RawSql } from '../../db/client.ts';

/** Per-user settings; a user's rows are reached through the user, itself scoped by tenant. */
export function userConfigRepository(raw: RawSql) {
  return {
    async get(tenantId: string, userId: string, keys: string[] | null): Promise<{ key: string; value: string }[]> {
      const { rows } = await raw.query<{ key: string; value: string }>(
        `select c.key, c.value from user_configs c join users u on u.id = c.user_id
         where c.user_id = $1 and u.tenant_id = $2 and ($3::text[] is null or c.key = any($3::text[])) order by c.key`,
        [userId, tenantId, keys],
      );
      return rows;
    },

    async put(tenantId: string, userId: string, key: string, value: string) {
      await raw.query(
        `insert into user_configs (user_id, key, value)
         select u.id, $3, $4 from users u where u.id = $1 and u.tenant_id = $2
         on conflict (user_id, key) do update set value = excluded.value, updated_at = now()`,
        [userId, tenantId, key, value],
      );
    },
  };
}
