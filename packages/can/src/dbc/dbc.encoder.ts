import { FLOAT_SCRATCH } from './dbc.extract.ts';
import { signalBytesNeeded, signalPieces } from './dbc.layout.ts';
import type { DbcMessage, DbcSignal } from './dbc.model.ts';

/** Smallest and largest raw integer a signal can hold. */
export function rawRange(sig: Pick<DbcSignal, 'length' | 'signed'>): [bigint, bigint] {
  const n = BigInt(sig.length);
  return sig.signed ? [-(1n << (n - 1n)), (1n << (n - 1n)) - 1n] : [0n, (1n << n) - 1n];
}

/**
 * Raw bits for a physical value: `(value - offset) / factor`, rounded to the nearest integer and
 * clamped to what the signal can hold; IEEE bits for float signals.
 */
export function physicalToRaw(sig: DbcSignal, value: number): bigint {
  const x = (value - sig.offset) / sig.factor;
  const { U32, F32, F64, LO, HI } = FLOAT_SCRATCH;
  if (sig.valueType === 'float32') {
    F32[0] = x;
    return BigInt(U32[0]);
  }
  if (sig.valueType === 'float64') {
    F64[0] = x;
    return (BigInt(U32[HI]) << 32n) | BigInt(U32[LO]);
  }
  const [lo, hi] = rawRange(sig);
  if (Number.isNaN(x)) return 0n;
  if (x <= Number(lo)) return lo;
  if (x >= Number(hi)) return hi;
  const r = BigInt(Math.round(x));
  return r < lo ? lo : r > hi ? hi : r;
}

/** Writes raw bits (two's complement for negative values) into `data`; bits outside `data` are dropped. */
export function writeRaw(data: Uint8Array, sig: Pick<DbcSignal, 'startBit' | 'length' | 'byteOrder'>, raw: bigint | number): void {
  const u = BigInt.asUintN(sig.length, typeof raw === 'bigint' ? raw : BigInt(Math.trunc(raw)));
  const small = sig.length <= 32 ? Number(u) : -1;
  for (const p of signalPieces(sig)) {
    if (p.byte >= data.length) continue;
    const mask = (1 << p.bits) - 1;
    const bits = small >= 0 ? Math.floor(small / 2 ** p.rawShift) & mask : Number((u >> BigInt(p.rawShift)) & BigInt(mask));
    data[p.byte] = (data[p.byte] & ~(mask << p.shift)) | (bits << p.shift);
  }
}

export interface EncodeOptions {
  /** Payload length; defaults to the message length. */
  length?: number;
  /** Start from these bytes (copied) instead of zeros: unlisted signals keep their bits. */
  base?: Uint8Array;
}

/**
 * Builds a payload from signal values: numbers are physical values, bigints are raw values (exact
 * for 64-bit signals). A multiplexed signal whose switch is not given sets the switch to the first
 * value that selects it; signals whose switch value does not select them are not written.
 */
export function encodeMessage(message: DbcMessage, values: Record<string, number | bigint>, options: EncodeOptions = {}): Uint8Array {
  const data = new Uint8Array(options.length ?? message.length);
  if (options.base) data.set(options.base.subarray(0, data.length));
  const byName = new Map(message.signals.map((s) => [s.name, s]));
  for (const name of Object.keys(values)) if (!byName.has(name)) throw new RangeError(`message ${message.name} has no signal ${name}`);
  const raw = new Map<string, bigint>();
  for (const [name, v] of Object.entries(values)) raw.set(name, typeof v === 'bigint' ? v : physicalToRaw(byName.get(name)!, v));
  // Implied switch values, innermost first, so that nested switches get selected too.
  let changed = true;
  for (let guard = 0; changed && guard < message.signals.length; guard++) {
    changed = false;
    for (const s of message.signals) {
      const mux = s.multiplexer;
      if (mux && raw.has(s.name) && !raw.has(mux.switchName)) {
        raw.set(mux.switchName, BigInt(mux.ranges[0][0]));
        changed = true;
      }
    }
  }
  const active = (s: DbcSignal, depth: number): boolean => {
    const mux = s.multiplexer;
    if (!mux) return true;
    const sw = byName.get(mux.switchName);
    const v = raw.get(mux.switchName);
    if (!sw || v === undefined || depth > message.signals.length) return false;
    const n = Number(v);
    return mux.ranges.some(([lo, hi]) => n >= lo && n <= hi) && active(sw, depth + 1);
  };
  for (const s of message.signals) {
    const v = raw.get(s.name);
    if (v !== undefined && active(s, 0) && signalBytesNeeded(s) <= data.length) writeRaw(data, s, v);
  }
  return data;
}
