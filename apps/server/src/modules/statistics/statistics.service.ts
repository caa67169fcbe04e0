import {
  GPS_SIGNAL,
  STATISTICS_METHOD_INFO,
  STATISTICS_METHODS,
  type StatisticsMethod,
  type StatisticsParams,
  type StatisticsResult,
  type StatisticsTask,
  type StatisticsTaskInput,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { csvLine } from '../../lib/csv.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { forEachSample } from '../signals/sample-stream.ts';
import { signalsRepository } from '../signals/signals.repository.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import { accumulator, Distance, periodMs, windowStart } from './statistics.methods.ts';
import {
  type StatisticsRepository,
  type StatisticsResultRow,
  type StatisticsTaskRow,
  statisticsRepository,
} from './statistics.repository.ts';

/** The sweep that computes the windows due; late data gets this long before a window is computed. */
export const SWEEP = 'statistics-sweep';
export const GRACE_MS = 5 * 60_000;
/** Windows one run computes at most (a scheduled run catches up in several). */
export const MAX_WINDOWS = 400;
const CATCH_UP = 48;
const MAX_CSV_ROWS = 100_000;

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const signalKey = (s: { message: string; signal: string }) => `${s.message}.${s.signal}`;

function toTask(r: StatisticsTaskRow): StatisticsTask {
  return {
    id: r.id,
    name: r.name,
    method: r.method as StatisticsMethod,
    params: r.params as StatisticsParams,
    things_ids: r.things_ids,
    signals: r.signals,
    period: r.period,
    utc_offset: r.utc_offset,
    status: r.status as 0 | 1,
    computed_until: Number(r.computed_until),
    last_run_at: ms(r.last_run_at),
    last_error: r.last_error,
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

function toResult(r: StatisticsResultRow): StatisticsResult {
  return {
    task_id: r.task_id,
    things_id: r.things_id,
    signal: r.signal,
    window_start: Number(r.window_start),
    window_end: Number(r.window_end),
    value: r.value === null ? null : Number(r.value),
    samples: Number(r.samples),
    unit: r.unit,
    computed_at: ms(r.computed_at) ?? 0,
  };
}

/**
 * Statistics tasks (spec §7 /data-mgmt): a method over devices × signals × hourly or daily windows.
 * A sweep on the scheduler computes each enabled task's whole windows once they have ended (and
 * `GRACE_MS` has passed for late data); a run asked for computes a range again. Results are keyed
 * by task, device, signal and window, so computing a window again replaces its value.
 */
export function statisticsService(deps: { raw: RawSql; now?: () => number }) {
  const repo: StatisticsRepository = statisticsRepository(deps.raw);
  const signals = signalsRepository(deps.raw);
  const now = deps.now ?? Date.now;

  async function validate(auth: Auth, t: StatisticsTaskInput): Promise<StatisticsTaskInput> {
    const info = STATISTICS_METHOD_INFO[t.method];
    if (info.source === 'signal' && !t.signals.length) throw badRequest('statistics.no-signal', undefined, 'signals');
    if (t.method === 'percentile' && t.params.percentile === undefined) throw badRequest('statistics.bad-param', undefined, 'params');
    // Only the parameters the method reads are kept.
    const params = Object.fromEntries(Object.entries(t.params).filter(([k]) => (info.params as string[]).includes(k)));
    const ids = [...new Set(t.things_ids)];
    for (const id of ids) await requireDevice(deps.raw, auth, id, 'read');
    return { ...t, params, things_ids: ids, signals: info.source === 'gps' ? [] : t.signals };
  }

  async function found(auth: Auth, id: string): Promise<StatisticsTaskRow> {
    const r = await repo.get(auth.tenantId, id);
    if (!r) throw ApiError.of('statistics.not-found');
    return r;
  }

  /** Computes the windows starting in [from, to) (window-aligned) of a task and stores them; returns the results stored. */
  async function compute(task: StatisticsTaskRow, from: number, to: number): Promise<number> {
    const len = periodMs(task.period);
    const windows = Math.round((to - from) / len);
    if (windows <= 0) return 0;
    const method = task.method as StatisticsMethod;
    const info = STATISTICS_METHOD_INFO[method];
    const params = task.params as StatisticsParams;
    const rows: Omit<StatisticsResultRow, 'task_id' | 'computed_at'>[] = [];
    const emit = (thingsId: string, signal: string, unit: string, i: number, value: number | null, samples: number) =>
      rows.push({ things_id: thingsId, signal, window_start: from + i * len, window_end: from + (i + 1) * len, value, samples, unit });

    for (const thingsId of task.things_ids) {
      if (info.source === 'gps') {
        const accs = Array.from({ length: windows }, () => new Distance());
        for (const f of await repo.fixes(task.tenant_id, thingsId, from, to)) {
          accs[Math.min(windows - 1, Math.floor((Number(f.ts) - from) / len))].add(f.lat, f.lon);
        }
        for (let w = 0; w < windows; w++) emit(thingsId, GPS_SIGNAL, 'km', w, accs[w].result(), accs[w].samples);
        continue;
      }
      for (const s of task.signals) {
        const series = await repo.series(task.tenant_id, thingsId, s.message, s.signal, s.channel);
        const accs = Array.from({ length: windows }, () => accumulator(method as Exclude<StatisticsMethod, 'distance'>, params));
        if (series.length) {
          await forEachSample(
            signals,
            series.map((x) => Number(x.id)),
            from * 1000,
            to * 1000,
            (_s, t, v) => {
              const tMs = t / 1000;
              accs[Math.min(windows - 1, Math.floor((tMs - from) / len))].add(tMs, v);
              return true;
            },
          );
        }
        const unit = info.unit === 'signal' ? (series[0]?.unit ?? '') : info.unit === 'count' ? '' : info.unit;
        for (let w = 0; w < windows; w++) emit(thingsId, signalKey(s), unit, w, accs[w].result(from + (w + 1) * len), accs[w].samples);
      }
    }
    await repo.upsertResults(task.tenant_id, task.id, rows);
    return rows.length;
  }

  /** One logged run: computes, notes the outcome on the task and in the history. */
  async function run(task: StatisticsTaskRow, trigger: 'schedule' | 'manual', from: number, to: number) {
    const runId = await repo.startRun(task.tenant_id, task.id, trigger, from, to);
    const windows = Math.round((to - from) / periodMs(task.period));
    try {
      const results = await compute(task, from, to);
      await repo.endRun(runId, windows, results, null);
      await repo.noteRun(task.id, null);
      return { windows, results };
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      await repo.endRun(runId, windows, 0, message);
      await repo.noteRun(task.id, message);
      throw e;
    }
  }

  const svc = {
    methods: () =>
      STATISTICS_METHODS.map((id) => ({
        id,
        unit: STATISTICS_METHOD_INFO[id].unit,
        source: STATISTICS_METHOD_INFO[id].source,
        params: [...STATISTICS_METHOD_INFO[id].params],
      })),

    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      const { total, rows } = await repo.list(auth.tenantId, {
        keyword: q.keyword,
        limit: q.page_size,
        offset: (q.current_page - 1) * q.page_size,
      });
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toTask) };
    },

    async get(auth: Auth, id: string) {
      return toTask(await found(auth, id));
    },

    async create(auth: Auth, body: StatisticsTaskInput) {
      const t = await validate(auth, body);
      try {
        const id = await repo.insert(auth.tenantId, auth.userId, t, windowStart(now(), t.period, t.utc_offset));
        return toTask((await repo.get(auth.tenantId, id)) as StatisticsTaskRow);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('statistics.duplicate', undefined, 'name');
        throw e;
      }
    },

    async update(auth: Auth, id: string, body: StatisticsTaskInput) {
      const old = await found(auth, id);
      const t = await validate(auth, body);
      // A new window grid starts its schedule afresh; results of the old grid stay until computed again.
      const regrid = old.period !== t.period || old.utc_offset !== t.utc_offset;
      try {
        await repo.update(auth.tenantId, id, t, regrid ? windowStart(now(), t.period, t.utc_offset) : null);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('statistics.duplicate', undefined, 'name');
        throw e;
      }
      return toTask(await found(auth, id));
    },

    async setStatus(auth: Auth, id: string, status: number) {
      if (!(await repo.setStatus(auth.tenantId, id, status))) throw ApiError.of('statistics.not-found');
      return toTask(await found(auth, id));
    },

    async remove(auth: Auth, id: string) {
      if (!(await repo.remove(auth.tenantId, id))) throw ApiError.of('statistics.not-found');
      return { ok: true as const };
    },

    /** Computes the windows starting in [begin, end) now. */
    async runRange(auth: Auth, id: string, body: { begin_time: number; end_time: number }) {
      const task = await found(auth, id);
      if (body.end_time <= body.begin_time) throw badRequest('data.bad-range', undefined, 'end_time');
      const len = periodMs(task.period);
      let from = windowStart(body.begin_time, task.period, task.utc_offset);
      if (from < body.begin_time) from += len;
      const to = windowStart(body.end_time - 1, task.period, task.utc_offset) + len;
      if (to <= from) return { windows: 0, results: 0 };
      if ((to - from) / len > MAX_WINDOWS) throw badRequest('statistics.range-too-long', undefined, 'end_time');
      return run(task, 'manual', from, to);
    },

    async results(
      auth: Auth,
      q: {
        task_id: string;
        things_id?: string;
        signal?: string;
        begin_time?: number;
        end_time?: number;
        current_page: number;
        page_size: number;
      },
    ) {
      await found(auth, q.task_id);
      const { total, rows } = await repo.results(
        auth.tenantId,
        { taskId: q.task_id, thingsId: q.things_id, signal: q.signal, from: q.begin_time, to: q.end_time, user: restrictedUser(auth) },
        q.page_size,
        (q.current_page - 1) * q.page_size,
      );
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toResult) };
    },

    /** The results as CSV: one line per device, signal and window. */
    async csv(auth: Auth, q: { task_id: string; things_id?: string; signal?: string; begin_time?: number; end_time?: number }) {
      const task = await found(auth, q.task_id);
      const { rows } = await repo.results(
        auth.tenantId,
        { taskId: q.task_id, thingsId: q.things_id, signal: q.signal, from: q.begin_time, to: q.end_time, user: restrictedUser(auth) },
        MAX_CSV_ROWS,
        0,
      );
      let csv = 'task,method,things_id,signal,window_start,window_end,value,unit,samples\n';
      for (const r of rows.map(toResult)) {
        csv += csvLine(
          [task.name, task.method, r.things_id, r.signal, new Date(r.window_start), new Date(r.window_end), r.value, r.unit, r.samples],
          '\n',
        );
      }
      return { name: task.name, csv };
    },

    async history(auth: Auth, q: { current_page: number; page_size: number; task_id?: string }) {
      const { total, rows } = await repo.runs(auth.tenantId, {
        taskId: q.task_id,
        limit: q.page_size,
        offset: (q.current_page - 1) * q.page_size,
      });
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((r) => ({
          id: r.id,
          task_id: r.task_id,
          task_name: r.task_name,
          trigger: r.trigger,
          range_start: Number(r.range_start),
          range_end: Number(r.range_end),
          windows: r.windows,
          results: r.results,
          error: r.error,
          started_at: ms(r.started_at) ?? 0,
          finished_at: ms(r.finished_at),
        })),
      };
    },

    /**
     * The scheduled sweep: every enabled task computes its whole windows that ended at least
     * `GRACE_MS` ago and were not computed yet (up to `CATCH_UP` per sweep). A failing task is
     * noted and tried again at the next sweep.
     */
    async sweep(at = now()): Promise<number> {
      let done = 0;
      for (const task of await repo.due(at - GRACE_MS)) {
        const len = periodMs(task.period);
        const from = Number(task.computed_until);
        const end = Math.min(windowStart(at - GRACE_MS, task.period, task.utc_offset), from + CATCH_UP * len);
        if (end <= from) continue;
        try {
          await run(task, 'schedule', from, end);
          if (await repo.advance(task.id, from, end)) done++;
        } catch {
          // noted on the task and in its history by `run`
        }
      }
      return done;
    },
  };
  return svc;
}

export type StatisticsService = ReturnType<typeof statisticsService>;
