import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeFrame } from '../src/frame.ts';
import { readLog, writeLog } from '../src/logs/index.ts';

/** Little-endian byte builder so the fixtures below are written out field by field. */
class Bytes {
  private out: number[] = [];
  u8(...v: number[]) {
    this.out.push(...v);
    return this;
  }
  u16(v: number) {
    return this.u8(v & 255, (v >> 8) & 255);
  }
  u32(v: number) {
    return this.u16(v & 0xffff).u16(Math.floor(v / 65536) & 0xffff);
  }
  u64(v: number) {
    return this.u32(v % 2 ** 32).u32(Math.floor(v / 2 ** 32));
  }
  ascii(s: string) {
    return this.u8(...Array.from(s, (c) => c.charCodeAt(0)));
  }
  zeros(n: number) {
    return this.u8(...new Array(n).fill(0));
  }
  bytes(b: ArrayLike<number>) {
    return this.u8(...Array.from(b));
  }
  get length() {
    return this.out.length;
  }
  done() {
    return Uint8Array.from(this.out);
  }
}

/** An object with a v1 (32-byte) or v2 (40-byte) header and `size % 4` padding. */
function obj(type: number, body: Uint8Array, o: { v2?: boolean; tenMicros?: boolean; time?: number } = {}) {
  const headerSize = o.v2 ? 40 : 32;
  const size = headerSize + body.length;
  const b = new Bytes()
    .ascii('LOBJ')
    .u16(headerSize)
    .u16(o.v2 ? 2 : 1)
    .u32(size)
    .u32(type);
  b.u32(o.tenMicros ? 1 : 2);
  if (o.v2)
    b.u8(0, 0)
      .u16(0)
      .u64(o.time ?? 0)
      .u64(0);
  else
    b.u16(0)
      .u16(0)
      .u64(o.time ?? 0);
  return b
    .bytes(body)
    .zeros(size % 4)
    .done();
}

function container(content: Uint8Array, zlib: boolean) {
  const payload = zlib ? new Uint8Array(deflateSync(content)) : content;
  const size = 32 + payload.length;
  return new Bytes()
    .ascii('LOBJ')
    .u16(16)
    .u16(1)
    .u32(size)
    .u32(10)
    .u16(zlib ? 2 : 0)
    .zeros(6)
    .u32(content.length)
    .zeros(4)
    .bytes(payload)
    .zeros(size % 4)
    .done();
}

/** File header with start SYSTEMTIME 2021-03-04 05:06:07.089 (Thursday). */
function file(...parts: Uint8Array[]) {
  const b = new Bytes().ascii('LOGG').u32(144).u8(2, 9, 1, 0, 4, 2, 0, 0);
  const total = 144 + parts.reduce((n, p) => n + p.length, 0);
  b.u64(total).u64(total).u32(0).u32(0);
  for (const v of [2021, 3, 4, 4, 5, 6, 7, 89]) b.u16(v);
  b.zeros(16).zeros(144 - 72);
  for (const p of parts) b.bytes(p);
  return b.done();
}

const START = Date.UTC(2021, 2, 4, 5, 6, 7, 89) * 1000;
const cat = (...a: Uint8Array[]) => Uint8Array.from(a.flatMap((x) => Array.from(x)));

const canMessage = (ch: number, flags: number, dlc: number, id: number, data: number[]) =>
  new Bytes()
    .u16(ch)
    .u8(flags, dlc)
    .u32(id)
    .bytes([...data, 0, 0, 0, 0, 0, 0, 0, 0].slice(0, 8))
    .done();
const canMessage2 = (ch: number, flags: number, dlc: number, id: number, data: number[]) =>
  cat(canMessage(ch, flags, dlc, id, data), new Bytes().u32(0).u8(0, 0).u16(0).done());
const canFd = (ch: number, flags: number, dlc: number, id: number, fdFlags: number, data: number[]) =>
  new Bytes()
    .u16(ch)
    .u8(flags, dlc)
    .u32(id)
    .u32(0)
    .u8(0, fdFlags, data.length, 0)
    .u32(0)
    .bytes(data)
    .zeros(64 - data.length)
    .u32(0)
    .done();
