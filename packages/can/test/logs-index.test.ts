import { describe, expect, it } from 'vitest';
import { makeFrame } from '../src/frame.ts';
import { detectLogFormat, readLog, writeLog } from '../src/logs/index.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('detectLogFormat', () => {
  it('knows the formats by file name', () => {
    expect(detectLogFormat('trip-2024-01-01.LOG')).toBe('candump');
    expect(detectLogFormat('/data/run.asc')).toBe('asc');
    expect(detectLogFormat('C:\\logs\\bus.blf')).toBe('blf');
    expect(detectLogFormat('notes.txt')).toBeNull();
    expect(detectLogFormat('README')).toBeNull();
  });

  it('knows the formats by content', () => {
    expect(detectLogFormat(enc('(1436509052.249713) can0 123#DEADBEEF\n'))).toBe('candump');
    expect(detectLogFormat(enc('date Wed Jul 8 06:17:32.249 pm 2015\nbase hex  timestamps absolute\n'))).toBe('asc');
    expect(detectLogFormat(enc('// exported\n   0.001234 1  123             Rx   d 1 00\n'))).toBe('asc');
    expect(detectLogFormat(enc('   0.004 CANFD   1 Rx 123 1 0 8 8 00 00 00 00 00 00 00 00\n'))).toBe('asc');
    expect(detectLogFormat(writeLog([makeFrame({ id: 1, data: new Uint8Array(1) })], 'blf'))).toBe('blf');
    expect(detectLogFormat(enc('id,data\n1,2\n'))).toBeNull();
    expect(detectLogFormat(new Uint8Array(0))).toBeNull();
  });
});

describe('readLog', () => {
  it('detects the format when none is given, for text and bytes alike', () => {
    const frames = [makeFrame({ ts: 1_000_000, id: 0x42, data: Uint8Array.of(1, 2, 3) })];
    for (const fmt of ['candump', 'asc', 'blf'] as const) {
      const r = readLog(writeLog(frames, fmt));
      expect(r.format).toBe(fmt);
      expect(r.frames).toEqual(frames);
    }
    expect(readLog('(1.000000) can0 042#010203\n').frames).toEqual(frames);
  });

  it('returns an error result for input that is no log', () => {
    const r = readLog(enc('%PDF-1.7 binary junk'));
    expect(r).toMatchObject({ format: null, frames: [], error: expect.stringMatching(/Unrecognised log format/) });
    expect(readLog(new Uint8Array(0)).error).toBeDefined();
    expect(readLog(enc('PK\u0003\u0004'), 'blf').error).toMatch(/LOGG/);
  });

  it('accepts an empty but well-formed log without error', () => {
    const asc = readLog(writeLog([], 'asc'));
    expect(asc).toMatchObject({ format: 'asc', frames: [], warnings: [] });
    expect(asc.error).toBeUndefined();
    const blf = readLog(writeLog([], 'blf'));
    expect(blf).toMatchObject({ format: 'blf', frames: [], warnings: [] });
    expect(blf.error).toBeUndefined();
  });
});
