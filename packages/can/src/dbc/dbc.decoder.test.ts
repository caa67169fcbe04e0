import { describe, expect, it } from 'vitest';
import { compileDbc, type DbcDecoder, j1939Pgn } from './dbc.decoder.ts';
import { parseDbc } from './dbc.parser.ts';

function decoders(text: string): DbcDecoder[] {
  const r = parseDbc(text);
  if (!r.ok) throw new Error(`${r.error.line}:${r.error.col} ${r.error.reason}`);
  // Every expectation is checked against both the generated code and the closure fallback.
  return [compileDbc(r.dbc), compileDbc(r.dbc, { codegen: false })];
}

const bytes = (...b: number[]) => Uint8Array.from(b);

// Expected values below are worked out by hand from the bit layout in the comments.
const LAYOUTS = `BO_ 100 L: 8 E
 SG_ I12 : 8|12@1+ (0.5,-10) [0|0] "" X
 SG_ IS8 : 36|8@1- (0.1,0) [0|0] "" X
 SG_ M16 : 7|16@0+ (1,0) [0|0] "" X
 SG_ M10 : 19|10@0+ (1,0) [0|0] "" X
 SG_ MS10 : 19|10@0- (1,0) [0|0] "" X
BO_ 101 W: 8 E
 SG_ U64 : 0|64@1+ (1,0) [0|0] "" X
 SG_ S64 : 0|64@1- (1,0) [0|0] "" X
BO_ 102 MW: 8 E
 SG_ M64 : 7|64@0+ (1,0) [0|0] "" X
 SG_ M40 : 7|40@0+ (1,0) [0|0] "" X
 SG_ I40 : 4|40@1- (1,0) [0|0] "" X
BO_ 103 F: 16 E
 SG_ F32I : 0|32@1- (1,0) [0|0] "" X
 SG_ F32M : 39|32@0- (2,1) [0|0] "" X
 SG_ F64I : 64|64@1- (1,0) [0|0] "" X
SIG_VALTYPE_ 103 F32I : 1;
SIG_VALTYPE_ 103 F32M : 1;
SIG_VALTYPE_ 103 F64I : 2;
`;

describe('DbcDecoder: Intel and Motorola layouts against hand-computed values', () => {
  it.each(decoders(LAYOUTS).map((d, i) => [i ? 'closures' : 'codegen', d] as const))('%s', (_, dec) => {
    // I12: byte1 = 0xAB gives raw bits 0-7, low nibble of byte2 (0x5) bits 8-11: 0x5AB = 1451 -> 1451*0.5-10.
    // IS8: bits 36..43 = high nibble of byte4 (0x8) as bits 0-3, low nibble of byte5 (0xC) as 4-7: 0xC8 = 200 -> -56.
    // M16: MSB at byte0 bit7: 0x12 then 0x34 -> 0x1234.
    // M10: MSB at byte2 bit3: byte2 bits 3..0 = 0b0101 (0xA5), byte3 bits 7..2 = 0b110000 (0xC3) -> 0b0101110000 = 368.
    const l = dec.decode({ id: 100, ext: false, data: bytes(0x12, 0xab, 0xa5, 0xc3, 0x80, 0x0c, 0, 0) });
    expect(l?.message).toBe('L');
    expect(l?.signals.I12).toBe(715.5);
    expect(l?.signals.IS8).toBeCloseTo(-5.6, 12);
    expect(l?.signals.M10).toBe(368);
    expect(l?.signals.MS10).toBe(368);
    // MS10 with all ten bits set: byte2 low nibble 0xF and byte3 top six bits -> 0x3FF = -1 signed.
    const neg = dec.decode({ id: 100, ext: false, data: bytes(0, 0, 0x0f, 0xfc, 0, 0, 0, 0) });
    expect(neg?.signals.MS10).toBe(-1);
    expect(neg?.signals.M10).toBe(1023);
    expect(dec.decode({ id: 100, ext: false, data: bytes(0x12, 0x34, 0, 0, 0, 0, 0, 0) })?.signals.M16).toBe(0x1234);

    // 64-bit: all ones is 2^64 - 1 unsigned and -1 signed. decode() gives a BigInt where the number
    // would round; decodeInto's numbers are the correctly rounded doubles (2^64 - 1 rounds to 2^64).
    const out = new Float64Array(dec.maxSignals);
    const ones = new Uint8Array(8).fill(0xff);
    expect(dec.decode({ id: 101, ext: false, data: ones })?.signals).toEqual({ U64: 18446744073709551615n, S64: -1 });
    dec.decodeInto(101, false, ones, out);
    expect([out[0], out[1]]).toEqual([2 ** 64, -1]);
    // 0x80000000_00000001 signed = -(2^63) + 1; as a number, rounded to -(2^63).
    const low = bytes(1, 0, 0, 0, 0, 0, 0, 0x80);
    expect(dec.decode({ id: 101, ext: false, data: low })?.signals.S64).toBe(-9223372036854775807n);
    dec.decodeInto(101, false, low, out);
    expect(out[1]).toBe(-(2 ** 63));
    // 2^53 + 1 is not a double: the number rounds to 2^53 (ties to even), not truncated elsewhere.
    const big = bytes(1, 0, 0, 0, 0, 0, 0x20, 0);
    expect(dec.decode({ id: 101, ext: false, data: big })?.signals.U64).toBe(9007199254740993n);
    dec.decodeInto(101, false, big, out);
    expect(out[0]).toBe(2 ** 53);
    // 2^53 + 3 rounds up to 2^53 + 4.
    dec.decodeInto(101, false, bytes(3, 0, 0, 0, 0, 0, 0x20, 0), out);
    expect(out[0]).toBe(2 ** 53 + 4);

    // Motorola 64 from byte0 bit7 is the big-endian reading of the 8 bytes.
    const mw = dec.decode({ id: 102, ext: false, data: bytes(0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef) });
    expect(mw?.signals.M64).toBe(0x0123456789abcdefn);
    // M40: the first five bytes big-endian.
    expect(mw?.signals.M40).toBe(0x0123456789);
    // I40: bytes little-endian 01 23 45 67 89 AB -> 0xAB8967452301; >> 4 -> 0xAB896745230; low 40 bits
    // 0xB896745230, whose top bit is set: negative.
    expect(mw?.signals.I40).toBe(0xb896745230 - 2 ** 40);

    // float32 1.5 = 0x3FC00000 (little-endian bytes 00 00 C0 3F); Motorola float32 from byte4 bit7:
    // big-endian bytes 3F C0 00 00 = 1.5, scaled 1.5*2+1 = 4. float64 -2.25 = 0xC002000000000000.
    const f = dec.decode({ id: 103, ext: false, data: bytes(0, 0, 0xc0, 0x3f, 0x3f, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0xc0) });
    expect(f?.signals).toEqual({ F32I: 1.5, F32M: 4, F64I: -2.25 });
  });
});