const canFd64 = (ch: number, dlc: number, id: number, flags: number, dir: number, data: number[]) =>
  new Bytes().u8(ch, dlc, data.length, 0).u32(id).u32(0).u32(flags).zeros(16).u16(0).u8(dir, 0).u32(0).bytes(data).done();
const errorExt = (ch: number, dlc: number, id: number, data: number[]) =>
  new Bytes()
    .u16(ch)
    .u16(0)
    .u32(0)
    .u8(0, 0, dlc, 0)
    .u32(0)
    .u32(id)
    .u16(0)
    .u16(0)
    .bytes(data)
    .zeros(8 - data.length)
    .done();

describe('BLF reader', () => {
  it('reads every supported object type from zlib and stored containers', () => {
    const fd32 = Array.from({ length: 32 }, (_, i) => i);
    const inner1 = cat(
      obj(1, canMessage(1, 0, 3, 0x123, [1, 2, 3]), { time: 1_000_000 }),
      obj(86, canMessage2(2, 0x01, 8, 0x80000000 | 0x1abcdef0, [1, 2, 3, 4, 5, 6, 7, 8]), { v2: true, time: 2_000_000 }),
      obj(1, canMessage(1, 0x80, 5, 0x7ff, []), { tenMicros: true, time: 300 }),
      obj(96, new Uint8Array(44), { time: 4_000_000 }), // GLOBAL_MARKER: not a frame, ignored
    );
    const inner2 = cat(
      obj(100, canFd(3, 0, 13, 0x456, 0x1 | 0x2, fd32), { time: 5_000_000 }),
      obj(101, canFd64(1, 9, 0x80000000 | 0x18fef100, 0x1000 | 0x4000, 1, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2]), { time: 6_000_001 }),
      obj(101, canFd64(2, 4, 0x12, 0x0010, 0, []), { time: 6_500_000 }),
      obj(73, errorExt(1, 8, 0x80, [0, 0, 0x80, 0, 0, 0, 0, 0]), { time: 7_000_000 }),
    );
    const r = readLog(file(container(inner1, true), container(inner2, false)));
    expect(r.format).toBe('blf');
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.startTime).toBe(START);
    expect(r.frames).toEqual([
      makeFrame({ ts: START + 1000, id: 0x123, data: Uint8Array.of(1, 2, 3) }),
      makeFrame({ ts: START + 2000, channel: 1, id: 0x1abcdef0, ext: true, tx: true, data: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8) }),
      makeFrame({ ts: START + 3000, id: 0x7ff, rtr: true, dlc: 5, data: new Uint8Array(0) }),
      makeFrame({ ts: START + 5000, channel: 2, id: 0x456, fd: true, brs: true, data: Uint8Array.from(fd32) }),
      makeFrame({
        ts: START + 6000,
        id: 0x18fef100,
        ext: true,
        fd: true,
        esi: true,
        tx: true,
        data: Uint8Array.of(9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2),
      }),
      makeFrame({ ts: START + 6500, channel: 1, id: 0x12, rtr: true, dlc: 4, data: new Uint8Array(0) }),
      makeFrame({ ts: START + 7000, id: 0x80, err: true, data: Uint8Array.of(0, 0, 0x80, 0, 0, 0, 0, 0) }),
    ]);
  });

  it('follows an object that continues into the next container', () => {
    const objects = cat(...Array.from({ length: 5 }, (_, i) => obj(1, canMessage(1, 0, 1, i, [i]), { time: i * 1000 })));
    const cut = 70; // inside the second object
    const r = readLog(file(container(objects.subarray(0, cut), true), container(objects.subarray(cut), true)), 'blf');
    expect(r.warnings).toEqual([]);
    expect(r.frames.map((f) => [f.id, f.ts - START])).toEqual([0, 1, 2, 3, 4].map((i) => [i, i]));
  });

  it('reads objects stored outside containers and skips damaged ones with their offset', () => {
    const good = obj(1, canMessage(1, 0, 1, 0x10, [0xaa]), { time: 1000 });
    const broken = container(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), false); // no object inside
    const bad = new Uint8Array(container(good, true));
    bad[40] ^= 0xff; // corrupt the deflate stream
    const r = readLog(file(good, broken, bad, obj(1, canMessage(2, 0, 1, 0x20, [0xbb]), { time: 2000 })), 'blf');
    expect(r.frames.map((f) => f.id)).toEqual([0x10, 0x20]);
    expect(r.warnings.length).toBeGreaterThanOrEqual(2);
    expect(r.warnings.every((w) => typeof w.offset === 'number' && w.offset >= 144)).toBe(true);
  });

  it('treats a truncated file and foreign bytes without throwing', () => {
    const whole = file(container(obj(1, canMessage(1, 0, 1, 1, [1]), { time: 0 }), true));
    for (let n = 0; n < whole.length; n += 7) expect(() => readLog(whole.subarray(0, n), 'blf')).not.toThrow();
    expect(readLog(new TextEncoder().encode('not a blf file at all'), 'blf').error).toMatch(/LOGG/);
    expect(readLog(whole.subarray(0, whole.length - 5), 'blf').warnings.length).toBe(1);
  });
});

