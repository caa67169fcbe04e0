/**
 * Every reader against the same damage, as one class: a file is never lost for one bad line or
 * object. Each case puts one bad unit (a line; a BLF object at top level) into a good file, or
 * cuts the file inside a unit, and checks that
 * - every good frame is still read, and only those (nothing invented),
 * - the bad unit is reported with its line number (text) or byte offset (BLF), and counted,
 * - every frame handed out can be stored (the device batch encoder accepts it),
 * - the same holds read whole, read in pieces, and read from gzip;
 * and a file of nothing but damage is an error naming the line/offset, never a throw.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type CanFrame, makeFrame } from '../src/frame.ts';
import { createAutoLogReader, LOG_FORMATS, type LogFormat, type LogReadResult, readLog, writeLog } from '../src/logs/index.ts';
import { encodeBatch } from '../src/protocol/batch.ts';

const T0 = 1_712_345_678_000_000;
const enc = (s: string) => new TextEncoder().encode(s);

/** A varied, sorted sample: classic, extended, CAN FD with BRS, remote, on two channels. */
function sample(): CanFrame[] {
  return Array.from({ length: 12 }, (_, i) => {
    const fd = i % 4 === 1;
    const rtr = !fd && i % 5 === 4;
    return makeFrame({
      ts: T0 + i * 1000 + 7,
      channel: i % 2,
      id: i % 3 === 0 ? 0x18daf100 + i : 0x100 + i,
      ext: i % 3 === 0,
      fd,
      brs: fd,
      rtr,
      dlc: rtr ? 3 : undefined,
      data: rtr ? new Uint8Array(0) : Uint8Array.from({ length: fd ? 12 : i % 9 }, (_, k) => (i * 16 + k) & 255),
    });
  });
}

const key = (f: CanFrame) =>
  [f.ts, f.channel, f.id, f.ext, f.fd, f.brs, f.esi, f.rtr, f.err, f.tx, f.rtr ? f.dlc : Buffer.from(f.data).toString('hex')].join('|');

/** A file cut into units: the bytes before the first frame, one unit per frame, the bytes after. */
interface Units {
  head: Uint8Array;
  units: Uint8Array[];
  tail: Uint8Array;
}

