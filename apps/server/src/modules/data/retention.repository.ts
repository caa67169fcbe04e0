import type { RawSql } from '../../db/client.ts';
import { MODEL_DATA_TABLES } from '../twin/twin.repository.ts';

/** What retention deletes: day partitions of the frame store, a tenant's old rows, ended exports. */
export function retentionRepository(raw: RawSql) {
  return {
    /** The names of the partitions of `frame_chunks`. */
    async framePartitions(): Promise<string[]> {
      const { rows } = await raw.query<{ name: string }>(
        `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      where p.relname = 'frame_chunks'`,
      );
      return rows.map((r) => r.name);
    },

    /** `name` is one of `framePartitions()`. */
    async dropPartition(name: string): Promise<void> {
      await raw.exec(`drop table if exists ${name}`);
    },

    /** Usage rows of every tenant before `date` (YYYY-MM-DD). */
    async deleteUsageBefore(date: string): Promise<void> {
      await raw.query('delete from storage_usage where day < $1::date', [date]);
    },

    /** Deletes export tasks ended before `beforeMs`; returns their files. */
    async deleteEndedExports(beforeMs: number): Promise<(string | null)[]> {
      const { rows } = await raw.query<{ file_path: string | null }>(
        `delete from download_tasks where coalesce(finished_at, created_at) < to_timestamp($1::float8 / 1000) returning file_path`,
        [beforeMs],
      );
      return rows.map((r) => r.file_path);
    },

    /** Every tenant with its retention in days (null: kept for ever); `defaultDays` without a package. */
    async tenantDays(defaultDays: number): Promise<{ id: string; days: number | null }[]> {
      const { rows: tenants } = await raw.query<{ id: string; days: number | null }>(
        `select t.id,
            case when t.reclaim_policy = 1 then least(pd.days, t.max_reserves_duration) else pd.days end as days
       from tenants t
       left join tenant_packages p on p.tenant_id = t.id
       cross join lateral (select case when p.tenant_id is null then $1::int else p.maximum_data_retention_days end as days) pd`,
        [defaultDays],
      );
      return tenants;
    },

    /** Deletes the tenant's chunks before `beforeUs` and its usage rows before `date`; returns the chunks deleted. */
    async deleteTenantChunks(tenantId: string, beforeUs: number, date: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        `with gone as (delete from frame_chunks where tenant_id = $1 and time_start < $2 returning 1) select count(*)::int as n from gone`,
        [tenantId, beforeUs],
      );
      await raw.query('delete from storage_usage where tenant_id = $1 and day < $2::date', [tenantId, date]);
      return rows[0].n;
    },

    async deleteTenantGps(tenantId: string, beforeMs: number): Promise<void> {
      await raw.query('delete from gps_fixes where tenant_id = $1 and ts < $2', [tenantId, beforeMs]);
    },

    /** The tenant's model data before `beforeMs`: twin events and the history of model properties. */
    async deleteTenantModelData(tenantId: string, beforeMs: number): Promise<void> {
      for (const table of MODEL_DATA_TABLES)
        await raw.query(`delete from ${table} where tenant_id = $1 and ts < to_timestamp($2::float8 / 1000)`, [tenantId, beforeMs]);
    },
  };
}
