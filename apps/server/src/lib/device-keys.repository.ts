import type { RawSql } from '../db/client.ts';

/** A device's key by its thing id (the one-time links of commands are proven with it). */
export async function deviceKeyOf(raw: RawSql, thingsId: string): Promise<string | undefined> {
  const { rows } = await raw.query<{ things_key: string }>('select things_key from things where id = $1', [thingsId]);
  return rows[0]?.things_key;
}