interface Kit {
  /** Where skips are located: text formats by line, binary ones by byte offset. */
  by: 'line' | 'offset';
  split(file: Uint8Array): Units;
  /** Bad units, each standing where a frame would. */
  bad: { garbage: Uint8Array; badLength: Uint8Array; huge: Uint8Array };
  /** Bytes of a unit to keep when the file is cut inside it (so that what is left is no frame). */
  cutAt: number;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** Text formats: the unit of a frame is its line (with the line end). */
function textKit(bad: Kit['bad'], cutAt: number, frameLine: (line: string) => boolean): Kit {
  return {
    by: 'line',
    bad,
    cutAt,
    split(file) {
      const lines = new TextDecoder().decode(file).split(/(?<=\n)/);
      const first = lines.findIndex(frameLine);
      let last = lines.length - 1;
      while (!frameLine(lines[last])) last--;
      return {
        head: enc(lines.slice(0, first).join('')),
        units: lines.slice(first, last + 1).map(enc),
        tail: enc(lines.slice(last + 1).join('')),
      };
    },
  };
}

/** A BLF object at top level: "LOBJ", header size, version 1, object size, type, then `body`. */
function blfObject(type: number, body: Uint8Array, size = 32 + body.length): Uint8Array {
  const b = new Uint8Array(32 + body.length + ((32 + body.length) % 4));
  const dv = new DataView(b.buffer);
  b.set(enc('LOBJ'));
  dv.setUint16(4, 32, true);
  dv.setUint16(6, 1, true);
  dv.setUint32(8, size, true);
  dv.setUint32(12, type, true);
  dv.setUint32(16, 2, true);
  b.set(body, 32);
  return b;
}

/** A CAN_FD_MESSAGE_64 body claiming `len` data bytes (and carrying them). */
function fd64Body(len: number): Uint8Array {
  const body = new Uint8Array(40 + len);
  const dv = new DataView(body.buffer);
  body[0] = 1;
  body[1] = 15;
  body[2] = len;
  dv.setUint32(4, 0x123, true);
  dv.setUint32(12, 0x1000, true);
  return body;
}

/**
 * An MF4 record as the writer lays it out (record id, INT64 µs, ID, DLC/flags, DataLength,
 * BusChannel, DataBytes): `size` bytes in all, claiming `dataLength` data bytes.
 */
function mf4Record(recordId: number, size: number, dataLength: number): Uint8Array {
  const r = new Uint8Array(size);
  const dv = new DataView(r.buffer);
  r[0] = recordId;
  dv.setUint32(1, 500, true);
  dv.setUint32(9, 0x123, true);
  r[13] = 8;
  r[14] = dataLength;
  dv.setUint16(15, 1, true);
  return r;
}

const KITS: Record<LogFormat, Kit> = {
  candump: textKit(
    {
      garbage: enc('\u0000\u00ff @@ not a frame ## \u0007\n'),
      badLength: enc('(1712345678.000500) can0 123#00112233445566778899 R\n'),
      huge: enc(`(1712345678.000500) can0 123##1${'AB'.repeat(100_000)} R\n`),
    },
    5,
    (l) => l.startsWith('('),
  ),
  asc: textKit(
    {
      garbage: enc('\u0000\u00ff @@ not a frame ## \u0007\n'),
      badLength: enc('   0.000500 1  123             Rx   d 8 01 02 03\n'),
      huge: enc(`   0.000500 CANFD   1 Rx        123                                   1 0 f 9999 ${'AB '.repeat(70_000)}\n`),
    },
    7,
    (l) => /^\s*\d+\.\d+ (\d|CANFD)/.test(l),
  ),
  trc: textKit(
    {
      garbage: enc('\u0000\u00ff @@ not a frame ## \u0007\r\n'),
      badLength: enc('    99         0.500 DT 1      0123 Rx -  8    01 02 03\r\n'),
      huge: enc(`    99         0.500 FD 1      0123 Rx -  99999 ${'AB '.repeat(70_000)}\r\n`),
    },
    10,
    (l) => /^\s*\d+\s+\d+\.\d+ /.test(l),
  ),
  mf4: {
    by: 'offset',
    bad: {
      garbage: Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255),
      // A classic data frame record (8 data bytes) claiming 12, a CAN FD one (64) claiming 255.
      badLength: mf4Record(1, 25, 12),
      huge: mf4Record(2, 81, 255),
    },
    cutAt: 10,
    // The writer's one unsorted data group in one DT block: its records are the units. The
    // metadata goes first in its unfinalized form (as while writing: the DT block runs to the
    // end of the file), so that units can be added or taken away.
    split(file) {
      const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
      const link = (at: number) => Number(dv.getBigUint64(at, true));
      const dg = link(64 + 24);
      const dt = link(dg + 24 + 16);
      const head = file.slice(0, dt + 24);
      head.set(enc('UnFinMF '));
      new DataView(head.buffer).setUint16(60, 1 | 4, true);
      new DataView(head.buffer).setBigUint64(dt + 8, 24n, true);
      const sizes: Record<number, number> = { 1: 25, 2: 81, 3: 17, 4: 82 };
      const units: Uint8Array[] = [];
      for (let p = dt + 24; p < file.length; p += sizes[file[p]]) units.push(file.slice(p, p + sizes[file[p]]));
      return { head, units, tail: new Uint8Array(0) };
    },
  },
  blf: {
    by: 'offset',
    bad: {
      garbage: Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255),
      badLength: blfObject(101, fd64Body(10)),
      huge: blfObject(101, fd64Body(8), 0xfffffff0),
    },
    cutAt: 40,
    // Written uncompressed, the one container's objects are laid out at top level (readers take both).
    split(file) {
      const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
      const head = file.slice(0, 144);
      const containerSize = dv.getUint32(144 + 8, true);
      const objects = file.subarray(144 + 32, 144 + containerSize);
      const units: Uint8Array[] = [];
      for (let p = 0; p < objects.length; ) {
        const size = new DataView(objects.buffer, objects.byteOffset + p).getUint32(8, true);
        units.push(objects.slice(p, p + size + (size % 4)));
        p += size + (size % 4);
      }
      return { head, units, tail: new Uint8Array(0) };
    },
  },
};

/** Line (1-based) or byte offset where unit `k` of `u` starts. */
function whereUnit(kit: Kit, u: Units, k: number): number {
  if (kit.by === 'offset') return u.head.length + u.units.slice(0, k).reduce((n, x) => n + x.length, 0);
  const count = (b: Uint8Array) => b.reduce((n, c) => n + (c === 10 ? 1 : 0), 0);
  return count(u.head) + u.units.slice(0, k).reduce((n, x) => n + count(x), 0) + 1;
}

