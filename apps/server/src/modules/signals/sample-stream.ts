import { decodeTimes, decodeValues } from './sample-codec.ts';
import type { ChunkData, SignalsRepository } from './signals.repository.ts';

export interface DecodedChunk {
  ts: Float64Array;
  values: Float64Array;
}

export function decodeChunk(c: ChunkData): DecodedChunk {
  const ts = new Float64Array(c.n);
  const values = new Float64Array(c.n);
  decodeTimes(c.ts, c.n, c.t_start, ts);
  decodeValues(c.vals, c.n, c.codec, c.v_factor, c.v_offset, values);
  return { ts, values };
}

/** Chunks fetched per round trip while streaming. */
const PAGE = 200;

export interface Sample {
  /** Index into the series ids given. */
  s: number;
  t: number;
  v: number;
}

/**
 * The samples of several series within [fromUs, toUs) in time order (ties by series order), a
 * page at a time. Chunks come in start-time order; a sample is released once no unread chunk can
 * start before it, which keeps memory to about one page of chunks even when late data made
 * chunks overlap.
 */
export async function* samplePages(repo: SignalsRepository, seriesIds: number[], fromUs: number, toUs: number): AsyncGenerator<Sample[]> {
  const indexOf = new Map(seriesIds.map((id, i) => [id, i]));
  let pending: Sample[] = [];
  let after: { t: number; id: number } | undefined;
  for (;;) {
    const rows = await repo.chunks(seriesIds, fromUs, toUs, { after, limit: PAGE });
    for (const c of rows) {
      const d = decodeChunk(c);
      const s = indexOf.get(c.series_id) ?? 0;
      for (let i = 0; i < c.n; i++) {
        const t = d.ts[i];
        if (t >= fromUs && t < toUs) pending.push({ t, s, v: d.values[i] });
      }
    }
    const done = rows.length < PAGE;
    const bound = done ? Number.POSITIVE_INFINITY : rows[rows.length - 1].t_start;
    if (!done) after = { t: rows[rows.length - 1].t_start, id: rows[rows.length - 1].id };
    pending.sort((a, b) => a.t - b.t || a.s - b.s);
    let k = 0;
    while (k < pending.length && pending[k].t < bound) k++;
    if (k) yield pending.slice(0, k);
    pending = pending.slice(k);
    if (done) return;
  }
}

/** Visits samples in time order (see `samplePages`) until `visit` returns false. */
export async function forEachSample(
  repo: SignalsRepository,
  seriesIds: number[],
  fromUs: number,
  toUs: number,
  visit: (seriesIndex: number, t: number, v: number) => boolean | undefined,
): Promise<boolean> {
  for await (const page of samplePages(repo, seriesIds, fromUs, toUs)) {
    for (const p of page) if (visit(p.s, p.t, p.v) === false) return false;
  }
  return true;
}
