import type { RawSql } from '../../db/client.ts';
import type { ModelDataTable } from '../twin/twin.repository.ts';

export interface TemplateRow {
  id: string;
  tenant_id: string;
  name: string;
  things_ids: string[];
  format: string;
  channels: number[];
  ids: number[];
  plugin_id: string | null;
  begin_time: string | null;
  end_time: string | null;
  last_hours: number | null;
  last_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface CleanTaskRow {
  id: string;
  tenant_id: string;
  name: string;
  things_id: string;
  things_name: string | null;
  keep_days: number;
  status: number;
  last_run_at: Date | null;
  last_deleted: string | null;
  last_limited: boolean;
  last_error: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface TemplateValues {
  name: string;
  things_ids: string[];
  format: string;
  channels: number[];
  ids: number[];
  plugin_id: string | null;
  begin_time: number | null;
  end_time: number | null;
  last_hours: number | null;
}

const esc = (k: string) => `%${k.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const CLEAN_COLS = `c.id, c.tenant_id, c.name, c.things_id, t.name as things_name, c.keep_days, c.status, c.last_run_at, c.last_deleted,
  c.last_limited, c.last_error, c.created_by, c.created_at, c.updated_at`;

/** SQL of download templates and clean tasks; every query scoped by the tenant. */
export function dataServiceRepository(raw: RawSql) {
  /** Rows of a device's `ts`-stamped store older than `beforeMs`, at most `max` of them, oldest first. */
  async function deleteByTsBefore(
    table: ModelDataTable,
    tenantId: string,
    thingsId: string,
    beforeMs: number,
    max: number,
  ): Promise<{ n: number; limited: boolean }> {
    if (max <= 0) return { n: 0, limited: true };
    const { rows } = await raw.query<{ n: number; limited: boolean }>(
      `with over as (select ts from ${table} where tenant_id = $1 and things_id = $2 and ts < to_timestamp($3::float8 / 1000)
                      order by ts offset $4 limit 1),
            gone as (delete from ${table} where tenant_id = $1 and things_id = $2
                       and ts < coalesce((select ts from over), to_timestamp($3::float8 / 1000)) returning 1)
       select (select count(*) from gone)::int as n, exists (select 1 from over) as limited`,
      [tenantId, thingsId, beforeMs, max],
    );
    return { n: rows[0].n, limited: rows[0].limited };
  }
  return {
    async templates(tenantId: string, keyword: string | undefined, limit: number, offset: number) {
      const args: unknown[] = [tenantId, keyword ? esc(keyword) : null];
      const w = 'tenant_id = $1 and ($2::text is null or name ilike $2)';
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from download_templates where ${w}`, args);
      const { rows } = await raw.query<TemplateRow>(
        `select * from download_templates where ${w} order by created_at desc, id limit $3 offset $4`,
        [...args, limit, offset],
      );
      return { total: c.rows[0].n, rows };
    },
    async template(tenantId: string, id: string): Promise<TemplateRow | null> {
      const { rows } = await raw.query<TemplateRow>('select * from download_templates where tenant_id = $1 and id = $2', [tenantId, id]);
      return rows[0] ?? null;
    },
    async insertTemplate(tenantId: string, userId: string | null, v: TemplateValues): Promise<TemplateRow> {
      const { rows } = await raw.query<TemplateRow>(
        `insert into download_templates (tenant_id, name, things_ids, format, channels, ids, plugin_id, begin_time, end_time, last_hours, created_by)
         values ($1,$2,$3::uuid[],$4,$5::jsonb,$6::jsonb,$7,$8,$9,$10,$11) returning *`,
        [
          tenantId,
          v.name,
          v.things_ids,
          v.format,
          JSON.stringify(v.channels),
          JSON.stringify(v.ids),
          v.plugin_id,
          v.begin_time,
          v.end_time,
          v.last_hours,
          userId,
        ],
      );
      return rows[0];
    },
    async updateTemplate(tenantId: string, id: string, v: TemplateValues): Promise<TemplateRow | null> {
      const { rows } = await raw.query<TemplateRow>(
        `update download_templates set name = $3, things_ids = $4::uuid[], format = $5, channels = $6::jsonb, ids = $7::jsonb, plugin_id = $8,
           begin_time = $9, end_time = $10, last_hours = $11, updated_at = now()
         where tenant_id = $1 and id = $2 returning *`,
        [
          tenantId,
          id,
          v.name,
          v.things_ids,
          v.format,
          JSON.stringify(v.channels),
          JSON.stringify(v.ids),
          v.plugin_id,
          v.begin_time,
          v.end_time,
          v.last_hours,
        ],
      );
      return rows[0] ?? null;
    },
    async removeTemplate(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from download_templates where tenant_id = $1 and id = $2 returning id', [tenantId, id]);
      return rows.length > 0;
    },
    async templateRan(tenantId: string, id: string): Promise<void> {
      await raw.query('update download_templates set last_run_at = now() where tenant_id = $1 and id = $2', [tenantId, id]);
    },

    async cleanTasks(tenantId: string, keyword: string | undefined, limit: number, offset: number) {
      const args: unknown[] = [tenantId, keyword ? esc(keyword) : null];
      const w = 'c.tenant_id = $1 and ($2::text is null or c.name ilike $2)';
      const c = await raw.query<{ n: number }>(`select count(*)::int as n from clean_tasks c where ${w}`, args);
      const { rows } = await raw.query<CleanTaskRow>(
        `select ${CLEAN_COLS} from clean_tasks c left join things t on t.id = c.things_id where ${w}
         order by c.created_at desc, c.id limit $3 offset $4`,
        [...args, limit, offset],
      );
      return { total: c.rows[0].n, rows };
    },
    async cleanTask(tenantId: string, id: string): Promise<CleanTaskRow | null> {
      const { rows } = await raw.query<CleanTaskRow>(
        `select ${CLEAN_COLS} from clean_tasks c left join things t on t.id = c.things_id where c.tenant_id = $1 and c.id = $2`,
        [tenantId, id],
      );
      return rows[0] ?? null;
    },
    async insertCleanTask(tenantId: string, userId: string | null, v: { name: string; things_id: string; keep_days: number }) {
      const { rows } = await raw.query<{ id: string }>(
        'insert into clean_tasks (tenant_id, name, things_id, keep_days, created_by) values ($1,$2,$3,$4,$5) returning id',
        [tenantId, v.name, v.things_id, v.keep_days, userId],
      );
      return rows[0].id;
    },
    async updateCleanTask(tenantId: string, id: string, v: { name: string; things_id: string; keep_days: number }): Promise<boolean> {
      const { rows } = await raw.query(
        'update clean_tasks set name = $3, things_id = $4, keep_days = $5, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [tenantId, id, v.name, v.things_id, v.keep_days],
      );
      return rows.length > 0;
    },
    async setCleanTaskStatus(tenantId: string, id: string, status: number): Promise<boolean> {
      const { rows } = await raw.query(
        'update clean_tasks set status = $3, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [tenantId, id, status],
      );
      return rows.length > 0;
    },
    async removeCleanTask(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from clean_tasks where tenant_id = $1 and id = $2 returning id', [tenantId, id]);
      return rows.length > 0;
    },
    /** Enabled tasks not run since `before` (the daily sweep), oldest first. */
    async dueCleanTasks(before: Date, limit: number): Promise<CleanTaskRow[]> {
      const { rows } = await raw.query<CleanTaskRow>(
        `select ${CLEAN_COLS} from clean_tasks c left join things t on t.id = c.things_id
         where c.status = 1 and (c.last_run_at is null or c.last_run_at < $1) order by c.last_run_at nulls first limit $2`,
        [before, limit],
      );
      return rows;
    },
    async cleanTaskRan(id: string, r: { deleted: number | null; limited: boolean; error: string | null }): Promise<void> {
      await raw.query('update clean_tasks set last_run_at = now(), last_deleted = $2, last_limited = $3, last_error = $4 where id = $1', [
        id,
        r.deleted,
        r.limited,
        r.error,
      ]);
    },

    /**
     * The end (µs) below which a device's chunks whose last frame is older than `beforeUs` hold at
     * most `maxFrames` frames, oldest (by last frame) first: `beforeUs` when they all fit.
     */
    async framesBound(
      tenantId: string,
      thingsId: string,
      beforeUs: number,
      maxFrames: number,
    ): Promise<{ bound: number; limited: boolean }> {
      const { rows } = await raw.query<{ over: string | null }>(
        `select min(time_end)::text as over from (
           select time_end, sum(frame_count) over (order by time_end rows unbounded preceding) as run
           from frame_chunks where tenant_id = $1 and things_id = $2 and time_end < $3) c
         where run > $4`,
        [tenantId, thingsId, beforeUs, maxFrames],
      );
      return rows[0]?.over === null || rows[0]?.over === undefined
        ? { bound: beforeUs, limited: false }
        : { bound: Number(rows[0].over), limited: true };
    },
    /** GPS fixes of the device older than `beforeMs`, at most `max` of them, oldest first. */
    async deleteGpsBefore(tenantId: string, thingsId: string, beforeMs: number, max: number): Promise<{ n: number; limited: boolean }> {
      if (max <= 0) return { n: 0, limited: true };
      // The time of the first fix past the limit: those before it are at most `max`.
      const over = await raw.query<{ ts: string }>(
        'select ts::text as ts from gps_fixes where tenant_id = $1 and things_id = $2 and ts < $3 order by ts offset $4 limit 1',
        [tenantId, thingsId, beforeMs, max],
      );
      const bound = over.rows.length ? Number(over.rows[0].ts) : beforeMs;
      const { rows } = await raw.query<{ n: number }>(
        `with gone as (delete from gps_fixes where tenant_id = $1 and things_id = $2 and ts < $3 returning 1)
         select count(*)::int as n from gone`,
        [tenantId, thingsId, bound],
      );
      return { n: rows[0].n, limited: over.rows.length > 0 };
    },
    /** Digital-twin events of the device older than `beforeMs`, at most `max` of them, oldest first. */
    deleteModelEventsBefore: (tenantId: string, thingsId: string, beforeMs: number, max: number) =>
      deleteByTsBefore('thing_model_events', tenantId, thingsId, beforeMs, max),
    /** Reported values of the device's model properties older than `beforeMs`, at most `max`, oldest first. */
    deletePropertyValuesBefore: (tenantId: string, thingsId: string, beforeMs: number, max: number) =>
      deleteByTsBefore('thing_property_values', tenantId, thingsId, beforeMs, max),
  };
}
export type DataServiceRepository = ReturnType<typeof dataServiceRepository>;
