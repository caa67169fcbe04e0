/**
 * Property tests: random frames → write → read gives the frames back, per format, within
 * what the format can carry (see `error` below). And random or damaged input never makes a
 * reader throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CanFrame, FD_LENGTHS } from '../src/frame.ts';
import { LOG_FORMATS, type LogFormat, readLog, writeLog } from '../src/logs/index.ts';

const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const stdOrExt = fc.oneof(
  fc.record({ id: fc.integer({ min: 0, max: 0x7ff }), ext: fc.constant(false) }),
  fc.record({ id: fc.integer({ min: 0, max: 0x1fffffff }), ext: fc.constant(true) }),
);
const common = { ts: fc.integer({ min: 0, max: 4_000_000_000_000_000 }), channel: fc.integer({ min: 0, max: 15 }), tx: fc.boolean() };
const base = { fd: false, brs: false, esi: false, rtr: false, err: false };

const classic = fc
  .record({ ...common, addr: stdOrExt, data: bytes(0, 8), bigDlc: fc.option(fc.integer({ min: 9, max: 15 }), { nil: undefined }) })
  .map(({ addr, bigDlc, data, ...r }): CanFrame => {
    const f: CanFrame = { ...r, ...base, ...addr, data };
    if (bigDlc !== undefined && data.length === 8) f.dlc = bigDlc;
    return f;
  });
const remote = fc
  .record({ ...common, addr: stdOrExt, dlc: fc.integer({ min: 0, max: 8 }) })
  .map(({ addr, ...r }): CanFrame => ({ ...r, ...base, ...addr, rtr: true, data: new Uint8Array(0) }));
const canFd = fc
  .record({ ...common, addr: stdOrExt, len: fc.constantFrom(...FD_LENGTHS), brs: fc.boolean(), esi: fc.boolean(), seed: fc.integer() })
  .map(
    ({ addr, len, seed, ...r }): CanFrame => ({
      ...base,
      ...r,
      ...addr,
      fd: true,
      data: Uint8Array.from({ length: len }, (_, i) => (seed + i * 7) & 255),
    }),
  );
/**
 * Error frames, reduced to what each format keeps: candump everything (an id of 0 is written as
 * the bus-error class 0x80), BLF everything, ASC direction and the CAN FD mark (no id, no data),
 * TRC direction and data (no id, no CAN FD mark).
 */
const error = (fmt: LogFormat) =>
  fc
    .record({
      ...common,
      id: fc.integer({ min: 0, max: 0x1fffffff }),
      data: bytes(0, 8),
      fd: fc.boolean(),
      brs: fc.boolean(),
      esi: fc.boolean(),
    })
    .map((r): CanFrame => {
      const f: CanFrame = { ...base, ...r, brs: r.fd && r.brs, esi: r.fd && r.esi, ext: r.id > 0x7ff, err: true };
      if (fmt === 'candump' && f.id === 0) f.id = 0x80;
      if (fmt === 'asc') Object.assign(f, { id: 0, ext: false, data: new Uint8Array(0), brs: false, esi: false });
      if (fmt === 'trc') Object.assign(f, { id: 0, ext: false, fd: false, brs: false, esi: false });
      return f;
    });

const framesFor = (fmt: LogFormat) => fc.array(fc.oneof(classic, remote, canFd, error(fmt)), { maxLength: 60 });

describe.each(LOG_FORMATS)('%s round trip', (fmt) => {
  it('reads back exactly the frames it wrote', () => {
    fc.assert(
      fc.property(framesFor(fmt), (frames) => {
        const r = readLog(writeLog(frames, fmt), fmt);
        expect(r.warnings).toEqual([]);
        expect(r.error).toBeUndefined();
        expect(r.frames).toEqual(frames);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps µs timestamps over a long recording', () => {
    // Earliest frame in 2024, latest 200 days later: past 2^53 ns for BLF object times.
    const t0 = Date.UTC(2024, 0, 1) * 1000 + 999;
    const frames = [0, 1, 86_400_000_123, 200 * 86_400_000_000 + 1].map(
      (d, i): CanFrame => ({ ...base, ts: t0 + d, channel: 0, id: i, ext: false, tx: false, data: Uint8Array.of(i) }),
    );
    expect(readLog(writeLog(frames, fmt), fmt).frames).toEqual(frames);
  });

  it('never throws or loops on random or damaged input', () => {
    const sample = writeLog(
      [0, 1, 2, 3, 4, 5].map(
        (i): CanFrame => ({
          ...base,
          ts: 1_700_000_000_000_000 + i,
          channel: i % 2,
          id: i,
          ext: i % 2 === 1,
          fd: i > 3,
          tx: false,
          data: new Uint8Array(i * 3),
        }),
      ),
      fmt,
    );
    const damaged = fc
      .array(fc.tuple(fc.nat(sample.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 })
      .map((edits) => {
        const b = sample.slice();
        for (const [at, v] of edits) b[at] = v;
        return b;
      });
    const truncated = fc.nat(sample.length).map((n) => sample.slice(0, n));
    fc.assert(
      fc.property(fc.oneof(bytes(0, 400), damaged, truncated), (input) => {
        const r = readLog(input, fmt);
        // readLog's last-resort catch would say "Could not read": the readers must not get there.
        expect(r.error ?? '').not.toMatch(/^Could not read/);
        expect(Array.isArray(r.frames)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
