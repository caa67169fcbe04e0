import type { RawSql } from '../../db/client.ts';

/** Platform settings (one JSON value per key), written by the system manager. SQL only. */
export function settingsRepository(raw: RawSql) {
  return {
    async get<T>(key: string): Promise<T | null> {
      const { rows } = await raw.query<{ value: T }>('select value from platform_settings where key = $1', [key]);
      return rows[0]?.value ?? null;
    },

    async put(key: string, value: unknown, userId: string): Promise<void> {
      await raw.query(
        `insert into platform_settings (key, value, updated_by) values ($1, $2::jsonb, $3)
         on conflict (key) do update set value = excluded.value, updated_by = excluded.updated_by, updated_at = now()`,
        [key, JSON.stringify(value), userId],
      );
    },
  };
}
