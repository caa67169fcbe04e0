import { describe, expect, it } from 'vitest';
import type { Dbc, DbcMessage, DbcParseResult } from './dbc.model.ts';
import { parseDbc } from './dbc.parser.ts';

function ok(text: string): { dbc: Dbc; warnings: string[] } {
  const r: DbcParseResult = parseDbc(text);
  if (!r.ok) throw new Error(`refused: ${r.error.line}:${r.error.col} ${r.error.reason}`);
  return { dbc: r.dbc, warnings: r.warnings.map((w) => `${w.line}:${w.col} ${w.reason}`) };
}

function refused(text: string) {
  const r = parseDbc(text);
  if (r.ok) throw new Error('accepted a malformed file');
  return r.error;
}

function msg(dbc: Dbc, name: string): DbcMessage {
  const m = dbc.messages.find((x) => x.name === name);
  if (!m) throw new Error(`no message ${name}`);
  return m;
}

const HEADER = `VERSION "1.2"

NS_ :
\tNS_DESC_
\tCM_
\tBA_DEF_
\tSG_MUL_VAL_

BS_:

BU_: ECU GW Vector__XXX
`;

describe('parseDbc: grammar', () => {
  it('reads messages and signals with byte order, sign, scale, range, unit and receivers', () => {
    const { dbc, warnings } = ok(`${HEADER}
BO_ 256 ENGINE: 8 ECU
 SG_ RPM : 0|16@1+ (0.25,0) [0|16383.75] "rpm" GW,Vector__XXX
 SG_ TEMP : 23|8@0- (1,-40) [-40|215] "degC" GW
`);
    expect(warnings).toEqual([]);
    expect(dbc.version).toBe('1.2');
    expect(dbc.nodes.map((n) => n.name)).toEqual(['ECU', 'GW', 'Vector__XXX']);
    const m = msg(dbc, 'ENGINE');
    expect(m).toMatchObject({ id: 256, ext: false, length: 8, transmitter: 'ECU', fd: false });
    expect(m.signals[0]).toMatchObject({
      name: 'RPM',
      startBit: 0,
      length: 16,
      byteOrder: 'intel',
      signed: false,
      factor: 0.25,
      offset: 0,
      min: 0,
      max: 16383.75,
      unit: 'rpm',
      receivers: ['GW', 'Vector__XXX'],
    });
    expect(m.signals[1]).toMatchObject({ name: 'TEMP', startBit: 23, byteOrder: 'motorola', signed: true, offset: -40, receivers: ['GW'] });
  });

  it('reads simple multiplexing', () => {
    const { dbc } = ok(`BO_ 100 MUX: 8 ECU
 SG_ SEL M : 0|8@1+ (1,0) [0|255] "" GW
 SG_ A m0 : 8|8@1+ (1,0) [0|255] "" GW
 SG_ B m1 : 8|16@1+ (1,0) [0|65535] "" GW
`);
    const [sel, a, b] = msg(dbc, 'MUX').signals;
    expect(sel.isMultiplexer).toBe(true);
    expect(sel.multiplexer).toBeUndefined();
    expect(a.multiplexer).toEqual({ switchName: 'SEL', ranges: [[0, 0]] });
    expect(b.multiplexer).toEqual({ switchName: 'SEL', ranges: [[1, 1]] });
  });

  it('reads extended multiplexing (mNM and SG_MUL_VAL_ with several ranges)', () => {
    const { dbc } = ok(`BO_ 100 MUX: 8 ECU
 SG_ S M : 0|4@1+ (1,0) [0|15] "" GW
 SG_ T m1M : 4|4@1+ (1,0) [0|15] "" GW
 SG_ U m2 : 8|8@1+ (1,0) [0|255] "" GW

SG_MUL_VAL_ 100 T S 1-1;
SG_MUL_VAL_ 100 U T 2-3, 5-5;
`);
    const [s, t, u] = msg(dbc, 'MUX').signals;
    expect(s.isMultiplexer).toBe(true);
    expect(t.isMultiplexer).toBe(true);
    expect(t.multiplexer).toEqual({ switchName: 'S', ranges: [[1, 1]] });
    expect(u.multiplexer).toEqual({
      switchName: 'T',
      ranges: [
        [2, 3],
        [5, 5],
      ],
    });
  });

  it('reads VAL_, VAL_TABLE_ and comments with escaped quotes spanning lines', () => {
    const { dbc } = ok(`BU_: ECU GW
BO_ 1 M: 1 ECU
 SG_ G : 0|8@1+ (1,0) [0|0] "" GW
VAL_TABLE_ Gears 0 "P" 1 "R" 2 "N" 3 "D" ;
CM_ "network \\"main\\"";
CM_ BU_ ECU "engine";
CM_ BO_ 1 "the \\"M\\" message
second line";
CM_ SG_ 1 G "gear";
VAL_ 1 G 0 "Park" 1 "Reverse" -1 "SNA" ;
`);
    expect(dbc.valueTables.get('Gears')).toEqual(
      new Map([
        [0, 'P'],
        [1, 'R'],
        [2, 'N'],
        [3, 'D'],
      ]),
    );
    expect(dbc.comment).toBe('network "main"');
    expect(dbc.nodes[0].comment).toBe('engine');
    const m = msg(dbc, 'M');
    expect(m.comment).toBe('the "M" message\nsecond line');
    expect(m.signals[0].comment).toBe('gear');
    expect(m.signals[0].values?.get(1)).toBe('Reverse');
    expect(m.signals[0].values?.get(-1)).toBe('SNA');
  });

  it('reads attribute definitions, defaults and values (VFrameFormat, GenMsgCycleTime, enums by label)', () => {
    const { dbc } = ok(`BO_ 10 FAST: 64 ECU
 SG_ X : 0|8@1+ (1,0) [0|0] "" GW
BO_ 2147483668 SLOW: 8 ECU
 SG_ Y : 0|8@1+ (1,0) [0|0] "" GW
BA_DEF_ BO_ "GenMsgCycleTime" INT 0 10000;
BA_DEF_ BO_ "VFrameFormat" ENUM "StandardCAN","ExtendedCAN","reserved","J1939PG","StandardCAN_FD","ExtendedCAN_FD";
BA_DEF_ "BusType" STRING;
BA_DEF_ SG_ "GenSigStartValue" FLOAT -1e10 1e10;
BA_DEF_ BU_ "NodeLayer" HEX 0 255;
BA_DEF_DEF_ "GenMsgCycleTime" 100;
BA_DEF_DEF_ "VFrameFormat" "StandardCAN";
BA_DEF_DEF_ "BusType" "CAN FD";
BA_ "VFrameFormat" BO_ 10 4;
BA_ "GenMsgCycleTime" BO_ 10 10;
BA_ "GenSigStartValue" SG_ 10 X .5;
BA_ "NodeLayer" BU_ ECU 3;
`);
    expect(dbc.attributes.BusType).toBe('CAN FD');
    const fast = msg(dbc, 'FAST');
    expect(fast).toMatchObject({ fd: true, cycleTime: 10, length: 64 });
    expect(fast.attributes.VFrameFormat).toBe('StandardCAN_FD');
    expect(fast.signals[0].attributes.GenSigStartValue).toBe(0.5);
    const slow = msg(dbc, 'SLOW');
    expect(slow).toMatchObject({ id: 20, ext: true, fd: false, cycleTime: 100 });
    expect(dbc.attributeDefinitions.find((d) => d.name === 'VFrameFormat')?.enumValues?.[5]).toBe('ExtendedCAN_FD');
  });

  it('reads SIG_VALTYPE_, BO_TX_BU_, SIG_GROUP_ and EV_', () => {
    const { dbc, warnings } = ok(`BO_ 5 F: 16 ECU
 SG_ F32 : 0|32@1- (1,0) [0|0] "" GW
 SG_ F64 : 64|64@1- (1,0) [0|0] "" GW
 SG_ BAD : 32|16@1- (1,0) [0|0] "" GW
EV_ Speed: 1 [0|300] "km/h" 0 7 DUMMY_NODE_VECTOR0 ECU, GW;
BO_TX_BU_ 5 : GW,ECU;
SIG_VALTYPE_ 5 F32 : 1;
SIG_VALTYPE_ 5 F64 : 2;
SIG_VALTYPE_ 5 BAD : 1;
SIG_GROUP_ 5 Floats 1 : F32 F64;
`);
    const m = msg(dbc, 'F');
    expect(m.signals.map((s) => s.valueType)).toEqual(['float32', 'float64', 'integer']);
    expect(warnings.some((w) => w.includes('float32 needs 32 bits'))).toBe(true);
    expect(m.transmitters).toEqual(['GW', 'ECU']);
    expect(m.signalGroups).toEqual([{ name: 'Floats', repetitions: 1, signals: ['F32', 'F64'] }]);
    expect(dbc.environmentVariables[0]).toMatchObject({
      name: 'Speed',
      type: 1,
      min: 0,
      max: 300,
      unit: 'km/h',
      id: 7,
      nodes: ['ECU', 'GW'],
    });
  });

  it('reads J1939 as the protocol from BA_ "ProtocolType"', () => {
    const { dbc } = ok(`BA_DEF_ "ProtocolType" STRING;
BA_DEF_DEF_ "ProtocolType" "";
BA_ "ProtocolType" "J1939";
`);
    expect(dbc.protocol).toBe('J1939');
  });

  it('gives the same result for CRLF and LF files', () => {
    const text = `${HEADER}BO_ 1 M: 8 ECU\n SG_ A : 0|8@1+ (1,0) [0|0] "" GW\nCM_ SG_ 1 A "two\nlines";\n`;
    const lf = ok(text);
    const crlf = ok(text.replace(/\n/g, '\r\n'));
    expect(crlf.dbc.messages).toEqual(lf.dbc.messages);
    expect(crlf.dbc.messages[0].signals[0].comment).toBe('two\nlines');
  });

  it('skips unknown and unused sections', () => {
    const { dbc, warnings } = ok(`BO_ 1 M: 8 ECU
 SG_ A : 0|8@1+ (1,0) [0|0] "" GW
SGTYPE_ T : 8@1+ (1,0) [0|0] "" 0 Vector__XXX;
FOO_ 1 2 "x;y" 3;
BA_REL_ "X" BU_SG_REL_ ECU SG_ 1 A 3;
BO_ 2 N: 8 ECU
`);
    expect(dbc.messages.map((m) => m.name)).toEqual(['M', 'N']);
    expect(warnings).toEqual(['4:1 unknown section FOO_ skipped']);
  });

  it('ends the node list at the next statement even when it is unknown', () => {
    const { dbc, warnings } = ok('BU_: ECU\n  GW\nFOO_ x;\nBO_ 1 M: 8 ECU\n');
    expect(dbc.nodes.map((n) => n.name)).toEqual(['ECU', 'GW']);
    expect(warnings).toEqual(['3:1 unknown section FOO_ skipped']);
  });
});

