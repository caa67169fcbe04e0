import { describe, expect, it } from 'vitest';
import { compileDbc } from './dbc.decoder.ts';
import type { Dbc } from './dbc.model.ts';
import { parseDbc } from './dbc.parser.ts';

/** Corner cases first found by decoding the same files with cantools. Expected values are worked out by hand. */

function ok(text: string): { dbc: Dbc; warnings: string[] } {
  const r = parseDbc(text);
  if (!r.ok) throw new Error(`refused: ${r.error.line}:${r.error.col} ${r.error.reason}`);
  return { dbc: r.dbc, warnings: r.warnings.map((w) => `${w.line}:${w.col} ${w.reason}`) };
}

const bytes = (...b: number[]) => new Uint8Array(b);

describe('DBC corner cases', () => {
  it('decodes integers wider than 53 bits exactly, as BigInt where a number would round', () => {
    const { dbc } = ok(`VERSION ""
BU_: ECU
BO_ 1 WIDE: 8 ECU
 SG_ U64 : 0|64@1+ (1,0) [0|0] "" ECU
BO_ 2 SIGNED: 8 ECU
 SG_ S64 : 0|64@1- (1,0) [0|0] "" ECU
BO_ 3 MOTO: 8 ECU
 SG_ M64 : 7|64@0+ (1,0) [0|0] "" ECU
BO_ 4 SCALED: 8 ECU
 SG_ X : 0|62@1+ (2,1) [0|0] "" ECU
BO_ 5 FRACTION: 8 ECU
 SG_ F : 0|64@1+ (0.5,0) [0|0] "" ECU
`);
    const dec = compileDbc(dbc);
    const one = (id: number, data: Uint8Array) => Object.values(dec.decode({ id, ext: false, data })!.signals)[0];
    // All 64 bits set: 2^64 - 1.
    expect(one(1, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(18446744073709551615n);
    // Little-endian 0x8000000000000001 as two's complement: -2^63 + 1.
    expect(one(2, bytes(0x01, 0, 0, 0, 0, 0, 0, 0x80))).toBe(-9223372036854775807n);
    // Big-endian 0x0020000000000001 = 2^53 + 1, the first integer a double cannot hold.
    expect(one(3, bytes(0x00, 0x20, 0, 0, 0, 0, 0, 0x01))).toBe(9007199254740993n);
    // 62 bits: raw 2^60 + 1 (bytes 01 .. 10 little-endian), times 2 plus 1 = 2^61 + 3.
    expect(one(4, bytes(0x01, 0, 0, 0, 0, 0, 0, 0x10))).toBe(2305843009213693955n);
    // Small values of a wide signal stay numbers.
    expect(one(1, bytes(5, 0, 0, 0, 0, 0, 0, 0))).toBe(5);
    // A non-integer factor makes the value a real number: no BigInt, the nearest double.
    expect(one(5, bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))).toBe(2 ** 63);
  });

  it('uses the Vector long names for messages, signals and nodes, also in switch references', () => {
    const { dbc } = ok(`VERSION ""
BU_: ECU_SHORT
BO_ 100 MSG_SHORT: 8 ECU_SHORT
 SG_ SW_SHORT M : 0|8@1+ (1,0) [0|0] "" ECU_SHORT
 SG_ MUXED m1 : 8|8@1+ (1,0) [0|0] "" ECU_SHORT
BA_DEF_ BO_ "SystemMessageLongSymbol" STRING ;
BA_DEF_ SG_ "SystemSignalLongSymbol" STRING ;
BA_DEF_ BU_ "SystemNodeLongSymbol" STRING ;
BA_ "SystemMessageLongSymbol" BO_ 100 "Message_Name_Longer_Than_Thirty_Two_Chars";
BA_ "SystemSignalLongSymbol" SG_ 100 SW_SHORT "Switch_Name_Longer_Than_Thirty_Two_Chars";
BA_ "SystemNodeLongSymbol" BU_ ECU_SHORT "Engine_Control_Unit_With_A_Long_Name";
VAL_ 100 SW_SHORT 1 "one" ;
SG_MUL_VAL_ 100 MUXED SW_SHORT 1-1;
`);
    const m = dbc.messages[0];
    expect(m.name).toBe('Message_Name_Longer_Than_Thirty_Two_Chars');
    expect(m.signals.map((s) => s.name)).toEqual(['Switch_Name_Longer_Than_Thirty_Two_Chars', 'MUXED']);
    expect(m.signals[1].multiplexer?.switchName).toBe('Switch_Name_Longer_Than_Thirty_Two_Chars');
    expect(m.transmitter).toBe('Engine_Control_Unit_With_A_Long_Name');
    expect(m.signals[0].receivers).toEqual(['Engine_Control_Unit_With_A_Long_Name']);
    expect(dbc.nodes.map((n) => n.name)).toEqual(['Engine_Control_Unit_With_A_Long_Name']);
    expect(m.signals[0].values?.get(1)).toBe('one');
    const d = compileDbc(dbc).decode({ id: 100, ext: false, data: bytes(1, 7) }, { labels: true });
    expect(d).toEqual({
      message: 'Message_Name_Longer_Than_Thirty_Two_Chars',
      id: 100,
      ext: false,
      signals: { Switch_Name_Longer_Than_Thirty_Two_Chars: 1, MUXED: 7 },
      labels: { Switch_Name_Longer_Than_Thirty_Two_Chars: 'one' },
    });
  });

  it('reads an INT-typed VFrameFormat: 14 is CAN FD, 15 extended CAN FD', () => {
    const { dbc } = ok(`VERSION ""
BU_: ECU
BO_ 100 FD_STD: 8 ECU
 SG_ A : 0|8@1+ (1,0) [0|0] "" ECU
BO_ 2147483848 FD_EXT: 8 ECU
 SG_ B : 0|8@1+ (1,0) [0|0] "" ECU
BO_ 300 CLASSIC: 8 ECU
 SG_ C : 0|8@1+ (1,0) [0|0] "" ECU
BA_DEF_ BO_ "VFrameFormat" INT 0 15;
BA_DEF_DEF_ "VFrameFormat" 0;
BA_ "VFrameFormat" BO_ 100 14;
BA_ "VFrameFormat" BO_ 2147483848 15;
`);
    expect(dbc.messages.map((m) => [m.name, m.fd, m.ext, m.id])).toEqual([
      ['FD_STD', true, false, 100],
      ['FD_EXT', true, true, 200],
      ['CLASSIC', false, false, 300],
    ]);
    // An INT default of 14 makes every message without its own value CAN FD.
    const byDefault = ok(`VERSION ""
BU_: ECU
BO_ 100 M: 8 ECU
BA_DEF_ BO_ "VFrameFormat" INT 0 15;
BA_DEF_DEF_ "VFrameFormat" 14;
`);
    expect(byDefault.dbc.messages[0].fd).toBe(true);
  });

  it('keeps a float signal that carries NaN, and still leaves out an absent one', () => {
    const { dbc } = ok(`VERSION ""
BU_: ECU
BO_ 10 FLOATS: 8 ECU
 SG_ MODE M : 0|8@1+ (1,0) [0|0] "" ECU
 SG_ F m1 : 32|32@1- (1,0) [0|0] "" ECU
SIG_VALTYPE_ 10 F : 1;
`);
    const dec = compileDbc(dbc);
    // float32 0x7FC00000 (quiet NaN) little-endian in bytes 4-7.
    const nan = dec.decode({ id: 10, ext: false, data: bytes(1, 0, 0, 0, 0x00, 0x00, 0xc0, 0x7f) })!;
    expect(Object.keys(nan.signals)).toEqual(['MODE', 'F']);
    expect(nan.signals.F).toBeNaN();
    // 0x40490FDB = 3.1415927410125732 (pi as float32).
    expect(dec.decode({ id: 10, ext: false, data: bytes(1, 0, 0, 0, 0xdb, 0x0f, 0x49, 0x40) })!.signals.F).toBe(3.1415927410125732);
    // Switch 2: F is not in this frame at all.
    expect(dec.decode({ id: 10, ext: false, data: bytes(2, 0, 0, 0, 0x00, 0x00, 0xc0, 0x7f) })!.signals).toEqual({ MODE: 2 });
    // A frame too short for F: absent too.
    expect(dec.decode({ id: 10, ext: false, data: bytes(1, 0, 0, 0) })!.signals).toEqual({ MODE: 1 });
  });

  it('skips // comments with a warning', () => {
    const { dbc, warnings } = ok(`// Generated by hand
VERSION ""
BU_: ECU // the only node
BO_ 1 M: 8 ECU // engine; "quoted" text
 SG_ A : 0|8@1+ (1,0) [0|255] "" ECU // first byte
// SG_ B : 8|8@1+ (1,0) [0|255] "" ECU
CM_ SG_ 1 A "a // is no comment inside a string";
`);
    expect(dbc.nodes.map((n) => n.name)).toEqual(['ECU']);
    expect(dbc.messages[0].signals.map((s) => [s.name, s.receivers])).toEqual([['A', ['ECU']]]);
    expect(dbc.messages[0].signals[0].comment).toBe('a // is no comment inside a string');
    expect(warnings).toEqual([
      "1:1 '//' comment skipped (not DBC syntax)",
      "3:10 '//' comment skipped (not DBC syntax)",
      "4:16 '//' comment skipped (not DBC syntax)",
      "5:38 '//' comment skipped (not DBC syntax)",
      "6:1 '//' comment skipped (not DBC syntax)",
    ]);
  });

  it('accepts names that are not C identifiers, with a warning', () => {
    const { dbc, warnings } = ok(`VERSION ""
BU_: 1ECU
BO_ 300 2017_5: 8 1ECU
 SG_ 0_COUNTER : 0|4@1+ (1,0) [0|15] "" 1ECU
`);
    expect(dbc.messages[0].name).toBe('2017_5');
    expect(dbc.messages[0].signals[0].name).toBe('0_COUNTER');
    expect(compileDbc(dbc).decode({ id: 300, ext: false, data: bytes(0xfa) })?.signals).toEqual({ '0_COUNTER': 10 });
    expect(warnings).toEqual([
      '2:6 node name 1ECU is not a C identifier (starts with a digit); kept as written',
      '3:9 message name 2017_5 is not a C identifier (starts with a digit); kept as written',
      '4:6 signal name 0_COUNTER is not a C identifier (starts with a digit); kept as written',
    ]);
  });
});
