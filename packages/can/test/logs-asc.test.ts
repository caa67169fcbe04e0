import { describe, expect, it } from 'vitest';
import { makeFrame } from '../src/frame.ts';
import { readLog, writeLog } from '../src/logs/index.ts';
import { formatAscDate, parseAscDate } from '../src/logs/wall-clock.ts';

const hex = (s: string) => Uint8Array.from(s.match(/[0-9A-Fa-f]{2}/g) ?? [], (x) => Number.parseInt(x, 16));
// 2015-07-08 18:17:32.249 wall clock, read as UTC.
const START = Date.UTC(2015, 6, 8, 18, 17, 32, 249) * 1000;

const CANOE = `date Wed Jul 8 06:17:32.249 pm 2015
base hex  timestamps absolute
internal events logged
// version 9.0.0
Begin Triggerblock Wed Jul 8 06:17:32.249 pm 2015
   0.000000 Start of measurement
   0.001234 1  123             Rx   d 8 01 02 03 04 05 06 07 08  Length = 232000 BitCount = 119 ID = 291
   0.002000 2  1FFFFFFFx       Tx   r 4
   0.002500 1  Statistic: D 1 R 0 XD 0 XR 0 E 0 O 0 B 0.12%
   0.003000 1  ErrorFrame
   0.003500 1  Status:chip status error active
   0.004000 CANFD   3 Rx        1a1  EngineData                       1 0 d 32 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f   102203  130   303000 37c6ca5b 46500250 460a0250 20011736 20010205
   0.005000 CANFD   1 Tx      12345678x                                  0 1 2  2 aa bb        0    0     5000        0        0        0        0        0
   0.006000 CANFD   1 Rx        7ff                                       0 0 8  8 01 02 03 04 05 06 07 08   102203  130   300000 0 0 0 0 0
   0.007000 1  100             TxRq d 1 00
   0.008000 1  100             Tx   d F 01 02 03 04 05 06 07 08
End TriggerBlock
`;

describe('ASC reader', () => {
  it('reads a CANoe log: classic, extended, remote, error, CAN FD and skips other events', () => {
    const r = readLog(new TextEncoder().encode(CANOE));
    expect(r.format).toBe('asc');
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.startTime).toBe(START);
    const f = r.frames;
    expect(f).toHaveLength(7);
    expect(f[0]).toEqual(makeFrame({ ts: START + 1234, id: 0x123, data: hex('0102030405060708') }));
    expect(f[1]).toEqual(
      makeFrame({ ts: START + 2000, channel: 1, id: 0x1fffffff, ext: true, rtr: true, dlc: 4, tx: true, data: new Uint8Array(0) }),
    );
    expect(f[2]).toMatchObject({ ts: START + 3000, err: true, channel: 0 });
    expect(f[3]).toEqual(
      makeFrame({ ts: START + 4000, channel: 2, id: 0x1a1, fd: true, brs: true, data: Uint8Array.from({ length: 32 }, (_, i) => i) }),
    );
    expect(f[4]).toEqual(makeFrame({ ts: START + 5000, id: 0x12345678, ext: true, fd: true, esi: true, tx: true, data: hex('aabb') }));
    // Flags without EDL: a classic frame on a CAN FD channel.
    expect(f[5]).toEqual(makeFrame({ ts: START + 6000, id: 0x7ff, data: hex('0102030405060708') }));
    expect(f[6]).toMatchObject({ ts: START + 8000, id: 0x100, tx: true, dlc: 15, data: hex('0102030405060708') });
  });

  it('honours base dec, relative timestamps and a local-time offset', () => {
    const asc = [
      'date Thu Apr 28 10:44:52.480 2022',
      'base dec  timestamps relative',
      'no internal events logged',
      '1.000000 1  291             Rx   d 2 255 16',
      '0.500001 2  291x            Rx   d 1 1',
      '',
    ].join('\n');
    const r = readLog(asc, 'asc', { utcOffsetMinutes: 120 });
    const start = Date.UTC(2022, 3, 28, 8, 44, 52, 480) * 1000;
    expect(r.startTime).toBe(start);
    expect(r.frames.map((f) => [f.ts - start, f.id, f.ext, Array.from(f.data)])).toEqual([
      [1000000, 291, false, [255, 16]],
      [1500001, 291, true, [1]],
    ]);
  });

  it('counts line times from the trigger block date, as python-can writes it', () => {
    const asc = [
      'date Mon Mar 03 09:00:00.000 AM 2025',
      'base hex  timestamps absolute',
      'internal events logged',
      'Begin Triggerblock Sat Nov 14 10:13:20.123 PM 2023',
      ' 0.000000 Start of measurement',
      ' 0.000877 1  7           Rx   d 0',
      'End TriggerBlock',
      '',
    ].join('\n');
    const r = readLog(asc, 'asc');
    const start = Date.UTC(2023, 10, 14, 22, 13, 20, 123) * 1000;
    expect(r.startTime).toBe(start);
    expect(r.frames.map((f) => f.ts)).toEqual([start + 877]);
  });

  it('warns about broken frame lines with line numbers', () => {
    const asc = [
      'date Wed Jul 8 06:17:32.249 pm 2015',
      'base hex  timestamps absolute',
      'Begin Triggerblock',
      '0.1 1  1G3  Rx   d 1 00',
      '0.2 1  123  Rx   d 4 00 01',
      '0.3 1  800  Rx   d 1 00',
      '0.4 CANFD 1 Rx 123 1 0 8 8 00',
      'what is this',
      '0.5 1  123  Rx   d 1 7f',
      '',
    ].join('\n');
    const r = readLog(asc, 'asc');
    expect(r.frames.map((f) => f.ts - r.startTime!)).toEqual([500000]);
    expect(r.warnings.map((w) => w.line)).toEqual([4, 5, 6, 7, 8]);
  });

  it('reports a non-ASC text as an error', () => {
    expect(readLog('lorem ipsum\ndolor sit\n', 'asc').error).toMatch(/Not a Vector ASC log/);
  });
});

