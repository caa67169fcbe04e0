import type { DeviceConfig } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

/** The last configuration known per device (read from it or written to it). */
export function configRepository(raw: RawSql) {
  return {
    async remember(tenantId: string, thingsId: string, config: unknown, source: 'read' | 'write'): Promise<void> {
      await raw.query(
        `insert into device_configs (things_id, tenant_id, config, source) values ($1,$2,$3::jsonb,$4)
       on conflict (things_id) do update set config = excluded.config, source = excluded.source, updated_at = now()`,
        [thingsId, tenantId, JSON.stringify(config), source],
      );
    },

    async last(tenantId: string, thingsId: string): Promise<{ config: DeviceConfig; source: 'read' | 'write'; updated_at: Date } | null> {
      const { rows } = await raw.query<{ config: DeviceConfig; source: 'read' | 'write'; updated_at: Date }>(
        'select config, source, updated_at from device_configs where things_id = $1 and tenant_id = $2',
        [thingsId, tenantId],
      );
      return rows[0] ?? null;
    },
  };
}
