/**
 * Min/max/sum/count roll-ups of one signal (pure, no I/O). Levels are cell sizes in seconds, each at
 * most ten times the one below, so a curve reads fewer than ten cells per pixel at any range. A block
 * holds 60 cells (level 1: a minute of one-second cells; level 600: ten hours of ten-minute cells).
 * Blocks from different writers merge cell by cell, so late or re-ordered data only ever adds to a block.
 */

export const CELLS = 60;
export const LEVELS = [1, 10, 60, 600] as const;
export type Level = (typeof LEVELS)[number];
/** Bytes of an encoded block: 60 float64 minima, maxima, sums, then 60 uint32 counts. */
export const BLOCK_BYTES = CELLS * (8 * 3 + 4);

export const cellUs = (level: Level) => level * 1_000_000;
export const blockUs = (level: Level) => level * 1_000_000 * CELLS;
export const blockStart = (ts: number, level: Level) => Math.floor(ts / blockUs(level)) * blockUs(level);

export class Block {
  readonly mins = new Float64Array(CELLS).fill(Number.POSITIVE_INFINITY);
  readonly maxs = new Float64Array(CELLS).fill(Number.NEGATIVE_INFINITY);
  readonly sums = new Float64Array(CELLS);
  readonly counts = new Uint32Array(CELLS);

  add(cell: number, v: number) {
    if (v < this.mins[cell]) this.mins[cell] = v;
    if (v > this.maxs[cell]) this.maxs[cell] = v;
    this.sums[cell] += v;
    this.counts[cell]++;
  }

  merge(o: Block) {
    for (let i = 0; i < CELLS; i++) {
      if (o.counts[i] === 0) continue;
      if (o.mins[i] < this.mins[i]) this.mins[i] = o.mins[i];
      if (o.maxs[i] > this.maxs[i]) this.maxs[i] = o.maxs[i];
      this.sums[i] += o.sums[i];
      this.counts[i] += o.counts[i];
    }
  }

  encode(): Uint8Array {
    const out = new Uint8Array(BLOCK_BYTES);
    const dv = new DataView(out.buffer);
    for (let i = 0; i < CELLS; i++) {
      dv.setFloat64(i * 8, this.mins[i], true);
      dv.setFloat64(CELLS * 8 + i * 8, this.maxs[i], true);
      dv.setFloat64(CELLS * 16 + i * 8, this.sums[i], true);
      dv.setUint32(CELLS * 24 + i * 4, this.counts[i], true);
    }
    return out;
  }

  static decode(bytes: Uint8Array): Block {
    if (bytes.byteLength !== BLOCK_BYTES) throw new Error(`roll-up block of ${bytes.byteLength} bytes`);
    const b = new Block();
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < CELLS; i++) {
      b.mins[i] = dv.getFloat64(i * 8, true);
      b.maxs[i] = dv.getFloat64(CELLS * 8 + i * 8, true);
      b.sums[i] = dv.getFloat64(CELLS * 16 + i * 8, true);
      b.counts[i] = dv.getUint32(CELLS * 24 + i * 4, true);
    }
    return b;
  }
}

/** Roll-up blocks of samples [from, to) at one level, keyed by block start (µs). */
export function rollUp(
  ts: ArrayLike<number>,
  values: ArrayLike<number>,
  from: number,
  to: number,
  level: Level,
  into = new Map<number, Block>(),
) {
  const cell = cellUs(level);
  const span = blockUs(level);
  let curStart = Number.NaN;
  let cur: Block | undefined;
  for (let i = from; i < to; i++) {
    const t = ts[i];
    const start = Math.floor(t / span) * span;
    if (start !== curStart) {
      curStart = start;
      cur = into.get(start);
      if (!cur) {
        cur = new Block();
        into.set(start, cur);
      }
    }
    (cur as Block).add(Math.floor((t - start) / cell), values[i]);
  }
  return into;
}

/** Blocks of a coarser level from the blocks of a finer one: cells combine exactly, no sample is read again. */
export function coarsen(fine: Map<number, Block>, fineLevel: Level, level: Level): Map<number, Block> {
  const into = new Map<number, Block>();
  const fineCell = cellUs(fineLevel);
  const cell = cellUs(level);
  const span = blockUs(level);
  for (const [start, b] of fine) {
    for (let j = 0; j < CELLS; j++) {
      const c = b.counts[j];
      if (c === 0) continue;
      const t = start + j * fineCell;
      const bs = Math.floor(t / span) * span;
      let out = into.get(bs);
      if (!out) {
        out = new Block();
        into.set(bs, out);
      }
      const k = Math.floor((t - bs) / cell);
      if (b.mins[j] < out.mins[k]) out.mins[k] = b.mins[j];
      if (b.maxs[j] > out.maxs[k]) out.maxs[k] = b.maxs[j];
      out.sums[k] += b.sums[j];
      out.counts[k] += c;
    }
  }
  return into;
}