describe('DbcDecoder: frames', () => {
  const text = `BO_ 200 MUX: 8 E
 SG_ S M : 0|4@1+ (1,0) [0|0] "" X
 SG_ T m1M : 4|4@1+ (1,0) [0|0] "" X
 SG_ U m2 : 8|8@1+ (1,0) [0|0] "" X
 SG_ V m2 : 16|8@1+ (1,0) [0|0] "" X
 SG_ TAIL : 56|8@1+ (1,0) [0|0] "" X
SG_MUL_VAL_ 200 T S 1-1;
SG_MUL_VAL_ 200 U T 2-3, 5-5;
BO_ 201 SIMPLE: 8 E
 SG_ SEL M : 0|8@1+ (1,0) [0|0] "" X
 SG_ A m1 : 8|8@1+ (1,0) [0|0] "" X
 SG_ B m2 : 8|16@1+ (1,0) [0|0] "" X
BO_ 1024 STD: 8 E
 SG_ X : 0|8@1+ (1,0) [0|0] "" X
BO_ 2147484672 EXT: 8 E
 SG_ Y : 0|8@1+ (1,0) [0|0] "" X
BO_ 13274 OPENDBC_EXT: 2 E
 SG_ Z : 0|8@1+ (1,0) [0|0] "" X
BO_ 500 FD: 64 E
 SG_ LAST : 504|8@1+ (1,0) [0|0] "" X
 SG_ GEAR : 0|8@1+ (1,0) [0|0] "" X
VAL_ 500 GEAR 0 "P" 1 "R" ;
VAL_ 500 LAST -1 "SNA" ;
`;
  for (const [label, dec] of decoders(text).map((d, i) => [i ? 'closures' : 'codegen', d] as const)) {
    it(`${label}: multiplexed signals appear only under their switch value`, () => {
      expect(dec.decode({ id: 201, ext: false, data: bytes(1, 5, 6, 0, 0, 0, 0, 0) })?.signals).toEqual({ SEL: 1, A: 5 });
      expect(dec.decode({ id: 201, ext: false, data: bytes(2, 5, 6, 0, 0, 0, 0, 0) })?.signals).toEqual({ SEL: 2, B: 0x0605 });
      expect(dec.decode({ id: 201, ext: false, data: bytes(3, 5, 6, 0, 0, 0, 0, 0) })?.signals).toEqual({ SEL: 3 });
      // Extended: U needs S = 1 (so that T is present) and T in 2..3 or 5.
      const d = (b0: number) => dec.decode({ id: 200, ext: false, data: bytes(b0, 7, 8, 0, 0, 0, 0, 9) })?.signals;
      // V (m2, no SG_MUL_VAL_) hangs off the top switch S.
      expect(d(0x21)).toEqual({ S: 1, T: 2, U: 7, TAIL: 9 });
      expect(d(0x51)).toEqual({ S: 1, T: 5, U: 7, TAIL: 9 });
      expect(d(0x41)).toEqual({ S: 1, T: 4, TAIL: 9 });
      expect(d(0x22)).toEqual({ S: 2, V: 8, TAIL: 9 });
    });

    it(`${label}: a short frame decodes only the signals that fit`, () => {
      expect(dec.decode({ id: 200, ext: false, data: bytes(0x21, 7) })?.signals).toEqual({ S: 1, T: 2, U: 7 });
      expect(dec.decode({ id: 200, ext: false, data: bytes() })?.signals).toEqual({});
    });

    it(`${label}: matches (id, ext), with or without bit 31 in the file`, () => {
      const one = bytes(0x2a);
      expect(dec.decode({ id: 0x400, ext: false, data: one })?.message).toBe('STD');
      expect(dec.decode({ id: 0x400, ext: true, data: one })?.message).toBe('EXT');
      expect(dec.decode({ id: 13274, ext: true, data: one })?.message).toBe('OPENDBC_EXT');
      expect(dec.decode({ id: 13274, ext: false, data: one })).toBeNull();
      expect(dec.decode({ id: 0x7ff, ext: false, data: one })).toBeNull();
    });

    it(`${label}: CAN FD payloads up to 64 bytes and value-table labels on request`, () => {
      const data = new Uint8Array(64);
      data[0] = 1;
      data[63] = 0xff;
      const r = dec.decode({ id: 500, ext: false, data }, { labels: true });
      expect(r).toEqual({ message: 'FD', id: 500, ext: false, signals: { LAST: 255, GEAR: 1 }, labels: { GEAR: 'R', LAST: 'SNA' } });
      expect(dec.decode({ id: 500, ext: false, data })?.labels).toBeUndefined();
      expect(dec.lookup(500, false)?.message.fd).toBe(true);
    });

    it(`${label}: decodeInto writes into a reusable array, NaN for absent signals`, () => {
      const out = new Float64Array(dec.maxSignals);
      const m = dec.decodeInto(201, false, bytes(1, 5, 6, 0, 0, 0, 0, 0), out);
      expect(m?.names).toEqual(['SEL', 'A', 'B']);
      expect([...out.subarray(0, 3)]).toEqual([1, 5, Number.NaN]);
      expect(dec.decodeInto(999, false, bytes(1), out)).toBeNull();
    });
  }
});

