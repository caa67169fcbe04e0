import { fromB64, toB64 } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import { Block, coarsen, LEVELS, type Level, rollUp } from './rollup.ts';
import { encodeTimes, encodeValues } from './sample-codec.ts';

/** Samples of one series to store. `ts` in µs; only the first `n` entries count. */
export interface SeriesSamples {
  seriesId: number;
  ts: Float64Array;
  values: Float64Array;
  n: number;
  /** DBC scaling of the signal: lets the compact integer codec apply. */
  factor?: number;
  offset?: number;
}

/** A raw chunk never crosses this boundary (queries rely on it). */
export const CHUNK_WINDOW_US = 60_000_000;
/** Rows per INSERT statement (the protocol allows 65535 parameters). */
const ROWS_PER_INSERT = 1000;
/** Per-row overhead counted against capacity beside the payload bytes. */
export const ROW_OVERHEAD = 64;

function sortedCopy(s: SeriesSamples): SeriesSamples {
  let sorted = true;
  for (let i = 1; i < s.n; i++) {
    if (s.ts[i] < s.ts[i - 1]) {
      sorted = false;
      break;
    }
  }
  if (sorted) return s;
  const idx = Array.from({ length: s.n }, (_, i) => i).sort((a, b) => s.ts[a] - s.ts[b] || a - b);
  const ts = new Float64Array(s.n);
  const values = new Float64Array(s.n);
  idx.forEach((j, i) => {
    ts[i] = s.ts[j];
    values[i] = s.values[j];
  });
  return { ...s, ts, values };
}

interface ChunkRow {
  seriesId: number;
  tStart: number;
  tEnd: number;
  n: number;
  codec: number;
  factor: number;
  offset: number;
  min: number;
  max: number;
  ts: Uint8Array;
  vals: Uint8Array;
}

/** Cuts samples into per-minute chunks and encodes them. Pure: the bench and tests call it too. */
export function encodeChunks(s: SeriesSamples): ChunkRow[] {
  const rows: ChunkRow[] = [];
  let i = 0;
  while (i < s.n) {
    const window = Math.floor(s.ts[i] / CHUNK_WINDOW_US);
    let j = i + 1;
    while (j < s.n && Math.floor(s.ts[j] / CHUNK_WINDOW_US) === window) j++;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let k = i; k < j; k++) {
      const v = s.values[k];
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const vals = encodeValues(s.values, i, j, s.factor ?? 1, s.offset ?? 0);
    rows.push({
      seriesId: s.seriesId,
      tStart: s.ts[i],
      tEnd: s.ts[j - 1],
      n: j - i,
      codec: vals.codec,
      factor: vals.factor,
      offset: vals.offset,
      min,
      max,
      ts: encodeTimes(s.ts, i, j, s.ts[i]),
      vals: vals.bytes,
    });
    i = j;
  }
  return rows;
}

export interface WriteResult {
  /** Bytes added per series (chunks plus newly created roll-up blocks). */
  bytes: Map<number, number>;
  samples: number;
}

/**
 * Stores samples of several series in one transaction: raw chunks, then the 1 s and 1 min
 * roll-ups merged into their blocks under row locks (two server copies writing the same block
 * wait for each other instead of overwriting), then the series totals. Used by the ingest and,
 * unchanged, by the benchmark's generator.
 */
