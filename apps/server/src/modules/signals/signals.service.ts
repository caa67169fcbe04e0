import {
  type Curve,
  type CurveQuery,
  MAX_PAGED_ENTRIES,
  SIGNAL_EXPORT_MAX_ROWS,
  type SignalDataQuery,
  type SignalPeriod,
  type SignalRow,
  type SignalSeries,
  STATS_MAX_ROWS,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';
import { badRequest } from '../../lib/errors.ts';
import { EXPERIENCE_EXPORT } from '../experience/limits.ts';
import { requireDevice } from '../things/things.access.ts';
import { Bucketer, chooseLevel, levelName } from './curve-buckets.ts';
import { Block, blockUs, CELLS, cellUs } from './rollup.ts';
import { decodeChunk, forEachSample, samplePages } from './sample-stream.ts';
import type { SeriesRow, SignalsRepository } from './signals.repository.ts';

const ms = (us: number | null) => (us === null ? null : us / 1000);

function toSeries(r: SeriesRow): SignalSeries {
  return {
    channel: r.channel,
    message: r.message,
    signal: r.signal,
    unit: r.unit,
    first_time: ms(r.first_ts),
    last_time: ms(r.last_ts),
    samples: r.samples,
    bytes: r.bytes,
  };
}

function range(q: { begin_time: number; end_time: number }): [number, number] {
  if (q.end_time <= q.begin_time) throw badRequest('data.bad-range', undefined, 'end_time');
  return [q.begin_time * 1000, q.end_time * 1000];
}

const splitRef = (ref: string) => {
  const dot = ref.indexOf('.');
  return { message: ref.slice(0, dot), signal: ref.slice(dot + 1) };
};

/** Reading decoded signals: curves, history table, CSV export, signal period. */
export function signalsQueryService(raw: RawSql, repo: SignalsRepository) {
  /** The stored series of `Message.Signal`; null when nothing was stored for it. */
  async function series(auth: Auth, thingsId: string, ref: string, channel?: number): Promise<SeriesRow | null> {
    const { message, signal } = splitRef(ref);
    const rows = await repo.findSeries(auth, thingsId, message, signal, channel);
    if (rows.length > 1) throw badRequest('http.400', `Several channels carry ${ref}: give the channel`, 'channel');
    return rows[0] ?? null;
  }

  async function seriesList(auth: Auth, thingsId: string, refs: string[], channel?: number): Promise<SeriesRow[]> {
    const out: SeriesRow[] = [];
    for (const ref of new Set(refs)) {
      const s = await series(auth, thingsId, ref, channel);
      if (s) out.push(s);
    }
    return out;
  }

  async function curve(auth: Auth, thingsId: string, q: CurveQuery): Promise<Curve> {
    const [from, to] = range(q);
    await requireDevice(raw, auth, thingsId, 'read');
    const s = await series(auth, thingsId, q.signal, q.channel);
    const { message, signal } = splitRef(q.signal);
    const head = {
      channel: s?.channel ?? q.channel ?? 0,
      message,
      signal,
      unit: s?.unit ?? '',
      begin_time: q.begin_time,
      end_time: q.end_time,
      width: q.width,
    };
    const empty = { t: [], min: [], max: [], avg: [], count: [] };
    if (!s) return { ...head, level: 'raw', bucket_ms: 0, ...empty };
    const bk = new Bucketer(from, to, q.width);
    const level = chooseLevel(to - from, q.width);
    if (level !== 'raw') {
      const cell = cellUs(level);
      for (const r of await repo.rollups(s.id, level, from, to, blockUs(level))) {
        const b = Block.decode(r.cells);
        for (let j = 0; j < CELLS; j++) bk.cell(r.t_start + j * cell, cell, b.mins[j], b.maxs[j], b.sums[j], b.counts[j]);
      }
      return { ...head, level: levelName(level), bucket_ms: bk.bucketUs / 1000, ...bk.result() };
    }
    // Raw: every sample when they fit in the width, else min/max per pixel.
    const chunks = (await repo.chunks([s.id], from, to)).map(decodeChunk);
    let n = 0;
    for (const c of chunks) for (let i = 0; i < c.ts.length; i++) if (c.ts[i] >= from && c.ts[i] < to) n++;
    if (n > q.width) {
      for (const c of chunks) for (let i = 0; i < c.ts.length; i++) bk.sample(c.ts[i], c.values[i]);
      return { ...head, level: 'raw', bucket_ms: bk.bucketUs / 1000, ...bk.result() };
    }
    const pts: [number, number][] = [];
    for (const c of chunks) for (let i = 0; i < c.ts.length; i++) if (c.ts[i] >= from && c.ts[i] < to) pts.push([c.ts[i], c.values[i]]);
    pts.sort((a, b) => a[0] - b[0]);
    const values = pts.map((p) => p[1]);
    return {
      ...head,
      level: 'raw',
      bucket_ms: 0,
      t: pts.map((p) => p[0] / 1000),
      min: values,
      max: values,
      avg: values,
      count: pts.map(() => 1),
    };
  }

  /** Exact sample count in range: whole chunks from their header, edge chunks decoded. */
  async function count(ids: number[], from: number, to: number): Promise<number> {
    let n = await repo.countInside(ids, from, to);
    for (const c of await repo.edgeChunks(ids, from, to)) {
      const d = decodeChunk(c);
      for (let i = 0; i < c.n; i++) if (d.ts[i] >= from && d.ts[i] < to) n++;
    }
    return n;
  }

  function rowOf(s: SeriesRow, t: number, v: number): SignalRow {
    return { time: t / 1000, channel: s.channel, message: s.message, signal: s.signal, value: v, unit: s.unit };
  }

  return {
    series,

    async list(auth: Auth, thingsId: string, channel?: number): Promise<SignalSeries[]> {
      await requireDevice(raw, auth, thingsId, 'read');
      return (await repo.listSeries(auth, thingsId, channel)).map(toSeries);
    },

    curve,

    /** The decoded history table: samples of the chosen signals in time order, paged (spec §9 10000 rule). */
    async data(auth: Auth, thingsId: string, q: SignalDataQuery) {
      if (q.current_page * q.page_size > MAX_PAGED_ENTRIES) throw badRequest('data.over-10000');
      const [from, to] = range(q);
      await requireDevice(raw, auth, thingsId, 'read');
      const list = await seriesList(auth, thingsId, q.signals, q.channel);
      const page = { current_page: q.current_page, page_size: q.page_size };
      if (!list.length) return { total: 0, ...page, list: [] };
      const ids = list.map((s) => s.id);
      const skip = (q.current_page - 1) * q.page_size;
      const rows: SignalRow[] = [];
      let seen = 0;
      await forEachSample(repo, ids, from, to, (si, t, v) => {
        if (seen++ >= skip) rows.push(rowOf(list[si], t, v));
        return rows.length < q.page_size;
      });
      return { total: await count(ids, from, to), ...page, list: rows };
    },

    /**
     * CSV of the chosen signals (long form: one row per sample). Access and the range are checked
     * before the first byte; the body then streams, at most SIGNAL_EXPORT_MAX_ROWS rows.
     */
    async exportCsv(auth: Auth, thingsId: string, q: Omit<SignalDataQuery, 'current_page' | 'page_size'>): Promise<AsyncIterable<string>> {
      const [from, to] = range(q);
      // A read-only session (the experience account) exports what its data exports may hold.
      const E = EXPERIENCE_EXPORT;
      if (auth.readOnly && q.end_time - q.begin_time > E.maxRangeMs)
        throw badRequest(
          'data.export-limit',
          'The experience account exports at most one hour at a time: choose a shorter range',
          'end_time',
        );
      const maxRows = auth.readOnly ? E.maxFrames : SIGNAL_EXPORT_MAX_ROWS;
      await requireDevice(raw, auth, thingsId, 'read');
      const list = await seriesList(auth, thingsId, q.signals, q.channel);
      const ids = list.map((s) => s.id);
      return (async function* () {
        yield `${CSV_BOM}time_ms,iso_time,channel,message,signal,value,unit\n`;
        if (!ids.length) return;
        let rows = 0;
        for await (const page of samplePages(repo, ids, from, to)) {
          const take = page.slice(0, maxRows - rows);
          rows += take.length;
          yield take
            .map(({ s: si, t, v }) => {
              const s = list[si];
              return csvLine([t / 1000, new Date(Math.floor(t / 1000)), s.channel, s.message, s.signal, v, s.unit], '\n');
            })
            .join('');
          if (rows >= maxRows) return;
        }
      })();
    },

    /** Spec §4 high-level function "signal period": intervals between samples, from at most 100000 samples. */
    async period(
      auth: Auth,
      thingsId: string,
      q: { signal: string; channel?: number; begin_time: number; end_time: number },
    ): Promise<SignalPeriod> {
      const [from, to] = range(q);
      await requireDevice(raw, auth, thingsId, 'read');
      const s = await series(auth, thingsId, q.signal, q.channel);
      const { message, signal } = splitRef(q.signal);
      const ts: number[] = [];
      let truncated = false;
      if (s)
        await forEachSample(repo, [s.id], from, to, (_si, t) => {
          if (ts.length >= STATS_MAX_ROWS) {
            truncated = true;
            return false;
          }
          ts.push(t);
          return true;
        });
      const st = intervalStats(ts);
      return { channel: s?.channel ?? q.channel ?? 0, message, signal, samples: ts.length, ...st, truncated };
    },
  };
}

/** Median, mean, standard deviation, min and max of the intervals between times (µs in, ms out). */
export function intervalStats(ts: ArrayLike<number>) {
  if (ts.length < 2) return { period_ms: null, mean_ms: null, jitter_ms: null, min_ms: null, max_ms: null };
  const d = new Float64Array(ts.length - 1);
  let sum = 0;
  for (let i = 1; i < ts.length; i++) {
    d[i - 1] = ts[i] - ts[i - 1];
    sum += d[i - 1];
  }
  const mean = sum / d.length;
  let sq = 0;
  for (const x of d) sq += (x - mean) ** 2;
  d.sort();
  const mid = d.length >> 1;
  const median = d.length % 2 ? d[mid] : (d[mid - 1] + d[mid]) / 2;
  return {
    period_ms: median / 1000,
    mean_ms: mean / 1000,
    jitter_ms: Math.sqrt(sq / d.length) / 1000,
    min_ms: d[0] / 1000,
    max_ms: d[d.length - 1] / 1000,
  };
}

export type SignalsQueryService = ReturnType<typeof signalsQueryService>;
