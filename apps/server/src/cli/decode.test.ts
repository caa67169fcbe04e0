import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { canedgeJ1939Signals, hasSamples, MF4_DIR, startUs } from '../../../../packages/can/test/mf4.helpers.ts';

const BIN = fileURLToPath(new URL('../../bin/loggerhead.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'loggerhead-decode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const dbc = file(
  'car.dbc',
  `VERSION ""
BU_: ECU
BO_ 291 ENGINE: 4 ECU
 SG_ RPM : 7|16@0+ (0.25,0) [0|16383.75] "rpm" ECU
 SG_ TEMP : 16|8@1- (1,-40) [-40|215] "degC" ECU
BO_ 2566844693 EXT_MUX: 8 ECU
 SG_ PAGE M : 0|8@1+ (1,0) [0|255] "" ECU
 SG_ A m1 : 8|8@1+ (0.5,0) [0|0] "" ECU
 SG_ B m2 : 8|16@1+ (1,0) [0|0] "" ECU
VAL_ 2566844693 PAGE 1 "first" 2 "second" ;
`,
);

// 0x123: RPM = 0x1F40 big-endian = 8000 * 0.25 = 2000; TEMP = 0x50 = 80 - 40 = 40.
// 0x18FEF115 (extended; the DBC id carries bit 31): PAGE 1 -> A = 0x14 * 0.5 = 10; PAGE 2 -> B = 0x0302.
const log = file(
  'car.log',
  `(1700000000.000100) can0 123#1F405000 R
(1700000000.000200) can0 456#00 R
(1700000000.000300) can1 18FEF115#0114000000000000 R
(1700000000.000400) can1 18FEF115#0202030000000000 R
(1700000000.000500) can0 123#1F40 R
`,
);

describe('loggerhead decode', () => {
  it('prints one JSON object per decoded frame, in log order, skipping unknown ids', () => {
    const r = run('decode', '--dbc', dbc, '--log', log);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { ts: 1700000000.0001, channel: 'can0', id: 0x123, ext: false, message: 'ENGINE', signals: { RPM: 2000, TEMP: 40 } },
      { ts: 1700000000.0003, channel: 'can1', id: 0x18fef115, ext: true, message: 'EXT_MUX', signals: { PAGE: 1, A: 10 } },
      { ts: 1700000000.0004, channel: 'can1', id: 0x18fef115, ext: true, message: 'EXT_MUX', signals: { PAGE: 2, B: 0x0302 } },
      // A 2-byte frame of a 4-byte message: only RPM fits.
      { ts: 1700000000.0005, channel: 'can0', id: 0x123, ext: false, message: 'ENGINE', signals: { RPM: 2000 } },
    ]);
    // Epoch seconds keep all six decimals of the log.
    expect(r.stdout.startsWith('{"ts": 1700000000.000100,')).toBe(true);
  });

  it('adds value-table labels with --labels', () => {
    const lines = run('decode', '--dbc', dbc, '--log', log, '--labels').stdout.trim().split('\n');
    expect(JSON.parse(lines[1]).labels).toEqual({ PAGE: 'first' });
  });

  it('prints CSV with a header and a column per signal of the messages seen', () => {
    const r = run('decode', '--dbc', dbc, '--log', log, '--format', 'csv');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'ts,channel,id,ext,message,ENGINE.RPM,ENGINE.TEMP,EXT_MUX.PAGE,EXT_MUX.A,EXT_MUX.B',
      '1700000000.000100,can0,291,false,ENGINE,2000,40,,,',
      '1700000000.000300,can1,419361045,true,EXT_MUX,,,1,10,',
      '1700000000.000400,can1,419361045,true,EXT_MUX,,,2,,770',
      '1700000000.000500,can0,291,false,ENGINE,2000,,,,',
    ]);
  });

  it('refuses a malformed DBC with file:line:col', () => {
    const bad = file('bad.dbc', 'BO_ 1 M: 8 E\n SG_ A : 0|8@2+ (1,0) [0|1] "" N\n');
    const r = run('decode', '--dbc', bad, '--log', log);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${bad}:2:14 byte order must be 0 (Motorola) or 1 (Intel)`);
  });
});

describe('loggerhead decode: values JSON cannot hold, odd lines, other formats', () => {
  const corner = file(
    'corner.dbc',
    `VERSION ""
BU_: ECU
BO_ 1 WIDE: 8 ECU
 SG_ U64 : 0|64@1+ (1,0) [0|0] "" ECU
BO_ 2 FLOAT: 4 ECU
 SG_ F : 0|32@1- (1,0) [0|0] "" ECU
SIG_VALTYPE_ 2 F : 1;
`,
  );
  // 001: all ones = 2^64 - 1 (20 digits), then 5; 002: float32 0x7FC00000 = NaN, 0x7F800000 = +Infinity,
  // 0x3FC00000 = 1.5 (little-endian bytes). Remote, CAN FD and error lines go through the full parser.
  const lines = file(
    'corner.log',
    `(1700000000.000001) can0 001#FFFFFFFFFFFFFFFF R
(1700000000.000002) can0 001#0500000000000000
(1700000000.000003) can0 002#0000C07F T
(1700000000.000004) can0 002#0000807F
(1700000000.000005) can0 002#R
(1700000000.000006) can0 002##10000C03F
(1700000000.000007) can0 20000002#0000000000000000
(1700000000.000008) vcan12 002#0000C03F
not a candump line
`,
  );

  it('writes wide integers as exact digit strings and a float NaN/Infinity as strings in JSON', () => {
    const r = run('decode', '--dbc', corner, '--log', lines);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(':9 '); // the bad line is reported (skipped)
    const out = r.stdout.trim().split('\n');
    expect(out.map((l) => JSON.parse(l))).toEqual([
      { ts: 1700000000.000001, channel: 'can0', id: 1, ext: false, message: 'WIDE', signals: { U64: '18446744073709551615' } },
      { ts: 1700000000.000002, channel: 'can0', id: 1, ext: false, message: 'WIDE', signals: { U64: 5 } },
      { ts: 1700000000.000003, channel: 'can0', id: 2, ext: false, message: 'FLOAT', signals: { F: 'NaN' } },
      { ts: 1700000000.000004, channel: 'can0', id: 2, ext: false, message: 'FLOAT', signals: { F: 'Infinity' } },
      // The CAN FD frame (read by the full parser) decodes like any other; remote and error frames do not.
      { ts: 1700000000.000006, channel: 'can0', id: 2, ext: false, message: 'FLOAT', signals: { F: 1.5 } },
      { ts: 1700000000.000008, channel: 'can12', id: 2, ext: false, message: 'FLOAT', signals: { F: 1.5 } },
    ]);
    // The exact text, not only what JSON.parse makes of it.
    expect(out[0]).toContain('"U64": "18446744073709551615"');
    expect(out[2]).toContain('"F": "NaN"');
  });

  it('writes the same values bare in CSV', () => {
    const r = run('decode', '--dbc', corner, '--log', lines, '--format', 'csv');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'ts,channel,id,ext,message,WIDE.U64,FLOAT.F',
      '1700000000.000001,can0,1,false,WIDE,18446744073709551615,',
      '1700000000.000002,can0,1,false,WIDE,5,',
      '1700000000.000003,can0,2,false,FLOAT,,NaN',
      '1700000000.000004,can0,2,false,FLOAT,,Infinity',
      '1700000000.000006,can0,2,false,FLOAT,,1.5',
      '1700000000.000008,can12,2,false,FLOAT,,1.5',
    ]);
  });

  it('reads gzip and Vector ASC logs (times since the recording start) the same way', () => {
    const gz = join(dir, 'car.log.gz');
    writeFileSync(gz, gzipSync(readFileSync(log)));
    expect(run('decode', '--dbc', dbc, '--log', gz).stdout).toBe(run('decode', '--dbc', dbc, '--log', log).stdout);
    const asc = file(
      'car.asc',
      `date Tue Nov 14 22:13:20.000 2023
base hex  timestamps absolute
no internal events logged
Begin Triggerblock Tue Nov 14 22:13:20.000 2023
   0.000100 1  123             Rx   d 4 1F 40 50 00
   0.250000 2  18FEF115x       Rx   d 8 01 14 00 00 00 00 00 00
End TriggerBlock
`,
    );
    const r = run('decode', '--dbc', dbc, '--log', asc);
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { ts: 0.0001, channel: 'can0', id: 0x123, ext: false, message: 'ENGINE', signals: { RPM: 2000, TEMP: 40 } },
      { ts: 0.25, channel: 'can1', id: 0x18fef115, ext: true, message: 'EXT_MUX', signals: { PAGE: 1, A: 10 } },
    ]);
  });
});

describe.skipIf(!hasSamples)('loggerhead decode on an MF4 log', () => {
  it('decodes a CANedge log with its J1939 DBC: the values and times of its records', () => {
    const path = join(MF4_DIR, 'canedge-j1939-a.MF4');
    const b = new Uint8Array(readFileSync(path));
    const r = run('decode', '--dbc', join(MF4_DIR, 'css-j1939-demo.dbc'), '--log', path);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ts: number; channel: string; message: string; signals: Record<string, number> });
    // Times print as seconds since the recording start (hd_start_time_ns).
    const start = startUs(b);
    const got = (message: string, signal: string) =>
      lines.filter((l) => l.message === message).map((l) => [Math.round(l.ts * 1e6) + start, l.signals[signal]]);
    const { rpm, speed } = canedgeJ1939Signals(b);
    expect(got('EEC1', 'EngineSpeed')).toEqual(rpm);
    expect(got('CCVS1', 'WheelBasedVehicleSpeed')).toEqual(speed);
    expect(lines).toHaveLength(rpm.length + speed.length);
    expect(new Set(lines.map((l) => l.channel))).toEqual(new Set(['can0']));
  });
});

describe('loggerhead dbc check', () => {
  it('prints a summary per file and fails when one file does not parse', () => {
    const bad = file('bad2.dbc', 'BO_ 1 M: 8 E\n SG_ A : 0|8@1+ (1,0 [0|1] "" N\n');
    const ok = run('dbc', 'check', dbc);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe(`${dbc}: 2 messages, 5 signals, 0 warnings`);
    const r = run('dbc', 'check', dbc, bad);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${bad}:2:22 expected ')' after offset`);
    expect(r.stdout).toContain('1 of 2 files OK');
  });
});
