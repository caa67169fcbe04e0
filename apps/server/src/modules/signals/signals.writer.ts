import { fromB64 } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import { Block, coarsen, LEVELS, type Level, rollUp } from './rollup.ts';
import { encodeTimes, encodeValues } from './sample-codec.ts';
import { type ChunkRow, samplesRepository as repo } from './samples.repository.ts';

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
    await repo.lockSeries(tx, ids);
    for (let k = 0; k < chunks.length; k += ROWS_PER_INSERT) await repo.insertChunks(tx, chunks.slice(k, k + ROWS_PER_INSERT));
    for (let k = 0; k < keys.length; k += ROWS_PER_INSERT) {
      const part = keys.slice(k, k + ROWS_PER_INSERT).map((p) => ({ ...p, cells: p.block.encode() }));
      // Blocks nobody wrote yet are created with this batch's cells; the others are merged below.
      const created = await repo.createRollups(tx, part);
      const fresh = new Set(created.map((r) => `${Number(r.series_id)}/${r.level}/${Number(r.t_start)}`));
      const rest = part.filter((p) => {
        if (!fresh.has(`${p.seriesId}/${p.level}/${p.tStart}`)) return true;
        addBytes(p.seriesId, p.cells.byteLength + ROW_OVERHEAD);
        return false;
      });
      if (!rest.length) continue;
      const rows = await repo.lockRollups(tx, rest);
      const merged = rows.map((r) => {
        const block = Block.decode(fromB64(r.cells));
        const mine = blocks.get(`${Number(r.series_id)}/${r.level}/${Number(r.t_start)}`);
        if (mine) block.merge(mine.block);
        return { seriesId: Number(r.series_id), level: r.level, tStart: Number(r.t_start), cells: block.encode() };
      });
      await repo.updateRollups(tx, merged);
    }
    // Series totals.
    await repo.addTotals(
      tx,
      ids,
      ids.map((i) => per.get(i)?.n),
      ids.map((i) => bytes.get(i) ?? 0),
      ids.map((i) => per.get(i)?.first),
      ids.map((i) => per.get(i)?.last),
    );
  });
  return { bytes, samples: list.reduce((a, s) => a + s.n, 0) };
}
