import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CanFrame, FD_LENGTHS } from '../frame.ts';
import { checkBatch, decodeBatch, encodeBatch, MAX_SPAN_US, planBatches, readHeader } from './batch.ts';
import { parseTopic, upTopic } from './topics.ts';

const frameArb: fc.Arbitrary<CanFrame> = fc
  .record({
    dt: fc.integer({ min: 0, max: 5_000_000 }),
    channel: fc.integer({ min: 0, max: 255 }),
    ext: fc.boolean(),
    kind: fc.constantFrom('classic', 'fd', 'rtr', 'err'),
    id: fc.integer({ min: 0, max: 0x1fffffff }),
    fdLen: fc.constantFrom(...FD_LENGTHS),
    len: fc.integer({ min: 0, max: 8 }),
    brs: fc.boolean(),
    esi: fc.boolean(),
    tx: fc.boolean(),
    seed: fc.uint8Array({ minLength: 64, maxLength: 64 }),
  })
  .map((r) => {
    const fd = r.kind === 'fd';
    const rtr = r.kind === 'rtr';
    const len = fd ? r.fdLen : r.len;
    return {
      ts: r.dt,
      channel: r.channel,
      id: r.ext ? r.id : r.id & 0x7ff,
      ext: r.ext,
      fd,
      brs: fd && r.brs,
      esi: fd && r.esi,
      rtr,
      err: r.kind === 'err',
      tx: r.tx,
      data: rtr ? new Uint8Array(0) : r.seed.slice(0, len),
      ...(rtr ? { dlc: len } : {}),
    } satisfies CanFrame;
  });

/** Frames sorted in time from an absolute start (µs since epoch, 2020-2035). */
const framesArb = fc
  .tuple(fc.integer({ min: 1_577_836_800_000_000, max: 2_051_222_400_000_000 }), fc.array(frameArb, { minLength: 1, maxLength: 300 }))
  .map(([t0, fs]) => {
    let t = t0;
    return fs.map((f) => {
      t += f.ts % 10_000;
      return { ...f, ts: t };
    });
  });

describe('frame batch codec', () => {
  it('round-trips any frames exactly: time to the µs, channel, id, flags, length and data', () => {
    fc.assert(
      fc.property(framesArb, fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), (frames, session, seq) => {
        const b = encodeBatch(frames, { session, seq });
        const back = decodeBatch(b);
        expect(back.map((f) => ({ ...f, data: [...f.data] }))).toEqual(frames.map((f) => ({ ...f, data: [...f.data] })));
        const info = checkBatch(b);
        if (typeof info === 'string') throw new Error(info);
        expect(info.seq).toBe(seq);
        expect(info.session).toBe(session);
        expect(info.timeStart).toBe(frames[0].ts);
        expect(info.timeEnd).toBe(frames[frames.length - 1].ts);
        expect(info.ids).toEqual([...new Set(frames.map((f) => f.id))].sort((a, c) => a - c));
      }),
      { numRuns: 200 },
    );
  });

  it('takes 32 bytes of header plus 11 per frame plus the payload', () => {
    const frames: CanFrame[] = [
      {
        ts: 1_700_000_000_000_000,
        channel: 0,
        id: 0x123,
        ext: false,
        fd: false,
        brs: false,
        esi: false,
        rtr: false,
        err: false,
        tx: false,
        data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
      },
      {
        ts: 1_700_000_000_000_250,
        channel: 1,
        id: 0x18fef100,
        ext: true,
        fd: true,
        brs: true,
        esi: false,
        rtr: false,
        err: false,
        tx: true,
        data: new Uint8Array(64),
      },
    ];
    const b = encodeBatch(frames, { session: 7, seq: 42 });
    expect(b.length).toBe(32 + 2 * 11 + 8 + 64);
    expect([b[0], b[1], b[2]]).toEqual([0x4c, 0x48, 1]);
  });

  it('rejects, with a reason, every single-byte corruption that breaks the structure', () => {
    const frames: CanFrame[] = Array.from({ length: 20 }, (_, i) => ({
      ts: 1_700_000_000_000_000 + i * 100,
      channel: i % 2,
      id: 0x100 + i,
      ext: false,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: new Uint8Array([i, i, i]),
    }));
    const good = encodeBatch(frames, { session: 1, seq: 1 });
    expect(typeof checkBatch(good)).toBe('object');
    expect(checkBatch(good.subarray(0, good.length - 1))).toMatch(/size/);
    expect(checkBatch(new Uint8Array([...good, 0]))).toMatch(/size/);
    const badMagic = good.slice();
    badMagic[0] = 0;
    expect(checkBatch(badMagic)).toBe('bad magic');
    const badLen = good.slice();
    badLen[32 + 10 * 20] = 9; // first frame's length
    expect(checkBatch(badLen)).toMatch(/length 9 over 8|add up/);
    const backwards = good.slice();
    new DataView(backwards.buffer).setUint32(32 + 4, 0xffff, true); // frame 1 after frame 2
    expect(checkBatch(backwards)).toMatch(/backwards/);
    const badId = good.slice();
    new DataView(badId.buffer).setUint32(32 + 80, 0x800, true); // 11-bit id too large
    expect(checkBatch(badId)).toMatch(/out of range/);
    expect(checkBatch(new Uint8Array(10))).toMatch(/header/);
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
        const r = checkBatch(b);
        expect(typeof r === 'string' || typeof r === 'object').toBe(true);
      }),
    );
  });

  it('refuses unsorted frames and spans over an hour when encoding', () => {
    const f = (ts: number): CanFrame => ({
      ts,
      channel: 0,
      id: 1,
      ext: false,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: new Uint8Array(),
    });
    expect(() => encodeBatch([f(10), f(5)], { session: 0, seq: 0 })).toThrow(/sorted/);
    expect(() => encodeBatch([f(0), f(MAX_SPAN_US + 1)], { session: 0, seq: 0 })).toThrow(/hour/);
  });

  it('plans batches under a byte limit and one hour', () => {
    const frames = Array.from({ length: 1000 }, (_, i) => ({
      ts: i * 10_000_000,
      channel: 0,
      id: 1,
      ext: false,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: new Uint8Array(8),
    }));
    const plan = planBatches(frames, 2000);
    expect(plan[0]).toEqual([0, Math.floor((2000 - 32) / 19)]);
    expect(plan.at(-1)?.[1]).toBe(1000);
    for (const [s, e] of plan) {
      const b = encodeBatch(frames.slice(s, e), { session: 0, seq: 0 });
      expect(b.length).toBeLessThanOrEqual(2000);
      const h = readHeader(b);
      if (typeof h === 'string') throw new Error(h);
      expect(h.timeEnd - h.timeStart).toBeLessThanOrEqual(MAX_SPAN_US);
    }
  });
});

describe('topics', () => {
  it('parses device topics and refuses others', () => {
    expect(parseTopic(upTopic('0123456789ABCDEF0123', 'frames'))).toEqual({
      deviceId: '0123456789ABCDEF0123',
      direction: 'up',
      kind: 'frames',
    });
    expect(parseTopic('lh/v1/0123456789abcdef0123/up/frames')).toBeNull();
    expect(parseTopic('lh/v1/0123456789ABCDEF0123/sideways/x')).toBeNull();
    expect(parseTopic('lh/v1/0123456789ABCDEF0123/up')).toBeNull();
  });
});