describe('parseDbc: what opendbc writes', () => {
  it('takes CM_ SG_ without a signal name, .25 factors, names starting with a digit and a lone m', () => {
    const { dbc, warnings } = ok(`BO_ 304 GAS: 8 XXX
 SG_ 5_SEC_DISABLE_TIMER : 45|3@0+ (1,0) [0|7] "" XXX
 SG_ ENGINE_TORQ : 4|13@0+ (.25,-500) [-500|1547.5] "NM" XXX
BO_ 648 Motor_2: 8 Motor
 SG_ Mp_Code m : 6|2@1+ (1,0) [0|3] "" Gateway
 SG_ Getr_Code m2 : 0|6@1+ (1,0) [0|63] "" Gateway
CM_ SG_ 304 "Seems to be platform-agnostic";
CM_ 648 "bare id";
`);
    const gas = msg(dbc, 'GAS');
    expect(gas.signals[0].name).toBe('5_SEC_DISABLE_TIMER');
    expect(gas.signals[1].factor).toBe(0.25);
    expect(gas.comment).toBe('Seems to be platform-agnostic');
    const m2 = msg(dbc, 'Motor_2');
    expect(m2.signals[0].isMultiplexer).toBe(true);
    expect(m2.signals[1].multiplexer).toEqual({ switchName: 'Mp_Code', ranges: [[2, 2]] });
    expect(m2.comment).toBe('bare id');
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/^2:6 signal name 5_SEC_DISABLE_TIMER is not a C identifier/);
    expect(warnings[1]).toMatch(/^5:14 .*'m' without a value/);
  });

  it('reads ids above 0x7FF without bit 31 as extended, and drops pseudo messages', () => {
    const { dbc, warnings } = ok(`BO_ 13274 LKAS: 5 ADAS
BO_ 2147496922 LKAS_X: 5 ADAS
BO_ 3221225472 VECTOR__INDEPENDENT_SIG_MSG: 0 Vector__XXX
`);
    expect(msg(dbc, 'LKAS')).toMatchObject({ id: 13274, ext: true, decodable: true });
    expect(msg(dbc, 'LKAS_X')).toMatchObject({ id: 13274, ext: true, dbcId: 2147496922 });
    expect(msg(dbc, 'VECTOR__INDEPENDENT_SIG_MSG').decodable).toBe(false);
    expect(warnings.filter((w) => w.includes('without the extended flag'))).toHaveLength(1);
  });

  it('warns about overlapping signals but not about exclusive multiplexed ones', () => {
    const { warnings } = ok(`BO_ 1 M: 8 ECU
 SG_ S M : 0|8@1+ (1,0) [0|0] "" GW
 SG_ A m0 : 8|8@1+ (1,0) [0|0] "" GW
 SG_ B m1 : 8|8@1+ (1,0) [0|0] "" GW
 SG_ C : 12|8@1+ (1,0) [0|0] "" GW
`);
    expect(warnings).toEqual(['5:1 signals A and C of M overlap', '5:1 signals B and C of M overlap']);
  });

  it("tolerates a missing ';' at the end of a statement", () => {
    const { dbc, warnings } = ok(`BO_ 1 M: 8 ECU
 SG_ A : 0|8@1+ (1,0) [0|0] "" GW
CM_ "no semicolon"
VAL_ 1 A 0 "zero" 1 "one"
BO_ 2 N: 8 ECU
`);
    expect(dbc.comment).toBe('no semicolon');
    expect(dbc.messages[0].signals[0].values?.get(1)).toBe('one');
    expect(dbc.messages).toHaveLength(2);
    expect(warnings).toEqual(["3:19 missing ';'", "4:26 missing ';'"]);
  });
});

