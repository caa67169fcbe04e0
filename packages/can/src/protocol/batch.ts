import { type CanFrame, FD_LENGTHS } from '../frame.ts';

/**
 * Frame batch, version 1: the binary uplink of a logger (`lh/v1/{deviceId}/up/frames`) and,
 * unchanged, the storage chunk. Little-endian, column-wise so that the server validates it with
 * one pass over fixed-size columns and stores the bytes as they came. Spec: docs/device-protocol.md.
 *
 *   offset        size  field
 *   0             2     magic "LH"
 *   2             1     version = 1
 *   3             1     header flags, 0 (reserved)
 *   4             4     n: frame count (1..MAX_FRAMES)
 *   8             4     session: random per device boot, with seq it names the batch
 *   12            4     seq: batch sequence number, +1 per new batch (a re-send keeps its seq)
 *   16            8     t0: µs since the Unix epoch (u64)
 *   24            4     data bytes: sum of payload lengths
 *   28            4     reserved, 0
 *   32            4n    dt: µs after t0 (u32), non-decreasing
 *   32+4n         4n    id: arbitration id (u32)
 *   32+8n         n     channel (u8, 0-based)
 *   32+9n         n     flags (u8): 1 ext, 2 fd, 4 brs, 8 esi, 16 rtr, 32 err, 64 tx, 128 reserved
 *   32+10n        n     len: payload length in bytes (a remote frame: requested length, no payload)
 *   32+11n        …     payloads, concatenated
 */
export const BATCH_MAGIC = 0x484c; // "LH" read little-endian
export const BATCH_VERSION = 1;
export const BATCH_HEADER_BYTES = 32;
export const BATCH_PER_FRAME_BYTES = 11;
/** A batch spans at most one hour, so queries can bound how early a chunk overlapping a range starts. */
export const MAX_SPAN_US = 3_600_000_000;
export const MAX_FRAMES = 100_000;
/** The MQTT packet cap of the broker. */
export const MAX_BATCH_BYTES = 1024 * 1024;

export const FLAG_EXT = 1;
export const FLAG_FD = 2;
export const FLAG_BRS = 4;
export const FLAG_ESI = 8;
export const FLAG_RTR = 16;
export const FLAG_ERR = 32;
export const FLAG_TX = 64;

const FD_OK = new Uint8Array(65);
for (const l of FD_LENGTHS) FD_OK[l] = 1;

export interface BatchHeader {
  count: number;
  session: number;
  seq: number;
  /** µs of the first and the last frame. */
  timeStart: number;
  timeEnd: number;
  dataBytes: number;
}

export interface BatchInfo extends BatchHeader {
  /** Bit n set = channel n present (channels ≥ 31 set bit 31). */
  channelMask: number;
  /** Distinct arbitration ids, ascending. */
  ids: number[];
}

export class BatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchError';
  }
}

export function frameFlags(f: CanFrame): number {
  return (
    (f.ext ? FLAG_EXT : 0) |
    (f.fd ? FLAG_FD : 0) |
    (f.brs ? FLAG_BRS : 0) |
    (f.esi ? FLAG_ESI : 0) |
    (f.rtr ? FLAG_RTR : 0) |
    (f.err ? FLAG_ERR : 0) |
    (f.tx ? FLAG_TX : 0)
  );
}

/** Encodes frames (sorted by time) as one batch. */
export function encodeBatch(frames: readonly CanFrame[], opts: { session: number; seq: number }): Uint8Array {
  const n = frames.length;
  if (n < 1 || n > MAX_FRAMES) throw new BatchError(`a batch holds 1-${MAX_FRAMES} frames, got ${n}`);
  let dataBytes = 0;
  for (const f of frames) if (!f.rtr) dataBytes += f.data.length;
  const size = BATCH_HEADER_BYTES + BATCH_PER_FRAME_BYTES * n + dataBytes;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  const t0 = frames[0].ts;
  v.setUint16(0, BATCH_MAGIC, true);
  out[2] = BATCH_VERSION;
  v.setUint32(4, n, true);
  v.setUint32(8, opts.session >>> 0, true);
  v.setUint32(12, opts.seq >>> 0, true);
  v.setUint32(16, t0 % 0x1_0000_0000, true);
  v.setUint32(20, Math.floor(t0 / 0x1_0000_0000), true);
  v.setUint32(24, dataBytes, true);
  const oId = BATCH_HEADER_BYTES + 4 * n;
  const oCh = BATCH_HEADER_BYTES + 8 * n;
  const oFl = oCh + n;
  const oLen = oFl + n;
  let p = oLen + n;
  let prev = t0;
  for (let i = 0; i < n; i++) {
    const f = frames[i];
    if (f.ts < prev) throw new BatchError('frames must be sorted by time');
    prev = f.ts;
    const dt = f.ts - t0;
    if (!Number.isInteger(dt) || dt > MAX_SPAN_US) throw new BatchError('a batch spans at most one hour of whole µs');
    v.setUint32(BATCH_HEADER_BYTES + 4 * i, dt, true);
    v.setUint32(oId + 4 * i, f.id >>> 0, true);
    out[oCh + i] = f.channel;
    out[oFl + i] = frameFlags(f);
    out[oLen + i] = f.rtr ? (f.dlc ?? f.data.length) : f.data.length;
    if (!f.rtr) {
      out.set(f.data, p);
      p += f.data.length;
    }
  }
  const bad = checkBatch(out);
  if (typeof bad === 'string') throw new BatchError(bad);
  return out;
}

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Reads the 32-byte header; does not look at the columns. */
export function readHeader(b: Uint8Array): BatchHeader | string {
  return header(b, view(b));
}

