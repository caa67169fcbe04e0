import { BATCH_HEADER_BYTES, FLAG_RTR, type FrameFilter, forEachFrame } from '@loggerhead/can/protocol/batch.ts';

/** A stored chunk as the merge needs it: the batch bytes and where the next chunk in storage order starts. */
export interface OrderedChunk {
  /** µs of the first frame. */
  time_start: number | string;
  frame_count: number;
  data: Uint8Array;
  /** time_start of the chunk that follows in (time_start, session, seq) order; null for the last one. */
  next_start: number | string | null;
}

export type FrameVisit = (ts: number, channel: number, id: number, flags: number, len: number, data: Uint8Array) => boolean | undefined;

/** Reads one chunk's frames one at a time (the columns of docs/device-protocol.md), filter applied. */
class Cursor {
  readonly b: Uint8Array;
  private readonly v: DataView;
  private readonly n: number;
  private readonly t0: number;
  private readonly oId: number;
  private readonly oCh: number;
  private readonly oFl: number;
  private readonly oLen: number;
  private i = -1;
  private p: number;
  /** The current frame (valid until `next()` returns false). */
  ts = 0;
  ch = 0;
  id = 0;
  fl = 0;
  len = 0;
  start = 0;
  size = 0;

  constructor(
    data: Uint8Array,
    /** Storage order of the chunk: frames with equal times come in the order of their chunks. */
    readonly ordinal: number,
    private readonly f: FrameFilter | null,
  ) {
    this.b = data.constructor === Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.v = new DataView(this.b.buffer, this.b.byteOffset, this.b.byteLength);
    const n = this.v.getUint32(4, true);
    this.n = n;
    this.t0 = this.v.getUint32(16, true) + this.v.getUint32(20, true) * 0x1_0000_0000;
    this.oId = BATCH_HEADER_BYTES + 4 * n;
    this.oCh = BATCH_HEADER_BYTES + 8 * n;
    this.oFl = this.oCh + n;
    this.oLen = this.oFl + n;
    this.p = this.oLen + n;
  }

  /** Moves to the next frame that passes the filter; false at the end of the chunk or of the range. */
  next(): boolean {
    const b = this.b;
    const f = this.f;
    while (++this.i < this.n) {
      const i = this.i;
      const fl = b[this.oFl + i];
      const len = b[this.oLen + i];
      const size = fl & FLAG_RTR ? 0 : len;
      const start = this.p;
      this.p += size;
      const ts = this.t0 + this.v.getUint32(BATCH_HEADER_BYTES + 4 * i, true);
      if (f) {
        if (f.from !== undefined && ts < f.from) continue;
        if (f.to !== undefined && ts >= f.to) break;
        if (f.channels && !f.channels.has(b[this.oCh + i])) continue;
        if (f.ids && !f.ids.has(this.v.getUint32(this.oId + 4 * i, true))) continue;
      }
      this.ts = ts;
      this.ch = b[this.oCh + i];
      this.id = this.v.getUint32(this.oId + 4 * i, true);
      this.fl = fl;
      this.len = len;
      this.start = start;
      this.size = size;
      return true;
    }
    this.i = this.n;
    return false;
  }

  visit(visit: FrameVisit): boolean | undefined {
    return visit(this.ts, this.ch, this.id, this.fl, this.len, this.b.subarray(this.start, this.start + this.size));
  }
}

/** Binary min-heap of cursors by (current time, chunk ordinal). */
class CursorHeap {
  readonly items: Cursor[] = [];

  get size(): number {
    return this.items.length;
  }

  private less(a: Cursor, b: Cursor): boolean {
    return a.ts < b.ts || (a.ts === b.ts && a.ordinal < b.ordinal);
  }

  push(c: Cursor): void {
    const h = this.items;
    h.push(c);
    let i = h.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.less(h[i], h[up])) break;
      [h[i], h[up]] = [h[up], h[i]];
      i = up;
    }
  }

  /** Restores the order after the top cursor moved on (or removes it when it ended). */
  settleTop(ended: boolean): void {
    const h = this.items;
    const last = h.pop() as Cursor;
    if (ended) {
      if (!h.length) return;
      h[0] = last;
    } else if (h.length) h.push(last);
    else {
      h.push(last);
      return;
    }
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l], h[m])) m = l;
      if (r < h.length && this.less(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}

/**
 * Visits the frames of chunks (given in storage order: time_start, session, seq) in time order.
 * Chunks of one device normally follow each other, but two uploads of the same period (or a logger
 * that re-sent after a reboot) overlap; those are merged frame by frame (k-way, by time, then by
 * storage order). A chunk is opened only when the frames before its first one are all out, and a
 * chunk that overlaps nothing is walked straight through, so the first page of a history still reads
 * one chunk.
 *
 * `visit` returning false stops the walk (the rest of `chunks` is not read); `opened` runs, awaited,
 * as each chunk is taken (progress, cancellation, flushing what was visited so far).
 */
export async function forEachFrameInOrder(
  chunks: AsyncIterable<OrderedChunk>,
  filter: FrameFilter | null,
  visit: FrameVisit,
  opened?: (c: OrderedChunk) => void | Promise<void>,
): Promise<void> {
  const it = chunks[Symbol.asyncIterator]();
  const heap = new CursorHeap();
  let ordinal = 0;
  /** Start of the first chunk not opened yet (Infinity when none is left). */
  let nextStart = Number.NEGATIVE_INFINITY;
  let exhausted = false;
  try {
    for (;;) {
      // Open every chunk that starts at or before the earliest frame not visited yet.
      while (nextStart !== Number.POSITIVE_INFINITY && (heap.size === 0 || nextStart <= heap.items[0].ts)) {
        const r = await it.next();
        if (r.done) {
          exhausted = true;
          nextStart = Number.POSITIVE_INFINITY;
          break;
        }
        const c = r.value;
        nextStart = c.next_start === null || c.next_start === undefined ? Number.POSITIVE_INFINITY : Number(c.next_start);
        await opened?.(c);
        if (heap.size === 0 && nextStart >= Number(c.time_start) + lastOffset(c.data)) {
          // Nothing else overlaps this chunk: no merging, frames straight from the columns.
          let go = true;
          forEachFrame(c.data, filter, (ts, ch, id, fl, len, data) => {
            go = visit(ts, ch, id, fl, len, data) !== false;
            return go;
          });
          if (!go) return;
          continue;
        }
        const cur = new Cursor(c.data, ordinal++, filter);
        if (cur.next()) heap.push(cur);
      }
      if (heap.size === 0) return;
      // Visit in time order up to where the next chunk starts.
      while (heap.size > 0) {
        const top = heap.items[0];
        if (top.ts >= nextStart) break;
        if (top.visit(visit) === false) return;
        heap.settleTop(!top.next());
      }
    }
  } finally {
    // Ends the database reads of a walk stopped early (or failed).
    if (!exhausted) await it.return?.();
  }
}

/** µs from the chunk's first frame to its last (from the header and the time column). */
function lastOffset(b: Uint8Array): number {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = v.getUint32(4, true);
  return v.getUint32(BATCH_HEADER_BYTES + 4 * (n - 1), true) - v.getUint32(BATCH_HEADER_BYTES, true);
}
