import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CanFrame, makeFrame } from '../src/frame.ts';
import { createLogReader, createLogWriter, LOG_FORMATS, type LogFormat, readLog, writeLog } from '../src/logs/index.ts';

function sample(n: number): CanFrame[] {
  return Array.from({ length: n }, (_, i) =>
    makeFrame({
      ts: 1_700_000_000_000_000 + i * 1013,
      channel: i % 3,
      id: i % 2 ? 0x1fff0000 + i : i & 0x7ff,
      ext: i % 2 === 1,
      fd: i % 5 === 0,
      brs: i % 10 === 0,
      data: Uint8Array.from({ length: i % 5 === 0 ? 64 : i % 9 }, (_, j) => (i + j) & 255),
    }),
  );
}

/** Feeds `file` cut at `cuts`, reusing one scratch buffer for every piece as a stream would. */
function readInPieces(file: Uint8Array, fmt: LogFormat, cuts: number[]) {
  const reader = createLogReader(fmt);
  const frames: string[] = [];
  const scratch = new Uint8Array(file.length);
  let from = 0;
  for (const to of [...cuts.sort((a, b) => a - b), file.length]) {
    scratch.set(file.subarray(from, to));
    frames.push(...reader.push(scratch.subarray(0, to - from)).map(line));
    scratch.fill(0xee);
    from = to;
  }
  const last = reader.end();
  return { ...last, frames: [...frames, ...last.frames.map(line)] };
}

/** Frames as text, to compare thousands quickly (and to copy them out of the reused buffer). */
const line = (f: CanFrame) =>
  [f.ts, f.channel, f.id, f.ext, f.fd, f.brs, f.esi, f.rtr, f.err, f.tx, f.dlc, Array.from(f.data).join(' ')].join('|');

describe.each(LOG_FORMATS)('%s read in pieces', (fmt) => {
  const clean = writeLog(sample(3000), fmt, { level: 1 });
  const damaged = clean.slice();
  for (let i = 200; i < damaged.length; i += Math.floor(damaged.length / 7)) damaged[i] ^= 0x5a;

  it('gives what reading the whole file gives, wherever the pieces are cut', () => {
    fc.assert(
      fc.property(fc.constantFrom(clean, damaged), fc.array(fc.nat(clean.length), { maxLength: 12 }), (file, cuts) => {
        const whole = readLog(file, fmt);
        const pieces = readInPieces(file, fmt, cuts);
        expect(pieces.frames).toEqual(whole.frames.map(line));
        expect(pieces.warnings).toEqual(whole.warnings);
        expect(pieces.startTime).toEqual(whole.startTime);
        expect(pieces.error).toEqual(whole.error);
      }),
      { numRuns: 15 },
    );
  });

  it('hands out frames as soon as their piece has arrived', () => {
    const reader = createLogReader(fmt);
    // 80 %: past the first of the two BLF containers.
    const cut = Math.floor(clean.length * 0.8);
    const half = reader.push(clean.subarray(0, cut));
    expect(half.length).toBeGreaterThan(0);
    expect(half.length).toBeLessThan(3000);
    const rest = [...reader.push(clean.subarray(cut)), ...reader.end().frames];
    expect(half.length + rest.length).toBe(3000);
  });
});

const join = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe.each(LOG_FORMATS)('%s written in batches', (fmt) => {
  const frames = sample(5000);

  it('produces the same file as writing all frames at once', () => {
    const writer = createLogWriter(fmt, { level: 1 });
    const parts: Uint8Array[] = [];
    for (let i = 0; i < frames.length; i += 777) parts.push(writer.write(frames.slice(i, i + 777)));
    parts.push(writer.end());
    const streamed = join(parts);
    // Before the BLF header is patched the file already reads back completely.
    expect(readLog(streamed, fmt).frames.map(line)).toEqual(frames.map(line));
    if (writer.header) streamed.set(writer.header());
    // Buffer.equals: element-wise toEqual on half a megabyte takes seconds.
    expect(Buffer.from(streamed).equals(writeLog(frames, fmt, { level: 1 }))).toBe(true);
  });

  it('writes a valid empty file', () => {
    const writer = createLogWriter(fmt);
    const r = readLog(join([writer.write([]), writer.end()]), fmt);
    expect(r.frames).toEqual([]);
    expect(r.error).toBeUndefined();
  });
});

describe('pathological input read in small pieces', () => {
  const feed = (fmt: LogFormat, file: Uint8Array, piece: number) => {
    const reader = createLogReader(fmt);
    const frames: CanFrame[] = [];
    for (let i = 0; i < file.length; i += piece) frames.push(...reader.push(file.subarray(i, i + piece)));
    const r = reader.end();
    return { ...r, frames: [...frames, ...r.frames] };
  };

  it('gets past an endless text line in linear time', () => {
    const enc = new TextEncoder();
    const file = new Uint8Array(8 << 20).fill(0x41);
    const tail = enc.encode('\n(1.000000) can0 123#01\n');
    const joined = new Uint8Array(file.length + tail.length);
    joined.set(file);
    joined.set(tail, file.length);
    const started = performance.now();
    const r = feed('candump', joined, 4096);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(r.frames.map((f) => f.id)).toEqual([0x123]);
    expect(r.warnings.map((w) => w.line)).toEqual([1]);
  });

  it('gets past a BLF object that claims to be gigabytes long', () => {
    const good = writeLog([makeFrame({ ts: 1, id: 5, data: Uint8Array.of(5) })], 'blf', { compress: false });
    const file = new Uint8Array(good.length + (4 << 20));
    file.set(good.subarray(0, 144));
    // A container header whose size says 3 GB, then 4 MiB of zeros, then the real container.
    const dv = new DataView(file.buffer);
    file.set([0x4c, 0x4f, 0x42, 0x4a], 144);
    dv.setUint16(148, 16, true);
    dv.setUint16(150, 1, true);
    dv.setUint32(152, 3_000_000_000, true);
    dv.setUint32(156, 10, true);
    file.set(good.subarray(144), 144 + (4 << 20));
    const started = performance.now();
    const r = feed('blf', file, 4096);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(r.frames.map((f) => f.id)).toEqual([5]);
    expect(r.warnings[0].message).toMatch(/impossible size/);
  });
});
