import type { RawSql } from '../db/client.ts';

/** The leases of the server copies (`server_copies`): one row per running copy, kept fresh by its heartbeat. */
export function serverCopiesRepository(raw: RawSql) {
  return {
    async insert(id: string, name: string): Promise<void> {
      await raw.query('insert into server_copies (id, name) values ($1, $2)', [id, name]);
    },

    /** Re-inserts a copy whose row was pruned. */
    async reinsert(id: string, name: string): Promise<void> {
      await raw.query('insert into server_copies (id, name) values ($1, $2) on conflict (id) do nothing', [id, name]);
    },

    async remove(id: string): Promise<void> {
      await raw.query('delete from server_copies where id = $1', [id]);
    },

    /** False when the copy's row is gone (the others took its jobs over). */
    async heartbeat(id: string): Promise<boolean> {
      const { rows } = await raw.query('update server_copies set heartbeat_at = now() where id = $1 returning id', [id]);
      return rows.length > 0;
    },

    /** Forgets the other copies that are gone: silent past the lease, this copy's predecessor (same name) at start, or any when alone. */
    async prune(id: string, alone: boolean, leaseMs: number, startup: boolean, name: string): Promise<void> {
      await raw.query(
        `delete from server_copies where id <> $1
          and ($2 or heartbeat_at < now() - make_interval(secs => $3) or ($4 and name <> '' and name = $5))`,
        [id, alone, leaseMs / 1000, startup, name],
      );
    },
  };
}