export async function writeSamples(raw: RawSql, batches: SeriesSamples[]): Promise<WriteResult> {
  const list = batches.filter((b) => b.n > 0).map(sortedCopy);
  const bytes = new Map<number, number>();
  const addBytes = (id: number, b: number) => bytes.set(id, (bytes.get(id) ?? 0) + b);
  const chunks: ChunkRow[] = [];
  const blocks = new Map<string, { seriesId: number; level: Level; tStart: number; block: Block }>();
  for (const s of list) {
    for (const c of encodeChunks(s)) {
      chunks.push(c);
      addBytes(s.seriesId, c.ts.byteLength + c.vals.byteLength + ROW_OVERHEAD);
    }
    // Samples are read once, into 1 s cells; each coarser level is built from the one below.
    let prev = rollUp(s.ts, s.values, 0, s.n, LEVELS[0]);
    for (let li = 0; li < LEVELS.length; li++) {
      const level = LEVELS[li];
      if (li > 0) prev = coarsen(prev, LEVELS[li - 1], level);
      for (const [tStart, block] of prev) blocks.set(`${s.seriesId}/${level}/${tStart}`, { seriesId: s.seriesId, level, tStart, block });
    }
  }
  if (!chunks.length) return { bytes, samples: 0 };
  // One lock order for every writer: no deadlock between copies.
  const keys = [...blocks.values()].sort((a, b) => a.seriesId - b.seriesId || a.level - b.level || a.tStart - b.tStart);
  const per = new Map<number, { n: number; first: number; last: number }>();
  for (const s of list) {
    const p = per.get(s.seriesId) ?? { n: 0, first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
    p.n += s.n;
    p.first = Math.min(p.first, s.ts[0]);
    p.last = Math.max(p.last, s.ts[s.n - 1]);
    per.set(s.seriesId, p);
  }
  const ids = [...per.keys()].sort((a, b) => a - b);

  await raw.transaction(async (tx) => {
    // The series rows first, in id order: two copies writing the same series wait here. Locked at
    // the end instead, each would hold the key-share locks its chunk and roll-up inserts take on
    // the series and wait for the other's (a deadlock, and one batch's samples lost).
    await tx.query('select id from signal_series where id = any($1::bigint[]) order by id for no key update', [ids]);
    for (let k = 0; k < chunks.length; k += ROWS_PER_INSERT) {
      const part = chunks.slice(k, k + ROWS_PER_INSERT);
      const params: unknown[] = [];
      const rows = part.map((c) => {
        const b = params.length;
        params.push(c.seriesId, c.tStart, c.tEnd, c.n, c.codec, c.factor, c.offset, c.min, c.max, toB64(c.ts), toB64(c.vals));
        return `(${Array.from({ length: 9 }, (_, i) => `$${b + i + 1}`).join(',')},decode($${b + 10},'base64'),decode($${b + 11},'base64'))`;
      });
      await tx.query(
        `insert into signal_chunks (series_id, t_start, t_end, n, codec, v_factor, v_offset, v_min, v_max, ts, vals) values ${rows.join(',')}`,
        params,
      );
    }
    for (let k = 0; k < keys.length; k += ROWS_PER_INSERT) {
      const part = keys.slice(k, k + ROWS_PER_INSERT).map((p) => ({ ...p, cells: p.block.encode() }));
      // Blocks nobody wrote yet are created with this batch's cells; the others are merged below.
      const params: unknown[] = [];
      const values = part.map((p) => {
        const b = params.length;
        params.push(p.seriesId, p.level, p.tStart, toB64(p.cells));
        return `($${b + 1}::bigint,$${b + 2}::smallint,$${b + 3}::bigint,decode($${b + 4},'base64'))`;
      });
      const created = await tx.query<{ series_id: number; level: number; t_start: number }>(
        `insert into signal_rollups (series_id, level, t_start, cells) values ${values.join(',')}
         on conflict do nothing returning series_id, level, t_start`,
        params,
      );
      const fresh = new Set(created.rows.map((r) => `${Number(r.series_id)}/${r.level}/${Number(r.t_start)}`));
      const rest = part.filter((p) => {
        if (!fresh.has(`${p.seriesId}/${p.level}/${p.tStart}`)) return true;
        addBytes(p.seriesId, p.cells.byteLength + ROW_OVERHEAD);
        return false;
      });
      if (!rest.length) continue;
      const { rows } = await tx.query<{ series_id: number; level: number; t_start: number; cells: string }>(
        `select r.series_id, r.level, r.t_start, encode(r.cells, 'base64') as cells from signal_rollups r
           join unnest($1::bigint[], $2::smallint[], $3::bigint[]) as k(s, l, t) on r.series_id = k.s and r.level = k.l and r.t_start = k.t
          order by r.series_id, r.level, r.t_start
          for update of r`,
        [rest.map((p) => p.seriesId), rest.map((p) => p.level), rest.map((p) => p.tStart)],
      );
      const up: unknown[] = [];
      const upRows = rows.map((r) => {
        const merged = Block.decode(fromB64(r.cells));
        const mine = blocks.get(`${Number(r.series_id)}/${r.level}/${Number(r.t_start)}`);
        if (mine) merged.merge(mine.block);
        const b = up.length;
        up.push(Number(r.series_id), r.level, Number(r.t_start), toB64(merged.encode()));
        return `($${b + 1}::bigint,$${b + 2}::smallint,$${b + 3}::bigint,decode($${b + 4},'base64'))`;
      });
      await tx.query(
        `update signal_rollups r set cells = k.c from (values ${upRows.join(',')}) as k(s, l, t, c)
          where r.series_id = k.s and r.level = k.l and r.t_start = k.t`,
        up,
      );
    }
    // Series totals.
    await tx.query(
      `update signal_series s set samples = s.samples + k.n, bytes = s.bytes + k.b,
              first_ts = least(coalesce(s.first_ts, k.f), k.f), last_ts = greatest(coalesce(s.last_ts, k.l), k.l)
         from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[]) as k(id, n, b, f, l)
        where s.id = k.id`,
      [
        ids,
        ids.map((i) => per.get(i)?.n),
        ids.map((i) => bytes.get(i) ?? 0),
        ids.map((i) => per.get(i)?.first),
        ids.map((i) => per.get(i)?.last),
      ],
    );
  });
  return { bytes, samples: list.reduce((a, s) => a + s.n, 0) };
}
