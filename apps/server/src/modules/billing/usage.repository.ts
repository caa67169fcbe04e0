import type { RawSql } from '../../db/client.ts';

/** Tenant-wide files (not tied to a device) are accounted under this id. */
export const TENANT_WIDE = '00000000-0000-0000-0000-000000000000';

/**
 * SQL only. A device's bytes are what `usage.add` recorded (files, exports…)
 * plus, when the device storage tables exist, the frame-chunk bytes the ingest
 * keeps per day in `storage_usage` — one accounting each, never both.
 */
export function usageRepository(raw: RawSql) {
  let tables: Promise<{ frames: boolean; things: boolean }> | null = null;
  const present = () => {
    tables ??= raw
      .query<{ frames: boolean; things: boolean }>(
        "select to_regclass('storage_usage') is not null as frames, to_regclass('things') is not null as things",
      )
      .then((r) => r.rows[0]);
    return tables;
  };
  const bytesOf = async () =>
    (await present()).frames
      ? `select things_id, bytes from tenant_storage_usage where tenant_id = $1
         union all select things_id, bytes from storage_usage where tenant_id = $1`
      : 'select things_id, bytes from tenant_storage_usage where tenant_id = $1';

  return {
    async add(tenantId: string, thingsId: string, bytes: number): Promise<void> {
      await raw.query(
        `insert into tenant_storage_usage (tenant_id, things_id, bytes) values ($1, $2, greatest($3::bigint, 0))
         on conflict (tenant_id, things_id)
         do update set bytes = greatest(tenant_storage_usage.bytes + $3::bigint, 0), updated_at = now()`,
        [tenantId, thingsId, Math.trunc(bytes)],
      );
    },

    async remove(tenantId: string, thingsId: string): Promise<void> {
      await raw.query('delete from tenant_storage_usage where tenant_id = $1 and things_id = $2', [tenantId, thingsId]);
    },

    async total(tenantId: string): Promise<number> {
      const { rows } = await raw.query<{ b: number }>(`select coalesce(sum(bytes), 0)::float8 as b from (${await bytesOf()}) u`, [
        tenantId,
      ]);
      return Number(rows[0].b);
    },

    /** Devices by bytes stored, largest first. */
    async perThing(tenantId: string, offset: number, limit: number) {
      const t = await present();
      const grouped = `select things_id, sum(bytes)::float8 as bytes from (${await bytesOf()}) u
                        where things_id <> '${TENANT_WIDE}' group by things_id`;
      const count = await raw.query<{ n: number }>(`select count(*)::int as n from (${grouped}) g`, [tenantId]);
      const { rows } = await raw.query<{ things_id: string; bytes: number; name: string | null }>(
        t.things
          ? `select g.things_id, g.bytes, th.name from (${grouped}) g
               left join things th on th.id = g.things_id and th.tenant_id = $1
              order by g.bytes desc, g.things_id offset $2 limit $3`
          : `select g.things_id, g.bytes, null::text as name from (${grouped}) g order by g.bytes desc, g.things_id offset $2 limit $3`,
        [tenantId, offset, limit],
      );
      return { rows, total: count.rows[0].n };
    },

    async tenants(offset: number, limit: number) {
      const count = await raw.query<{ n: number }>('select count(*)::int as n from tenants');
      const { rows } = await raw.query<{ id: string; name: string }>(
        'select id, name from tenants order by created_at, id offset $1 limit $2',
        [offset, limit],
      );
      return { rows, total: count.rows[0].n };
    },
  };
}
export type UsageRepository = ReturnType<typeof usageRepository>;
