import type { RawSql } from '../../db/client.ts';

export interface StatisticsTaskRow {
  id: string;
  tenant_id: string;
  name: string;
  method: string;
  params: Record<string, unknown>;
  things_ids: string[];
  signals: { message: string; signal: string; channel?: number }[];
  period: 'hour' | 'day';
  utc_offset: number;
  status: number;
  computed_until: number;
  last_run_at: Date | null;
  last_error: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface StatisticsResultRow {
  task_id: string;
  things_id: string;
  signal: string;
  window_start: number;
  window_end: number;
  value: number | null;
  samples: number;
  unit: string;
  computed_at: Date;
}

export interface StatisticsRunRow {
  id: string;
  task_id: string;
  task_name: string;
  trigger: 'schedule' | 'manual';
  range_start: number;
  range_end: number;
  windows: number;
  results: number;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export interface TaskWrite {
  name: string;
  method: string;
  params: object;
  things_ids: string[];
  signals: object[];
  period: string;
  utc_offset: number;
  status: number;
}

export interface ResultFilter {
  taskId: string;
  thingsId?: string;
  signal?: string;
  from?: number;
  to?: number;
  /** A sub-user: only the devices granted to them. */
  user?: string | null;
}

const COLS = `id, tenant_id, name, method, params, things_ids, signals, period, utc_offset, status, computed_until::float8 as computed_until,
  last_run_at, last_error, created_by, created_at, updated_at`;
const RESULT_COLS = `task_id, things_id, signal, window_start::float8 as window_start, window_end::float8 as window_end, value,
  samples::float8 as samples, unit, computed_at`;

function resultWhere(tenantId: string, f: ResultFilter) {
  const params: unknown[] = [tenantId, f.taskId];
  const parts = ['tenant_id = $1', 'task_id = $2'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    parts.push(sql.replace('?', `$${params.length}`));
  };
  if (f.thingsId) add('things_id = ?', f.thingsId);
  if (f.signal) add('signal = ?', f.signal);
  if (f.from !== undefined) add('window_start >= ?', f.from);
  if (f.to !== undefined) add('window_start < ?', f.to);
  if (f.user) add('exists (select 1 from user_device_access a where a.user_id = ? and a.things_id = statistics_results.things_id)', f.user);
  return { where: parts.join(' and '), params };
}

/** SQL of statistics tasks, results and runs; every tenant query scoped by its tenant. */
export function statisticsRepository(raw: RawSql) {
  return {
    async list(tenantId: string, q: { keyword?: string; limit: number; offset: number }) {
      const kw = q.keyword ? `%${q.keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
      const total = await raw.query<{ n: number }>(
        `select count(*)::int as n from statistics_tasks where tenant_id = $1 and ($2::text is null or name ilike $2)`,
        [tenantId, kw],
      );
      const { rows } = await raw.query<StatisticsTaskRow>(
        `select ${COLS} from statistics_tasks where tenant_id = $1 and ($2::text is null or name ilike $2)
          order by created_at desc, id limit $3 offset $4`,
        [tenantId, kw, q.limit, q.offset],
      );
      return { total: total.rows[0].n, rows };
    },

    async get(tenantId: string, id: string): Promise<StatisticsTaskRow | null> {
      const { rows } = await raw.query<StatisticsTaskRow>(`select ${COLS} from statistics_tasks where tenant_id = $1 and id = $2`, [
        tenantId,
        id,
      ]);
      return rows[0] ?? null;
    },

    async insert(tenantId: string, userId: string, t: TaskWrite, computedUntil: number): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into statistics_tasks (tenant_id, name, method, params, things_ids, signals, period, utc_offset, status, computed_until, created_by)
         values ($1, $2, $3, $4::jsonb, $5::uuid[], $6::jsonb, $7, $8, $9, $10, $11) returning id`,
        [
          tenantId,
          t.name,
          t.method,
          JSON.stringify(t.params),
          t.things_ids,
          JSON.stringify(t.signals),
          t.period,
          t.utc_offset,
          t.status,
          computedUntil,
          userId,
        ],
      );
      return rows[0].id;
    },

    /** Replaces a task's definition; a changed window grid (period, offset) restarts the schedule at `computedUntil`. */
    async update(tenantId: string, id: string, t: TaskWrite, computedUntil: number | null): Promise<boolean> {
      const { rows } = await raw.query(
        `update statistics_tasks set name = $3, method = $4, params = $5::jsonb, things_ids = $6::uuid[], signals = $7::jsonb,
                period = $8, utc_offset = $9, status = $10, computed_until = coalesce($11, computed_until), updated_at = now()
          where tenant_id = $1 and id = $2 returning id`,
        [
          tenantId,
          id,
          t.name,
          t.method,
          JSON.stringify(t.params),
          t.things_ids,
          JSON.stringify(t.signals),
          t.period,
          t.utc_offset,
          t.status,
          computedUntil,
        ],
      );
      return rows.length > 0;
    },

    async setStatus(tenantId: string, id: string, status: number): Promise<boolean> {
      const { rows } = await raw.query(
        'update statistics_tasks set status = $3, updated_at = now() where tenant_id = $1 and id = $2 returning id',
        [tenantId, id, status],
      );
      return rows.length > 0;
    },

    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from statistics_tasks where tenant_id = $1 and id = $2 returning id', [tenantId, id]);
      return rows.length > 0;
    },