/** The same file read three ways: whole, in 997-byte pieces with the format found from the content, gzip. */
function readAll(file: Uint8Array, fmt: LogFormat): [string, LogReadResult][] {
  const pieces = createAutoLogReader();
  const frames: CanFrame[] = [];
  for (let at = 0; at < file.length; at += 997) frames.push(...pieces.push(file.subarray(at, at + 997)));
  const end = pieces.end();
  return [
    ['whole', readLog(file, fmt)],
    ['pieces', { ...end, frames: [...frames, ...end.frames] }],
    ['gzip', readLog(gzipSync(file))],
  ];
}

function expectStorable(frames: CanFrame[]) {
  for (const f of frames) expect(() => encodeBatch([{ ...f, ts: Math.round(f.ts) }], { session: 1, seq: 0 }), key(f)).not.toThrow();
}

const formats = LOG_FORMATS.filter((f) => f in KITS) as LogFormat[];

describe('every reader has a kit of damage', () => {
  it('covers every format of the table', () => {
    expect(formats).toEqual(LOG_FORMATS);
  });
});

describe.each(formats)('%s against damage', (fmt) => {
  const kit = KITS[fmt];
  const frames = sample();
  const good = writeLog(frames, fmt, { compress: false });
  const u = kit.split(good);
  const K = 5;

  it('splits its sample into one unit per frame', () => {
    expect(u.units).toHaveLength(frames.length);
    expect(readLog(concat([u.head, ...u.units, u.tail]), fmt).frames.map(key)).toEqual(frames.map(key));
  });

  describe.each(['garbage', 'badLength', 'huge'] as const)('one %s unit in the middle', (what) => {
    const file = concat([u.head, ...u.units.slice(0, K), kit.bad[what], ...u.units.slice(K), u.tail]);
    it.each(readAll(file, fmt))('read %s: all good frames, the bad unit reported where it is', (_how, r) => {
      expect(r.error).toBeUndefined();
      expect(r.format).toBe(fmt);
      expect(r.frames.map(key)).toEqual(frames.map(key));
      expect(r.skipped).toBeGreaterThanOrEqual(1);
      expect(r.warnings[0]).toMatchObject({ [kit.by]: whereUnit(kit, u, K) });
      expectStorable(r.frames);
    });
  });

  describe('cut inside a frame', () => {
    const file = concat([u.head, ...u.units.slice(0, K), u.units[K].subarray(0, kit.cutAt)]);
    it.each(readAll(file, fmt).slice(0, 2))('read %s: the frames before the cut, the cut reported', (_how, r) => {
      expect(r.error).toBeUndefined();
      expect(r.frames.map(key)).toEqual(frames.slice(0, K).map(key));
      expect(r.skipped).toBe(1);
      expect(r.warnings[0][kit.by]).toBeGreaterThanOrEqual(whereUnit(kit, u, K));
      expectStorable(r.frames);
    });
  });

  it('a gzip file cut short gives the frames before the cut and says so', () => {
    const gz = gzipSync(concat([u.head, ...u.units, u.tail]));
    const r = readLog(gz.subarray(0, Math.floor(gz.length * 0.8)));
    expect(r.skipped).toBeGreaterThanOrEqual(1);
    expect(r.warnings.some((w) => /gzip/.test(w.message))).toBe(true);
    expect(frames.map(key).slice(0, r.frames.length)).toEqual(r.frames.map(key));
  });

  it.each(['garbage', 'badLength', 'huge'] as const)('a file of nothing but %s is an error naming where', (what) => {
    const file = concat([u.head, kit.bad[what], kit.bad[what], u.tail]);
    for (const [how, r] of readAll(file, fmt)) {
      expect(r.frames, how).toEqual([]);
      // Found from the content, a file with no header and a first line of garbage is no log of any format.
      if (how !== 'whole' && r.format === null) {
        expect(u.head.length, how).toBe(0);
        expect(r.error, how).toMatch(/Unrecognised/);
        continue;
      }
      expect(r.error, how).toMatch(kit.by === 'line' ? /line \d+/ : /byte \d+/);
      expect(r.errorAt, how).toEqual({ [kit.by]: whereUnit(kit, { ...u, units: [] }, 0) });
    }
  });
});
