import { type BytePiece, signalPieces } from './dbc.layout.ts';
import type { DbcSignal } from './dbc.model.ts';

/**
 * Extraction of one signal from a payload, in two forms that must agree:
 * - JavaScript source (`rawSource`, `valueSource`) that the decoder compiles per message, so that
 *   the hot path is straight-line byte reads and shifts specialised to each layout;
 * - closures (`rawReader`, `valueReader`) for runtimes that forbid `new Function` (strict CSP) and
 *   for value-table lookups.
 *
 * Raw values above 32 bits are assembled from a high and a low 32-bit word and combined once as
 * `hi * 2^32 + lo`: exact up to 53 bits, correctly rounded (one rounding) up to 64 bits.
 */

const TWO32 = 4294967296;

type Layout = Pick<DbcSignal, 'startBit' | 'length' | 'byteOrder' | 'signed'>;

/** Splits pieces that straddle raw bit 32 so that each belongs to the low or the high word. */
function splitWords(sig: Layout): { lo: BytePiece[]; hi: BytePiece[] } {
  const lo: BytePiece[] = [];
  const hi: BytePiece[] = [];
  for (const p of signalPieces(sig)) {
    if (p.rawShift >= 32) hi.push({ ...p, rawShift: p.rawShift - 32 });
    else if (p.rawShift + p.bits <= 32) lo.push(p);
    else {
      const n = 32 - p.rawShift;
      lo.push({ byte: p.byte, shift: p.shift, bits: n, rawShift: p.rawShift });
      hi.push({ byte: p.byte, shift: p.shift + n, bits: p.bits - n, rawShift: 0 });
    }
  }
  return { lo, hi };
}

function pieceSource(p: BytePiece): string {
  let t = `d[${p.byte}]`;
  if (p.shift) t = `(${t} >> ${p.shift})`;
  if (p.shift + p.bits < 8) t = `(${t} & ${(1 << p.bits) - 1})`;
  if (p.rawShift) t = `(${t} << ${p.rawShift})`;
  return t;
}

/** 32-bit word from pieces; `width` raw bits, bit 31 possibly set. */
function wordSource(pieces: BytePiece[], width: number, signed: boolean): string {
  const e = pieces.map(pieceSource).join(' | ') || '0';
  if (width === 32) return signed ? `(${e} | 0)` : `((${e}) >>> 0)`;
  if (signed) return `((${e}) << ${32 - width} >> ${32 - width})`;
  return pieces.length > 1 ? `(${e})` : e;
}

/** JS expression for the raw integer value of the signal read from `d` (a Uint8Array). */
export function rawSource(sig: Layout): string {
  if (sig.length <= 32) return wordSource(signalPieces(sig), sig.length, sig.signed);
  const { lo, hi } = splitWords(sig);
  return `(${wordSource(hi, sig.length - 32, sig.signed)} * ${TWO32} + ${wordSource(lo, 32, false)})`;
}

function literal(v: number): string {
  const s = String(v);
  return v < 0 || Object.is(v, -0) ? `(${s})` : s;
}

/**
 * JS expression for the physical value. Float signals need the scratch views `U32`, `F32`, `F64`
 * and the word indexes `LO`, `HI` in scope (see `FLOAT_SCRATCH`).
 */
export function valueSource(sig: DbcSignal, raw?: string): string {
  let v: string;
  if (sig.valueType === 'float32') v = `(U32[0] = ${rawSource({ ...sig, signed: false })}, F32[0])`;
  else if (sig.valueType === 'float64') {
    const { lo, hi } = splitWords({ ...sig, signed: false });
    v = `(U32[LO] = ${wordSource(lo, 32, false)}, U32[HI] = ${wordSource(hi, 32, false)}, F64[0])`;
  } else v = raw ?? rawSource(sig);
  return scaleSource(v, sig.factor, sig.offset);
}