describe('DbcDecoder: J1939', () => {
  const j1939 = `BA_DEF_ "ProtocolType" STRING;
BA_ "ProtocolType" "J1939";
BO_ 2364540158 EEC1: 8 Engine
 SG_ EngineSpeed : 24|16@1+ (0.125,0) [0|8031.875] "rpm" X
BO_ 2565668606 TP_CM: 8 Engine
 SG_ Control : 0|8@1+ (1,0) [0|255] "" X
`;
  it('matches extended frames by PGN: any priority, any source address, PDU1 destination ignored', () => {
    expect(j1939Pgn(0x0cf004fe)).toBe(0xf004);
    expect(j1939Pgn(0x18ec00fe)).toBe(0xec00);
    for (const dec of decoders(j1939)) {
      expect(dec.j1939).toBe(true);
      // EngineSpeed bytes 3..4 little-endian 0x1A40 = 6720 * 0.125 = 840 rpm.
      const data = bytes(0, 0, 0, 0x40, 0x1a, 0, 0, 0);
      expect(dec.decode({ id: 0x0cf004fe, ext: true, data })?.signals.EngineSpeed).toBe(840);
      expect(dec.decode({ id: 0x18f00400, ext: true, data })?.message).toBe('EEC1');
      expect(dec.decode({ id: 0x1cec2317, ext: true, data })?.message).toBe('TP_CM');
      expect(dec.decode({ id: 0x18f00500, ext: true, data })).toBeNull();
      expect(dec.decode({ id: 0x400, ext: false, data })).toBeNull();
    }
  });

  it('does not match by PGN when the DBC is not J1939', () => {
    const [dec] = decoders(j1939.replace('"J1939"', '"CAN"'));
    expect(dec.decode({ id: 0x0cf004fe, ext: true, data: new Uint8Array(8) })?.message).toBe('EEC1');
    expect(dec.decode({ id: 0x18f00400, ext: true, data: new Uint8Array(8) })).toBeNull();
  });
});