function header(b: Uint8Array, v: DataView): BatchHeader | string {
  if (b.byteLength < BATCH_HEADER_BYTES) return 'shorter than the header';
  if (v.getUint16(0, true) !== BATCH_MAGIC) return 'bad magic';
  if (b[2] !== BATCH_VERSION) return `unsupported version ${b[2]}`;
  if (b[3] !== 0 || v.getUint32(28, true) !== 0) return 'reserved header bits set';
  const count = v.getUint32(4, true);
  const t0 = v.getUint32(16, true) + v.getUint32(20, true) * 0x1_0000_0000;
  if (!Number.isSafeInteger(t0)) return 'time out of range';
  const dataBytes = v.getUint32(24, true);
  if (count < 1 || count > MAX_FRAMES) return `frame count ${count} out of range`;
  if (b.byteLength !== BATCH_HEADER_BYTES + BATCH_PER_FRAME_BYTES * count + dataBytes) return 'size does not match count and data bytes';
  const dtLast = v.getUint32(BATCH_HEADER_BYTES + 4 * (count - 1), true);
  return {
    count,
    session: v.getUint32(8, true),
    seq: v.getUint32(12, true),
    timeStart: t0 + v.getUint32(32, true),
    timeEnd: t0 + dtLast,
    dataBytes,
  };
}

/**
 * Validates a whole batch in one pass (header, time order, id ranges, lengths, payload total) and
 * returns what storage indexes it by. A string is the reason it is malformed.
 */
/** Ids of the batch being checked (reused: a Set and a sort with a comparator per batch were a tenth of ingest's garbage). */
let idScratch = new Uint32Array(256);

/** The distinct values of `a`, ascending; `a` is sorted in place (a typed array sorts numerically). */
function distinctSorted(a: Uint32Array): number[] {
  a.sort();
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[i - 1]) out.push(a[i]);
  return out;
}

export function checkBatch(b: Uint8Array): BatchInfo | string {
  const v = view(b);
  const h = header(b, v);
  if (typeof h === 'string') return h;
  const n = h.count;
  const oId = BATCH_HEADER_BYTES + 4 * n;
  const oCh = BATCH_HEADER_BYTES + 8 * n;
  const oFl = oCh + n;
  const oLen = oFl + n;
  let prev = 0;
  let data = 0;
  let mask = 0;
  if (idScratch.length < n) idScratch = new Uint32Array(Math.max(n, 2 * idScratch.length));
  let k = 0;
  let lastId = -1;
  for (let i = 0; i < n; i++) {
    const dt = v.getUint32(BATCH_HEADER_BYTES + 4 * i, true);
    if (dt < prev) return `frame ${i}: time goes backwards`;
    if (dt > MAX_SPAN_US) return `frame ${i}: more than an hour after t0`;
    prev = dt;
    const id = v.getUint32(oId + 4 * i, true);
    const fl = b[oFl + i];
    const len = b[oLen + i];
    if (fl & 128) return `frame ${i}: reserved flag set`;
    if (fl & FLAG_EXT ? id > 0x1fffffff : id > 0x7ff) return `frame ${i}: id 0x${id.toString(16)} out of range`;
    if (fl & FLAG_FD) {
      if (len > 64 || !FD_OK[len]) return `frame ${i}: CAN FD length ${len} invalid`;
      if (fl & FLAG_RTR) return `frame ${i}: CAN FD has no remote frames`;
    } else {
      if (len > 8) return `frame ${i}: CAN length ${len} over 8`;
      if (fl & (FLAG_BRS | FLAG_ESI)) return `frame ${i}: BRS/ESI on a classic frame`;
    }
    if (!(fl & FLAG_RTR)) data += len;
    const ch = b[oCh + i];
    mask |= 1 << Math.min(ch, 31);
    if (id !== lastId) {
      idScratch[k++] = id;
      lastId = id;
    }
  }
  if (data !== h.dataBytes) return 'payload lengths do not add up to the data bytes';
  const info = h as BatchInfo;
  info.channelMask = mask;
  info.ids = distinctSorted(idScratch.subarray(0, k));
  return info;
}