    /** Enabled tasks of active tenants with a whole window ended before `before` (ms) not yet computed. */
    async due(before: number): Promise<StatisticsTaskRow[]> {
      const { rows } = await raw.query<StatisticsTaskRow>(
        `select ${COLS} from statistics_tasks s
          where status = 1
            and computed_until + case when period = 'hour' then 3600000 else 86400000 end <= $1
            and exists (select 1 from tenants t where t.id = s.tenant_id and t.status = 1)
          order by computed_until`,
        [before],
      );
      return rows;
    },

    /** Moves the schedule on from `from` to `to`: false when another server copy did it first. */
    async advance(id: string, from: number, to: number): Promise<boolean> {
      const { rows } = await raw.query(
        'update statistics_tasks set computed_until = $3 where id = $1 and computed_until = $2 returning id',
        [id, from, to],
      );
      return rows.length > 0;
    },

    async noteRun(id: string, error: string | null): Promise<void> {
      await raw.query('update statistics_tasks set last_run_at = now(), last_error = $2 where id = $1', [id, error]);
    },

    /** The decoded-signal series of a device that carry a signal (on one channel, or on any). */
    async series(tenantId: string, thingsId: string, message: string, signal: string, channel?: number) {
      const { rows } = await raw.query<{ id: number; unit: string }>(
        `select id::float8 as id, unit from signal_series
          where tenant_id = $1 and things_id = $2 and message = $3 and signal = $4 and ($5::int is null or channel = $5)
          order by channel`,
        [tenantId, thingsId, message, signal, channel ?? null],
      );
      return rows;
    },

    /** A device's GPS fixes within [from, to) (ms), in time order. */
    async fixes(tenantId: string, thingsId: string, from: number, to: number) {
      const { rows } = await raw.query<{ ts: number; lat: number; lon: number }>(
        'select ts::float8 as ts, lat, lon from gps_fixes where tenant_id = $1 and things_id = $2 and ts >= $3 and ts < $4 order by ts',
        [tenantId, thingsId, from, to],
      );
      return rows;
    },

    /** Stores results, replacing those of the same task, device, signal and window. */
    async upsertResults(tenantId: string, taskId: string, rows: Omit<StatisticsResultRow, 'task_id' | 'computed_at'>[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) {
        const part = rows.slice(i, i + 500);
        await raw.query(
          `insert into statistics_results (tenant_id, task_id, things_id, signal, window_start, window_end, value, samples, unit)
           select $1, $2, x.things_id, x.signal, x.ws, x.we, x.value, x.samples, x.unit
             from unnest($3::uuid[], $4::text[], $5::bigint[], $6::bigint[], $7::float8[], $8::bigint[], $9::text[])
               as x(things_id, signal, ws, we, value, samples, unit)
           on conflict (task_id, things_id, signal, window_start)
           do update set window_end = excluded.window_end, value = excluded.value, samples = excluded.samples,
                         unit = excluded.unit, computed_at = now()`,
          [
            tenantId,
            taskId,
            part.map((r) => r.things_id),
            part.map((r) => r.signal),
            part.map((r) => r.window_start),
            part.map((r) => r.window_end),
            part.map((r) => r.value),
            part.map((r) => r.samples),
            part.map((r) => r.unit),
          ],
        );
      }
    },

    async results(tenantId: string, f: ResultFilter, limit: number, offset: number) {
      const { where, params } = resultWhere(tenantId, f);
      const total = await raw.query<{ n: number }>(`select count(*)::int as n from statistics_results where ${where}`, params);
      const { rows } = await raw.query<StatisticsResultRow>(
        `select ${RESULT_COLS} from statistics_results where ${where}
          order by window_start, things_id, signal limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      );
      return { total: total.rows[0].n, rows };
    },

    async startRun(tenantId: string, taskId: string, trigger: string, from: number, to: number): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into statistics_runs (tenant_id, task_id, trigger, range_start, range_end) values ($1, $2, $3, $4, $5) returning id`,
        [tenantId, taskId, trigger, from, to],
      );
      return rows[0].id;
    },

    async endRun(id: string, windows: number, results: number, error: string | null): Promise<void> {
      await raw.query('update statistics_runs set windows = $2, results = $3, error = $4, finished_at = now() where id = $1', [
        id,
        windows,
        results,
        error,
      ]);
    },

    async runs(tenantId: string, q: { taskId?: string; limit: number; offset: number }) {
      const total = await raw.query<{ n: number }>(
        'select count(*)::int as n from statistics_runs where tenant_id = $1 and ($2::uuid is null or task_id = $2)',
        [tenantId, q.taskId ?? null],
      );
      const { rows } = await raw.query<StatisticsRunRow>(
        `select r.id, r.task_id, t.name as task_name, r.trigger, r.range_start::float8 as range_start, r.range_end::float8 as range_end,
                r.windows, r.results, r.error, r.started_at, r.finished_at
           from statistics_runs r join statistics_tasks t on t.id = r.task_id
          where r.tenant_id = $1 and ($2::uuid is null or r.task_id = $2)
          order by r.started_at desc, r.id limit $3 offset $4`,
        [tenantId, q.taskId ?? null, q.limit, q.offset],
      );
      return { total: total.rows[0].n, rows };
    },
  };
}

export type StatisticsRepository = ReturnType<typeof statisticsRepository>;
