import type { RawSql } from '../../db/client.ts';

/** Secrets this server keeps in the database (the session signing key), and the sealing key's fingerprint. */
export function secretsRepository(raw: RawSql) {
  return {
    /** The stored secret of this name; `fresh` is stored first when there is none. */
    async getOrCreate(name: string, fresh: string): Promise<string> {
      await raw.query('insert into server_secrets(name, value) values ($1, $2) on conflict (name) do nothing', [name, fresh]);
      const { rows } = await raw.query<{ value: string }>('select value from server_secrets where name = $1', [name]);
      return rows[0].value;
    },

    /** The stored value of this name, or null. */
    async get(name: string): Promise<string | null> {
      const { rows } = await raw.query<{ value: string }>('select value from server_secrets where name = $1', [name]);
      return rows[0]?.value ?? null;
    },
  };
}
