/**
 * Compact encodings of one signal's samples (pure, no I/O).
 *
 * Times: offsets in µs from the chunk start, stored as zig-zagged delta-of-deltas bit-packed in
 * blocks of 128 (one width byte per block). A steady 100 Hz signal costs one byte per 128 samples.
 *
 * Values, three codecs:
 * - SCALED (0): the DBC integer behind each value, `raw = (v - offset) / factor`, kept only when
 *   `raw * factor + offset` gives the value back bit for bit (the decoder's own formula); its deltas
 *   are zig-zagged and bit-packed like the times. A slowly moving 16-bit signal costs 1-4 bits.
 * - F32 (1) when every value survives a float32 round trip, else F64 (2): plain little-endian arrays.
 */

export const CODEC_SCALED = 0;
export const CODEC_F32 = 1;
export const CODEC_F64 = 2;
export type ValueCodec = typeof CODEC_SCALED | typeof CODEC_F32 | typeof CODEC_F64;

const BLOCK = 128;
const I31 = 2 ** 31;

export interface EncodedValues {
  codec: ValueCodec;
  factor: number;
  offset: number;
  bytes: Uint8Array;
}

const zig = (v: number) => (v >= 0 ? 2 * v : -2 * v - 1);
const unzig = (z: number) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/** Bit-packs non-negative integers below 2^32, blocks of 128 each led by its bit width. */
export function packUints(src: ArrayLike<number>, n: number): Uint8Array {
  // Worst case: 32 bits each plus one width byte per block.
  const out = new Uint8Array(Math.ceil(n / BLOCK) + n * 4 + 8);
  let pos = 0;
  for (let start = 0; start < n; start += BLOCK) {
    const end = Math.min(n, start + BLOCK);
    let max = 0;
    for (let i = start; i < end; i++) if (src[i] > max) max = src[i];
    const b = max === 0 ? 0 : Math.floor(Math.log2(max)) + 1;
    out[pos++] = b;
    if (b === 0) continue;
    if (b <= 24) {
      // Integer fast path: at most 7 pending bits plus 24 new ones fit in 32.
      let acc = 0;
      let bits = 0;
      for (let i = start; i < end; i++) {
        acc = (acc | (src[i] << bits)) >>> 0;
        bits += b;
        while (bits >= 8) {
          out[pos++] = acc & 0xff;
          acc >>>= 8;
          bits -= 8;
        }
      }
      if (bits > 0) out[pos++] = acc & 0xff;
      continue;
    }
    let acc = 0;
    let bits = 0;
    for (let i = start; i < end; i++) {
      acc += src[i] * 2 ** bits;
      bits += b;
      while (bits >= 8) {
        out[pos++] = acc & 0xff;
        acc = Math.floor(acc / 256);
        bits -= 8;
      }
    }
    if (bits > 0) out[pos++] = acc & 0xff;
  }
  return out.slice(0, pos);
}

/** Inverse of `packUints`; calls `emit(i, value)` for each of the n values. */
export function unpackUints(src: Uint8Array, n: number, emit: (i: number, v: number) => void): void {
  let pos = 0;
  for (let start = 0; start < n; start += BLOCK) {
    const end = Math.min(n, start + BLOCK);
    const b = src[pos++];
    if (b === 0) {
      for (let i = start; i < end; i++) emit(i, 0);
      continue;
    }
    if (b <= 24) {
      const mask = (1 << b) - 1;
      let acc = 0;
      let bits = 0;
      for (let i = start; i < end; i++) {
        while (bits < b) {
          acc = (acc | (src[pos++] << bits)) >>> 0;
          bits += 8;
        }
        emit(i, acc & mask);
        acc >>>= b;
        bits -= b;
      }
      // Pad bits of the last byte belong to no value.
      continue;
    }
    const pow = 2 ** b;
    let acc = 0;
    let bits = 0;
    for (let i = start; i < end; i++) {
      while (bits < b) {
        acc += src[pos++] * 2 ** bits;
        bits += 8;
      }
      emit(i, acc % pow);
      acc = Math.floor(acc / pow);
      bits -= b;
    }
  }
}

