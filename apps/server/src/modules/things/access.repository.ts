import type { DeviceAccess } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

/** Device grants: what a caller may do on a device of its tenant. */
export function accessRepository(raw: RawSql) {
  return {
    /** `write` when `user` is null (not a restricted sub-user); null when the device or grant is missing. */
    async accessOf(tenantId: string, thingsId: string, user: string | null): Promise<DeviceAccess | null> {
      const { rows } = await raw.query<{ access: DeviceAccess | null }>(
        `select case when $3::uuid is null then 'write' else a.access end as access
       from things t
       left join user_device_access a on a.things_id = t.id and a.user_id = $3::uuid
      where t.id = $1 and t.tenant_id = $2`,
        [thingsId, tenantId, user],
      );
      return rows[0]?.access ?? null;
    },

    /** How many of the devices are not devices of the tenant. */
    async notInTenant(tenantId: string, ids: string[]): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `select count(*)::int as n from unnest($1::uuid[]) as x(id)
      where not exists (select 1 from things t where t.id = x.id and t.tenant_id = $2)`,
        [ids, tenantId],
      );
      return rows[0]?.n ?? 0;
    },

    /** How many of the devices the sub-user has no write grant on. */
    async notWritable(ids: string[], user: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `select count(*)::int as n from unnest($1::uuid[]) as x(id)
      where not exists (select 1 from user_device_access a where a.user_id = $2 and a.things_id = x.id and a.access = 'write')`,
        [ids, user],
      );
      return rows[0]?.n ?? 0;
    },
  };
}