describe('ASC writer', () => {
  it('writes a CANoe-style file', () => {
    const frames = [
      makeFrame({ ts: START + 1234, id: 0x123, data: hex('0102') }),
      makeFrame({ ts: START + 2000, channel: 1, id: 0x1abcdef, ext: true, tx: true, rtr: true, dlc: 3, data: new Uint8Array(0) }),
      makeFrame({ ts: START + 2500, id: 0, err: true, data: new Uint8Array(0) }),
      makeFrame({ ts: START + 3000, channel: 2, id: 0x1a1, fd: true, brs: true, data: new Uint8Array(12).fill(0xab) }),
    ];
    const text = new TextDecoder().decode(writeLog(frames, 'asc', { startTime: START }));
    expect(text.split('\n')).toEqual([
      'date Wed Jul 08 06:17:32.249 pm 2015',
      'base hex  timestamps absolute',
      'internal events logged',
      '// version 9.0.0',
      'Begin Triggerblock Wed Jul 08 06:17:32.249 pm 2015',
      '   0.000000 Start of measurement',
      '   0.001234 1  123             Rx   d 2 01 02',
      '   0.002000 2  1ABCDEFx        Tx   r 3',
      '   0.002500 1  ErrorFrame',
      `   0.003000 CANFD   3 Rx        1A1${' '.repeat(34)}1 0 9 12${' AB'.repeat(12)}        0    0     3000        0        0        0        0        0`,
      'End TriggerBlock',
      '',
    ]);
  });

  it('formats and parses wall-clock dates symmetrically', () => {
    for (const us of [0, START, Date.UTC(2024, 1, 29, 0, 0, 0, 1) * 1000, Date.UTC(2030, 11, 31, 12, 59, 59, 999) * 1000]) {
      expect(parseAscDate(formatAscDate(us, -300), -300)).toBe(us);
    }
    expect(formatAscDate(Date.UTC(2024, 0, 1, 0, 5, 0, 7) * 1000)).toBe('Mon Jan 01 12:05:00.007 am 2024');
    expect(parseAscDate('Do Okt 20 14:03:11.015 2022')).toBe(Date.UTC(2022, 9, 20, 14, 3, 11, 15) * 1000);
  });
});
