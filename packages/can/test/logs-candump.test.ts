import { describe, expect, it } from 'vitest';
import { makeFrame } from '../src/frame.ts';
import { readLog, writeLog } from '../src/logs/index.ts';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (x) => Number.parseInt(x, 16));

describe('candump -L reader', () => {
  it('reads classic, extended, remote, FD, error and direction lines', () => {
    const log = [
      '(1436509052.249713) can0 123#DEADBEEF',
      '(1436509052.250000) vcan1 1F334455#1122 T',
      '(1436509052.300001) can0 7FF#R',
      '(1436509052.300002) can0 123#R5 R',
      '(1436509052.400000) can2 0AB##1000102030405060708090A0B',
      '(1436509052.400001) can2 12345678##3',
      '(1436509052.500000) can0 20000080#0000000000000000',
      '(1436509052.600000) can0 321#1122334455667788_D',
      '',
    ].join('\n');
    const r = readLog(new TextEncoder().encode(log));
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.format).toBe('candump');
    const f = r.frames;
    expect(f).toHaveLength(8);
    expect(f[0]).toEqual(makeFrame({ ts: 1436509052249713, id: 0x123, data: hex('DEADBEEF') }));
    expect(f[1]).toEqual(makeFrame({ ts: 1436509052250000, channel: 1, id: 0x1f334455, ext: true, tx: true, data: hex('1122') }));
    expect(f[2]).toMatchObject({ id: 0x7ff, rtr: true, dlc: 0, data: new Uint8Array(0), ext: false });
    expect(f[3]).toMatchObject({ id: 0x123, rtr: true, dlc: 5, tx: false });
    expect(f[4]).toMatchObject({
      channel: 2,
      id: 0xab,
      ext: false,
      fd: true,
      brs: true,
      esi: false,
      data: hex('000102030405060708090A0B'),
    });
    expect(f[5]).toMatchObject({ id: 0x12345678, ext: true, fd: true, brs: true, esi: true, data: new Uint8Array(0) });
    expect(f[6]).toMatchObject({ err: true, id: 0x80, ext: false, data: new Uint8Array(8) });
    expect(f[7]).toMatchObject({ id: 0x321, dlc: 13, data: hex('1122334455667788') });
  });

  it('keeps microseconds exact where a float parse would round', () => {
    // 1700000000.000001 is not representable as a double; µs must still come out exact.
    const r = readLog('(1700000000.000001) can0 001#\n(1700000000.999999) can0 002#\n(5.5) can0 003#\n(7.1234567) can0 004#\n');
    expect(r.frames.map((f) => f.ts)).toEqual([1700000000000001, 1700000000999999, 5500000, 7123457]);
  });

  it('skips malformed lines with their line numbers and keeps the good ones', () => {
    const log = [
      '(1.000000) can0 123#00',
      'garbage',
      '(x) can0 123#00',
      '(1.000001) can0 123#0',
      '(1.000002) can0 800#00',
      '(1.000003) can0 123#001122334455667788',
      '(1.000004) can0 123#00 X',
      '(1.000005) can0 123##',
      '(1.000006) can0 123#R9',
      '(1.000007) can0 123456789#00',
      '(1.000008) can0',
      '(1.000009) can1 456#01 T',
    ].join('\r\n');
    const r = readLog(log, 'candump');
    expect(r.frames.map((f) => f.id)).toEqual([0x123, 0x456]);
    expect(r.warnings.map((w) => w.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(r.error).toBeUndefined();
  });

  it('reports a file with no readable line as an error', () => {
    const r = readLog('hello\nworld\n', 'candump');
    expect(r.frames).toEqual([]);
    expect(r.error).toMatch(/line 1/);
  });

  it('caps the warning list and counts every skipped line', () => {
    const r = readLog('bad\n'.repeat(1000), 'candump', { maxWarnings: 10 });
    expect(r.warnings.map((w) => w.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.skipped).toBe(1000);
  });
});

describe('candump -L writer', () => {
  it('writes the lines candump itself would', () => {
    const frames = [
      makeFrame({ ts: 1436509052249713, id: 0x123, data: hex('DEADBEEF') }),
      makeFrame({ ts: 1436509052000001, channel: 3, id: 0x1f334455, ext: true, tx: true, data: hex('11') }),
      makeFrame({ ts: 12, id: 0x7, rtr: true, dlc: 5, data: new Uint8Array(0) }),
      makeFrame({ ts: 13, id: 0x7, fd: true, brs: true, esi: true, data: hex('0102') }),
      makeFrame({ ts: 14, id: 0x80, err: true, data: new Uint8Array(8) }),
      makeFrame({ ts: 15, id: 0x321, dlc: 15, data: hex('0102030405060708') }),
    ];
    expect(text(writeLog(frames, 'candump'))).toBe(
      [
        '(1436509052.249713) can0 123#DEADBEEF R',
        '(1436509052.000001) can3 1F334455#11 T',
        '(0.000012) can0 007#R5 R',
        '(0.000013) can0 007##30102 R',
        '(0.000014) can0 20000080#0000000000000000 R',
        '(0.000015) can0 321#0102030405060708_F R',
        '',
      ].join('\n'),
    );
    expect(text(writeLog(frames.slice(0, 1), 'candump', { direction: false, interfacePrefix: 'vcan' }))).toBe(
      '(1436509052.249713) vcan0 123#DEADBEEF\n',
    );
  });
});