export interface FrameFilter {
  channels?: ReadonlySet<number> | null;
  ids?: ReadonlySet<number> | null;
  /** µs, inclusive. */
  from?: number;
  /** µs, exclusive. */
  to?: number;
}

/**
 * Calls `visit` for each frame (optionally filtered) with its index and decoded fields. The payload
 * is a view into `b`. Assumes `b` passed `checkBatch` (stored chunks did).
 */
export function forEachFrame(
  b: Uint8Array,
  filter: FrameFilter | null,
  visit: (ts: number, channel: number, id: number, flags: number, len: number, data: Uint8Array) => boolean | undefined,
): void {
  // A Node Buffer's subarray builds a Buffer, several times dearer than a plain view.
  if (b.constructor !== Uint8Array) b = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  const v = view(b);
  const n = v.getUint32(4, true);
  const t0 = v.getUint32(16, true) + v.getUint32(20, true) * 0x1_0000_0000;
  const oId = BATCH_HEADER_BYTES + 4 * n;
  const oCh = BATCH_HEADER_BYTES + 8 * n;
  const oFl = oCh + n;
  const oLen = oFl + n;
  let p = oLen + n;
  const chs = filter?.channels ?? null;
  const ids = filter?.ids ?? null;
  const from = filter?.from ?? -Infinity;
  const to = filter?.to ?? Infinity;
  for (let i = 0; i < n; i++) {
    const fl = b[oFl + i];
    const len = b[oLen + i];
    const size = fl & FLAG_RTR ? 0 : len;
    const start = p;
    p += size;
    const ts = t0 + v.getUint32(BATCH_HEADER_BYTES + 4 * i, true);
    if (ts < from) continue;
    if (ts >= to) return;
    const ch = b[oCh + i];
    if (chs && !chs.has(ch)) continue;
    const id = v.getUint32(oId + 4 * i, true);
    if (ids && !ids.has(id)) continue;
    if (visit(ts, ch, id, fl, len, b.subarray(start, start + size)) === false) return;
  }
}

/**
 * Counts frames with from ≤ ts < to from the header and the time column alone: callers may pass
 * just the first 32 + 4n bytes of a chunk.
 */
export function countInRange(b: Uint8Array, from: number, to: number): number {
  const v = view(b);
  const n = v.getUint32(4, true);
  const t0 = v.getUint32(16, true) + v.getUint32(20, true) * 0x1_0000_0000;
  let c = 0;
  for (let i = 0; i < n; i++) {
    const ts = t0 + v.getUint32(BATCH_HEADER_BYTES + 4 * i, true);
    if (ts >= to) break;
    if (ts >= from) c++;
  }
  return c;
}

export function toFrame(ts: number, channel: number, id: number, fl: number, len: number, data: Uint8Array): CanFrame {
  const rtr = (fl & FLAG_RTR) !== 0;
  const f: CanFrame = {
    ts,
    channel,
    id,
    ext: (fl & FLAG_EXT) !== 0,
    fd: (fl & FLAG_FD) !== 0,
    brs: (fl & FLAG_BRS) !== 0,
    esi: (fl & FLAG_ESI) !== 0,
    rtr,
    err: (fl & FLAG_ERR) !== 0,
    tx: (fl & FLAG_TX) !== 0,
    data,
  };
  if (rtr) f.dlc = len;
  return f;
}

/** Decodes a batch into frames (payloads are views into `b`). Throws BatchError when malformed. */
export function decodeBatch(b: Uint8Array, filter: FrameFilter | null = null): CanFrame[] {
  const bad = checkBatch(b);
  if (typeof bad === 'string') throw new BatchError(bad);
  const out: CanFrame[] = [];
  forEachFrame(b, filter, (ts, ch, id, fl, len, data) => {
    out.push(toFrame(ts, ch, id, fl, len, data));
    return true;
  });
  return out;
}

/** Bytes a batch of these frames takes, to cut batches below a size. */
export function frameWireBytes(f: CanFrame): number {
  return BATCH_PER_FRAME_BYTES + (f.rtr ? 0 : f.data.length);
}

/**
 * Splits time-sorted frames into batches no longer than `maxBytes`, `maxFrames` and one hour.
 * Returns the frame index ranges [start, end).
 */
export function planBatches(frames: readonly CanFrame[], maxBytes = 256 * 1024, maxFrames = 10_000): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let bytes = BATCH_HEADER_BYTES;
  for (let i = 0; i < frames.length; i++) {
    const w = frameWireBytes(frames[i]);
    if (i > start && (bytes + w > maxBytes || i - start >= maxFrames || frames[i].ts - frames[start].ts > MAX_SPAN_US)) {
      out.push([start, i]);
      start = i;
      bytes = BATCH_HEADER_BYTES;
    }
    bytes += w;
  }
  if (start < frames.length) out.push([start, frames.length]);
  return out;
}