/** Times (µs, non-decreasing is usual but not required) from index `from` to `to`, relative to `t0`. */
export function encodeTimes(ts: ArrayLike<number>, from: number, to: number, t0: number): Uint8Array {
  const n = to - from;
  const z = new Uint32Array(n);
  let prev = 0;
  let prevDelta = 0;
  for (let i = 0; i < n; i++) {
    const off = ts[from + i] - t0;
    const delta = off - prev;
    const dod = delta - prevDelta;
    if (!Number.isSafeInteger(off) || Math.abs(dod) >= I31) throw new RangeError('chunk times out of range');
    z[i] = zig(dod);
    prev = off;
    prevDelta = delta;
  }
  return packUints(z, n);
}

export function decodeTimes(bytes: Uint8Array, n: number, t0: number, out: Float64Array, at = 0): void {
  let prev = 0;
  let prevDelta = 0;
  unpackUints(bytes, n, (i, z) => {
    const delta = prevDelta + unzig(z);
    prev += delta;
    prevDelta = delta;
    out[at + i] = t0 + prev;
  });
}

/** The exact inverse of how a DBC decoder scales (see the codec note above). */
const scale = (raw: number, factor: number, offset: number) => raw * factor + offset;

function tryScaled(values: ArrayLike<number>, from: number, to: number, factor: number, offset: number): Uint8Array | null {
  if (!(factor !== 0 && Number.isFinite(factor) && Number.isFinite(offset))) return null;
  const n = to - from;
  const z = new Uint32Array(n + 1);
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const v = values[from + i];
    const raw = Math.round((v - offset) / factor);
    const back = raw * factor + offset;
    // Bit for bit: equal, and the same sign when zero.
    if (back !== v || (v === 0 && 1 / back !== 1 / v) || !(raw <= Number.MAX_SAFE_INTEGER && raw >= -Number.MAX_SAFE_INTEGER)) return null;
    if (i === 0) {
      // The first raw value goes in whole (8 bytes ahead of the packed deltas).
      prev = raw;
      continue;
    }
    const d = raw - prev;
    if (Math.abs(d) >= I31) return null;
    z[i] = zig(d);
    prev = raw;
  }
  const first = Math.round((values[from] - offset) / factor);
  const head = new Uint8Array(8);
  new DataView(head.buffer).setFloat64(0, first, true);
  const body = packUints(z.subarray(1), n - 1);
  const out = new Uint8Array(8 + body.length);
  out.set(head, 0);
  out.set(body, 8);
  return out;
}

/**
 * Encodes values[from, to). `factor`/`offset` are the DBC scaling of the signal (1/0 when unknown):
 * the scaled-integer codec is used when it reproduces every value exactly.
 */
export function encodeValues(values: ArrayLike<number>, from: number, to: number, factor = 1, offset = 0): EncodedValues {
  const n = to - from;
  const scaled = n > 0 ? tryScaled(values, from, to, factor, offset) : null;
  if (scaled) return { codec: CODEC_SCALED, factor, offset, bytes: scaled };
  let f32 = true;
  for (let i = from; i < to; i++) {
    const v = values[i];
    if (!Object.is(Math.fround(v), v)) {
      f32 = false;
      break;
    }
  }
  if (f32) {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = values[from + i];
    return { codec: CODEC_F32, factor: 1, offset: 0, bytes: new Uint8Array(a.buffer) };
  }
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = values[from + i];
  return { codec: CODEC_F64, factor: 1, offset: 0, bytes: new Uint8Array(a.buffer) };
}

export function decodeValues(bytes: Uint8Array, n: number, codec: number, factor: number, offset: number, out: Float64Array, at = 0): void {
  if (n === 0) return;
  if (codec === CODEC_SCALED) {
    let raw = new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
    out[at] = scale(raw, factor, offset);
    unpackUints(bytes.subarray(8), n - 1, (i, z) => {
      raw += unzig(z);
      out[at + i + 1] = scale(raw, factor, offset);
    });
    return;
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (codec === CODEC_F32) for (let i = 0; i < n; i++) out[at + i] = dv.getFloat32(i * 4, true);
  else if (codec === CODEC_F64) for (let i = 0; i < n; i++) out[at + i] = dv.getFloat64(i * 8, true);
  else throw new Error(`unknown value codec ${codec}`);
}