export function scaleSource(v: string, factor: number, offset: number): string {
  if (factor === 1) return offset === 0 ? v : `${v} + ${literal(offset)}`;
  // Adding the offset even when 0 turns raw 0 times a negative factor into 0, not -0.
  return `${v} * ${literal(factor)} + ${literal(offset)}`;
}

const scratch = new ArrayBuffer(8);
/** Scratch views to reinterpret integer bits as IEEE floats; shared, used synchronously only. */
export const FLOAT_SCRATCH = {
  U32: new Uint32Array(scratch),
  F32: new Float32Array(scratch),
  F64: new Float64Array(scratch),
  // Typed arrays use the platform's byte order; find where the high word of a double lives.
  LO: new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1,
  HI: new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0,
};

function wordReader(pieces: BytePiece[], width: number, signed: boolean): (d: Uint8Array) => number {
  const bytes = Int32Array.from(pieces, (p) => p.byte);
  const shifts = Int32Array.from(pieces, (p) => p.shift);
  const masks = Int32Array.from(pieces, (p) => (1 << p.bits) - 1);
  const mul = Float64Array.from(pieces, (p) => 2 ** p.rawShift);
  const n = pieces.length;
  const half = 2 ** (width - 1);
  const full = 2 ** width;
  return (d) => {
    let v = 0;
    for (let i = 0; i < n; i++) v += ((d[bytes[i]] >> shifts[i]) & masks[i]) * mul[i];
    return signed && v >= half ? v - full : v;
  };
}

/** Closure returning the raw integer value (same semantics as `rawSource`). */
export function rawReader(sig: Layout): (d: Uint8Array) => number {
  if (sig.length <= 32) return wordReader(signalPieces(sig), sig.length, sig.signed);
  const { lo, hi } = splitWords(sig);
  const l = wordReader(lo, 32, false);
  const h = wordReader(hi, sig.length - 32, sig.signed);
  return (d) => h(d) * TWO32 + l(d);
}

/** Closure returning the physical value (same semantics as `valueSource`). */
export function valueReader(sig: DbcSignal): (d: Uint8Array) => number {
  const { factor, offset } = sig;
  const { U32, F32, F64, LO, HI } = FLOAT_SCRATCH;
  if (sig.valueType === 'float32') {
    const r = rawReader({ ...sig, signed: false });
    const f32 = (d: Uint8Array) => {
      U32[0] = r(d);
      return F32[0];
    };
    return scaled(f32, factor, offset);
  }
  if (sig.valueType === 'float64') {
    const { lo, hi } = splitWords({ ...sig, signed: false });
    const l = wordReader(lo, 32, false);
    const h = wordReader(hi, 32, false);
    const f64 = (d: Uint8Array) => {
      U32[LO] = l(d);
      U32[HI] = h(d);
      return F64[0];
    };
    return scaled(f64, factor, offset);
  }
  return scaled(rawReader(sig), factor, offset);
}

// Identity scaling is skipped, as in `scaleSource`, so that both forms agree even on -0.
function scaled(r: (d: Uint8Array) => number, factor: number, offset: number): (d: Uint8Array) => number {
  if (factor === 1 && offset === 0) return r;
  if (factor === 1) return (d) => r(d) + offset;
  return (d) => r(d) * factor + offset;
}

/**
 * Exact raw value as a BigInt, for integer signals wider than 53 bits, whose number form is
 * rounded (not on the hot path: callers use it only when the number is beyond 2^53).
 */
export function rawBigReader(sig: Layout): (d: Uint8Array) => bigint {
  const pieces = signalPieces(sig).map((p) => ({ byte: p.byte, shift: p.shift, mask: (1 << p.bits) - 1, at: BigInt(p.rawShift) }));
  const len = BigInt(sig.length);
  const signBit = 1n << (len - 1n);
  const full = 1n << len;
  return (d) => {
    let v = 0n;
    for (const p of pieces) v |= BigInt(((d[p.byte] ?? 0) >> p.shift) & p.mask) << p.at;
    return sig.signed && v & signBit ? v - full : v;
  };
}
