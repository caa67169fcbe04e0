import type { DbcDecoder } from '@loggerhead/can';
import type { Condition } from '@loggerhead/contract';
import type { DecodedRow } from '../modules/signals/signals.events.ts';

export type { DecodedRow };

/**
 * A compiled condition reads one frame and answers 1 (true), 0 (false) or -1 (no observation: the
 * frame is too short, or the DBC signal is multiplexed out). "No observation" leaves a rule's state
 * as it was, so a short frame neither fires nor recovers a rule. `row` is the frame as the decode
 * stage decoded it; a signal condition reads its value there when it was decoded with the rule's DBC.
 */
export type ConditionTest = (data: Uint8Array, len: number, row?: DecodedRow) => 1 | 0 | -1;

/** What the signal conditions of a rule decode with: the DBC bound to the rule's channel. */
export interface SignalSource {
  decoder: DbcDecoder;
  id: number;
  ext: boolean;
  /** Index of the signal in the message's output. */
  index: number;
}

/** Returns the operand of a condition as a number, NaN when the frame does not carry it. */
export function operandReader(c: Condition, signal: SignalSource | null): (data: Uint8Array, len: number, row?: DecodedRow) => number {
  if (c.source === 'length') return (_d, len) => len;
  if (c.source === 'signal') {
    if (!signal) throw new Error('signal condition without a DBC');
    const { decoder, id, ext, index } = signal;
    let out: Float64Array | null = null;
    return (d, _len, row) => {
      // Decoded once, by the decode stage, with this DBC: read the value there.
      if (row && row.decoder === decoder) return row.values ? (row.values[index] ?? Number.NaN) : Number.NaN;
      // Not decoded by the stage (a batch fed directly, or the DBC changed in between): decode it here.
      out ??= new Float64Array(decoder.maxSignals);
      return decoder.decodeInto(id, ext, d, out) ? out[index] : Number.NaN;
    };
  }
  const start = c.start_byte;
  const n = c.length;
  const end = start + n;
  const signed = c.signed;
  const bits = n * 8;
  const half = 2 ** (bits - 1);
  const full = 2 ** bits;
  if (c.byte_order === 'motorola') {
    return (d) => {
      if (d.length < end) return Number.NaN;
      let v = 0;
      for (let i = start; i < end; i++) v = v * 256 + d[i];
      return signed && v >= half ? v - full : v;
    };
  }
  return (d) => {
    if (d.length < end) return Number.NaN;
    let v = 0;
    for (let i = end - 1; i >= start; i--) v = v * 256 + d[i];
    return signed && v >= half ? v - full : v;
  };
}

const hexBytes = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

export function compileCondition(c: Condition, signal: SignalSource | null): ConditionTest {
  if (c.op === 'mask') {
    const mask = hexBytes(c.mask ?? '');
    const pattern = hexBytes(c.pattern ?? '');
    for (let i = 0; i < mask.length; i++) pattern[i] &= mask[i];
    const start = c.start_byte;
    const n = mask.length;
    return (d) => {
      if (d.length < start + n) return -1;
      for (let i = 0; i < n; i++) if ((d[start + i] & mask[i]) !== pattern[i]) return 0;
      return 1;
    };
  }
  const read = operandReader(c, signal);
  const value = c.value ?? 0;
  const min = c.min ?? 0;
  const max = c.max ?? 0;
  switch (c.op) {
    case '>':
      return (d, l, r) => cmp(read(d, l, r), (v) => v > value);
    case '>=':
      return (d, l, r) => cmp(read(d, l, r), (v) => v >= value);
    case '<':
      return (d, l, r) => cmp(read(d, l, r), (v) => v < value);
    case '<=':
      return (d, l, r) => cmp(read(d, l, r), (v) => v <= value);
    case '==':
      return (d, l, r) => cmp(read(d, l, r), (v) => v === value);
    case '!=':
      return (d, l, r) => cmp(read(d, l, r), (v) => v !== value);
    case 'in':
      return (d, l, r) => cmp(read(d, l, r), (v) => v >= min && v <= max);
    case 'out':
      return (d, l, r) => cmp(read(d, l, r), (v) => v < min || v > max);
    case 'change': {
      // True on the frame whose value differs from the previous frame's; the first frame only sets it.
      let prev = Number.NaN;
      return (d, l, r) => {
        const v = read(d, l, r);
        if (Number.isNaN(v)) return -1;
        const was = prev;
        prev = v;
        if (Number.isNaN(was)) return 0;
        return v !== was ? 1 : 0;
      };
    }
  }
}

function cmp(v: number, ok: (v: number) => boolean): 1 | 0 | -1 {
  if (Number.isNaN(v)) return -1;
  return ok(v) ? 1 : 0;
}

/** All conditions of a rule, joined by `and` or `or`. Every condition runs (a `change` keeps its previous value). */
export function joinConditions(tests: ConditionTest[], join: 'and' | 'or'): ConditionTest {
  if (tests.length === 1) return tests[0];
  if (join === 'and') {
    return (d, l, row) => {
      let out: 1 | 0 | -1 = 1;
      for (const t of tests) {
        const r = t(d, l, row);
        if (r === -1) out = -1;
        else if (r === 0 && out === 1) out = 0;
      }
      return out;
    };
  }
  return (d, l, row) => {
    let out: 1 | 0 | -1 = -1;
    for (const t of tests) {
      const r = t(d, l, row);
      if (r === 1) out = 1;
      else if (r === 0 && out === -1) out = 0;
    }
    return out;
  };
}
