import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDbc, type DbcDecoder } from './dbc.decoder.ts';
import { encodeMessage } from './dbc.encoder.ts';
import type { DbcMessage } from './dbc.model.ts';
import { parseDbc } from './dbc.parser.ts';

/**
 * Reference extraction, bit by bit with BigInt, straight from the DBC definition: Intel signals run
 * upwards from the start bit; Motorola signals start at their MSB and walk down a byte, continuing
 * at bit 7 of the next byte.
 */
function referenceBits(start: number, length: number, intel: boolean): number[] {
  const order: number[] = []; // MSB first
  if (intel) for (let i = length - 1; i >= 0; i--) order.push(start + i);
  else {
    let b = start;
    for (let i = 0; i < length; i++) {
      order.push(b);
      b = (b & 7) === 0 ? b + 15 : b - 1;
    }
  }
  return order;
}

function referenceRaw(data: Uint8Array, bits: number[]): bigint {
  let v = 0n;
  for (const b of bits) v = (v << 1n) | BigInt((data[b >> 3] >> (b & 7)) & 1);
  return v;
}

interface Layout {
  start: number;
  length: number;
  intel: boolean;
  signed: boolean;
  kind: 'integer' | 'float32' | 'float64';
  factor: number;
  offset: number;
  size: number;
}

const layoutArb: fc.Arbitrary<Layout> = fc
  .record({
    length: fc.integer({ min: 1, max: 64 }),
    intel: fc.boolean(),
    signed: fc.boolean(),
    kind: fc.constantFrom('integer', 'integer', 'integer', 'float32', 'float64'),
    factor: fc.oneof(
      fc.constant(1),
      fc.constantFrom(0.5, 0.1, 2, 0.001, -1, 0.25),
      fc.double({ min: 1e-4, max: 1e3, noNaN: true }).map((x) => Math.fround(x)),
    ),
    // A DBC file cannot say -0 (it is written `0`): the offset the file holds is +0.
    offset: fc.oneof(
      fc.constant(0),
      fc.constantFrom(-40, 100.5),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => x + 0),
    ),
    // Mostly classic CAN positions, sometimes anywhere in a 64-byte CAN FD payload.
    pos: fc.oneof(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 511 })),
    extra: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ length, intel, signed, kind, factor, offset, pos, extra }) => {
    const len = kind === 'float32' ? 32 : kind === 'float64' ? 64 : length;
    // Linear position of the lowest (Intel) or most significant (Motorola) bit, kept inside 512 bits.
    const lin = pos % (512 - len + 1);
    const start = intel ? lin : (lin >> 3) * 8 + 7 - (lin & 7);
    const needed = ((lin + len - 1) >> 3) + 1;
    return { start, length: len, intel, signed, kind, factor, offset, size: Math.min(64, needed + extra) };
  });

function compile(l: Layout): { msg: DbcMessage; decoders: DbcDecoder[] } {
  const vt = l.kind === 'float32' ? '\nSIG_VALTYPE_ 1 S : 1;' : l.kind === 'float64' ? '\nSIG_VALTYPE_ 1 S : 2;' : '';
  const text = `BO_ 1 P: ${l.size} E\n SG_ S : ${l.start}|${l.length}@${l.intel ? 1 : 0}${l.signed ? '-' : '+'} (${l.factor},${l.offset}) [0|0] "" X${vt}\n`;
  const r = parseDbc(text);
  if (!r.ok) throw new Error(`${text}: ${r.error.reason}`);
  return { msg: r.dbc.messages[0], decoders: [compileDbc(r.dbc), compileDbc(r.dbc, { codegen: false })] };
}

function physical(l: Layout, raw: bigint): number {
  let x: number;
  if (l.kind === 'float32') {
    const v = new DataView(new ArrayBuffer(4));
    v.setUint32(0, Number(BigInt.asUintN(32, raw)));
    x = v.getFloat32(0);
  } else if (l.kind === 'float64') {
    const v = new DataView(new ArrayBuffer(8));
    v.setBigUint64(0, BigInt.asUintN(64, raw));
    x = v.getFloat64(0);
  } else x = Number(l.signed ? BigInt.asIntN(l.length, raw) : BigInt.asUintN(l.length, raw));
  return x * l.factor + l.offset;
}

function same(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

describe('DBC decode and encode: random layouts', () => {
  it('decodes random payloads like the bit-by-bit reference (codegen and closures)', () => {
    fc.assert(
      fc.property(layoutArb, fc.uint8Array({ minLength: 64, maxLength: 64 }), (l, bytes) => {
        const { decoders } = compile(l);
        const data = bytes.subarray(0, l.size);
        const want = physical(l, referenceRaw(data, referenceBits(l.start, l.length, l.intel)));
        for (const dec of decoders) {
          const out = new Float64Array(1);
          expect(dec.decodeInto(1, false, data, out)).not.toBeNull();
          if (!same(out[0], want)) throw new Error(`got ${out[0]}, want ${want}`);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('encodes raw values into the right bits only, and decodes them back', () => {
    fc.assert(
      fc.property(layoutArb, fc.bigInt(), fc.uint8Array({ minLength: 64, maxLength: 64 }), (l, anyRaw, base) => {
        const { msg, decoders } = compile(l);
        const raw = l.signed && l.kind === 'integer' ? BigInt.asIntN(l.length, anyRaw) : BigInt.asUintN(l.length, anyRaw);
        const before = base.subarray(0, l.size);
        const data = encodeMessage(msg, { S: raw }, { base: before });
        const bits = referenceBits(l.start, l.length, l.intel);
        expect(referenceRaw(data, bits)).toBe(BigInt.asUintN(l.length, raw));
        const inSignal = new Set(bits);
        for (let b = 0; b < l.size * 8; b++) {
          if (!inSignal.has(b) && ((data[b >> 3] >> (b & 7)) & 1) !== ((before[b >> 3] >> (b & 7)) & 1))
            throw new Error(`bit ${b} changed`);
        }
        const out = new Float64Array(1);
        for (const dec of decoders) {
          dec.decodeInto(1, false, data, out);
          if (!same(out[0], physical(l, raw))) throw new Error(`got ${out[0]}, want ${physical(l, raw)}`);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('round-trips physical values of integer signals up to 32 bits to the same raw step', () => {
    const intLayout = layoutArb.filter((l) => l.kind === 'integer' && l.length <= 32);
    fc.assert(
      fc.property(intLayout, fc.double({ min: 0, max: 1, noNaN: true }), (l, at) => {
        const { msg, decoders } = compile(l);
        const lo = l.signed ? -(2 ** (l.length - 1)) : 0;
        const span = 2 ** l.length - 1;
        const raw = lo + Math.round(at * span);
        const value = raw * l.factor + l.offset;
        const data = encodeMessage(msg, { S: value });
        const out = new Float64Array(1);
        decoders[0].decodeInto(1, false, data, out);
        expect(out[0]).toBe(value);
      }),
      { numRuns: 1500 },
    );
  });
});