describe('BLF writer', () => {
  const frames = [
    makeFrame({ ts: START + 1234, id: 0x123, data: Uint8Array.of(1, 2) }),
    makeFrame({
      ts: START + 5_000_001,
      channel: 1,
      id: 0x1abcdef,
      ext: true,
      fd: true,
      brs: true,
      tx: true,
      data: new Uint8Array(20).fill(7),
    }),
    makeFrame({ ts: START + 6_000_000, id: 0x80, err: true, data: new Uint8Array(8) }),
  ];

  it('fills the file header and compresses its containers', () => {
    const blf = writeLog(frames, 'blf');
    const dv = new DataView(blf.buffer, blf.byteOffset);
    expect(new TextDecoder().decode(blf.subarray(0, 4))).toBe('LOGG');
    expect(dv.getUint32(4, true)).toBe(144);
    expect(Number(dv.getBigUint64(16, true))).toBe(blf.length);
    expect(dv.getUint32(32, true)).toBe(3);
    const sys = (o: number) => Array.from({ length: 8 }, (_, i) => dv.getUint16(o + i * 2, true));
    expect(sys(40)).toEqual([2021, 3, 4, 4, 5, 6, 7, 90]); // start rounded down to the ms
    expect(sys(56)).toEqual([2021, 3, 4, 4, 5, 6, 13, 89]); // the last frame, to the ms
    // One container, deflated; inflate it with node's zlib and look at the objects.
    expect(new TextDecoder().decode(blf.subarray(144, 148))).toBe('LOBJ');
    expect(dv.getUint32(144 + 12, true)).toBe(10);
    expect(dv.getUint16(144 + 16, true)).toBe(2);
    const size = dv.getUint32(144 + 8, true);
    const inner = new Uint8Array(inflateSync(blf.subarray(144 + 32, 144 + size)));
    expect(inner.length).toBe(dv.getUint32(144 + 24, true));
    expect(Number(dv.getBigUint64(24, true))).toBe(144 + 32 + inner.length);
    const idv = new DataView(inner.buffer, inner.byteOffset);
    const types: number[] = [];
    for (let p = 0; p < inner.length; ) {
      const s = idv.getUint32(p + 8, true);
      types.push(idv.getUint32(p + 12, true));
      p += s + (s % 4);
    }
    expect(types).toEqual([86, 101, 73]);
    expect(Number(idv.getBigUint64(24, true))).toBe(234_000); // ns after the ms-aligned start
  });

  it('takes another zlib compressor, e.g. node:zlib on the server', () => {
    let calls = 0;
    const blf = writeLog(frames, 'blf', {
      deflate: (raw) => {
        calls++;
        return new Uint8Array(deflateSync(raw));
      },
    });
    expect(calls).toBe(1);
    expect(readLog(blf, 'blf').frames).toEqual(frames);
  });

  it('reads back what it wrote, uncompressed too', () => {
    for (const compress of [true, false]) {
      const r = readLog(writeLog(frames, 'blf', { compress }), 'blf');
      expect(r.warnings).toEqual([]);
      expect(r.frames).toEqual(frames);
    }
  });
});