describe('parseDbc: refusals carry line, column and reason', () => {
  it('refuses a signal with a broken scale', () => {
    const e = refused(`BO_ 100 X: 8 N\n SG_ A : 0|8@1+ (1,0 [0|1] "" N\n`);
    expect(e).toEqual({ line: 2, col: 22, reason: "expected ')' after offset" });
  });

  it('refuses an unterminated string at its opening quote', () => {
    expect(refused(`BO_ 1 M: 8 E\n\nCM_ BO_ 1 "never closed;\n`)).toEqual({ line: 3, col: 11, reason: 'unterminated string' });
  });

  it('refuses SG_ before any BO_, bad byte orders and lengths, and stray characters', () => {
    expect(refused(' SG_ A : 0|8@1+ (1,0) [0|1] "" N').reason).toMatch(/outside a message/);
    expect(refused('BO_ 1 M: 8 E\n SG_ A : 0|8@2+ (1,0) [0|1] "" N')).toMatchObject({ line: 2, col: 14 });
    expect(refused('BO_ 1 M: 8 E\n SG_ A : 0|65@1+ (1,0) [0|1] "" N').reason).toBe('signal length must be 1..64');
    expect(refused('BO_ 1 M: 80 E').reason).toBe('message length above 64 bytes');
    expect(refused('BO_ 1 M: 8 E\n{')).toEqual({ line: 2, col: 1, reason: "unexpected '{'" });
  });
});
