import type { RawSql } from '../db/client.ts';

/**
 * Device accounts on an external broker (ingest/dynsec.ts): the devices as the database has them
 * (device ID and key, platform-wide like the broker's usernames) and what the broker was given.
 */
export function brokerAccountsRepository(raw: RawSql) {
  return {
    async device(deviceId: string): Promise<{ device_id: string; things_key: string } | null> {
      const { rows } = await raw.query<{ device_id: string; things_key: string }>(
        'select third_things_id as device_id, things_key from things where third_things_id = $1',
        [deviceId],
      );
      return rows[0] ?? null;
    },

    async devices(): Promise<{ device_id: string; things_key: string }[]> {
      const { rows } = await raw.query<{ device_id: string; things_key: string }>(
        'select third_things_id as device_id, things_key from things order by third_things_id',
      );
      return rows;
    },

    async synced(deviceId: string): Promise<{ key_digest: string } | null> {
      const { rows } = await raw.query<{ key_digest: string }>('select key_digest from broker_accounts where device_id = $1', [deviceId]);
      return rows[0] ?? null;
    },

    async allSynced(): Promise<{ device_id: string; key_digest: string }[]> {
      return (await raw.query<{ device_id: string; key_digest: string }>('select device_id, key_digest from broker_accounts')).rows;
    },

    async markSynced(deviceId: string, digest: string): Promise<void> {
      await raw.query(
        `insert into broker_accounts (device_id, key_digest) values ($1, $2)
         on conflict (device_id) do update set key_digest = excluded.key_digest, synced_at = now()`,
        [deviceId, digest],
      );
    },

    async unmarkSynced(deviceId: string): Promise<void> {
      await raw.query('delete from broker_accounts where device_id = $1', [deviceId]);
    },
  };
}

export type BrokerAccountsRepository = ReturnType<typeof brokerAccountsRepository>;
