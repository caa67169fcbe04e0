/**
 * MF4 writer (finalized ASAM bus-logging files, raw or DZ-compressed, written in pieces) and
 * reader on sorted data groups and on damaged input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CanFrame, makeFrame } from '../src/frame.ts';
import { createLogWriter, readLog, writeLog } from '../src/logs/index.ts';
import { Mf4FileReader } from '../src/logs/mf4/mf4-reader.ts';
import { block, dataGroups, dv, records, startUs } from './mf4.helpers.ts';

const T0 = Date.UTC(2024, 4, 1, 8, 30) * 1000 + 123;
const base = { fd: false, brs: false, esi: false, rtr: false, err: false, tx: false };

function mixed(): CanFrame[] {
  return [
    { ...base, ts: T0, channel: 0, id: 0x123, ext: false, data: Uint8Array.of(1, 2, 3) },
    { ...base, ts: T0 + 1, channel: 1, id: 0x18fef100, ext: true, tx: true, data: Uint8Array.of(0xff, 0, 0x7f, 0x80, 1, 2, 3, 4) },
    { ...base, ts: T0 + 250, channel: 2, id: 0x7ff, ext: false, fd: true, brs: true, data: Uint8Array.from({ length: 64 }, (_, i) => i) },
    {
      ...base,
      ts: T0 + 251,
      channel: 3,
      id: 0x1abcdef,
      ext: true,
      fd: true,
      esi: true,
      tx: true,
      data: Uint8Array.from({ length: 12 }, (_, i) => 255 - i),
    },
    { ...base, ts: T0 + 300, channel: 0, id: 0x42, ext: false, fd: true, data: Uint8Array.of(9, 9) },
    { ...base, ts: T0 + 301, channel: 0, id: 0x55, ext: false, rtr: true, dlc: 6, data: new Uint8Array(0) },
    { ...base, ts: T0 + 302, channel: 5, id: 0x1f000001, ext: true, rtr: true, tx: true, dlc: 0, data: new Uint8Array(0) },
    { ...base, ts: T0 + 400, channel: 1, id: 0, ext: false, err: true, data: new Uint8Array(0) },
    { ...base, ts: T0 + 401, channel: 254, id: 0x100, ext: false, err: true, tx: true, data: Uint8Array.of(1, 2) },
    { ...base, ts: T0 + 86_400_000_000 * 3 + 7, channel: 0, id: 0x321, ext: false, data: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8), dlc: 13 },
  ];
}

describe('MF4 writer', () => {
  it.each([false, true])('writes a finalized bus-logging file (compress %s) that reads back equal', (compress) => {
    const frames = mixed();
    const file = writeLog(frames, 'mf4', { compress });
    expect(String.fromCharCode(...file.subarray(0, 16))).toBe('MDF     4.11    ');
    expect(dv(file).getUint16(28, true)).toBe(411);
    expect(dv(file).getUint16(60, true)).toBe(0); // no unfinalized flags
    expect(startUs(file)).toBe(T0);
    const [g, ...more] = dataGroups(file);
    expect(more).toEqual([]);
    expect(g.recIdSize).toBe(1);
    expect(g.groups.map((x) => [x.recordId, x.acqName, x.cycles, x.flags])).toEqual([
      [1, 'CAN_DataFrame', 4, 6],
      [2, 'CAN_DataFrame', 2, 6],
      [3, 'CAN_RemoteFrame', 2, 6],
      [4, 'CAN_ErrorFrame', 2, 6],
    ]);
    for (const x of g.groups) {
      const kind = x.acqName;
      expect(x.channelNames.slice(0, 2)).toEqual(['Timestamp', kind]);
      for (const m of ['BusChannel', 'ID', 'IDE', 'DLC', 'DataLength', 'Dir']) expect(x.channelNames).toContain(`${kind}.${m}`);
      if (kind !== 'CAN_RemoteFrame') for (const m of ['DataBytes', 'EDL', 'BRS', 'ESI']) expect(x.channelNames).toContain(`${kind}.${m}`);
    }
    if (!compress) {
      const dt = block(file, g.dataLink);
      expect(dt.id).toBe('##DT');
      expect(g.dataLink + dt.length).toBe(file.length);
      expect(records(file, g).map((r) => r.id)).toEqual([1, 1, 2, 2, 1, 3, 3, 4, 4, 1]);
    } else {
      expect(block(file, g.dataLink).id).toBe('##HL');
      expect(block(file, block(file, g.dataLink).links[0]).id).toBe('##DL');
    }
    const r = readLog(file);
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.frames).toEqual(frames);
  });

  it('stores the fields where its channel blocks say: BusChannel 1-based, Dir 1 = Tx, times in µs since the start', () => {
    const frames = mixed();
    const file = writeLog(frames, 'mf4');
    const [g] = dataGroups(file);
    const recs = records(file, g);
    const v = dv(file);
    // Frame 1: record id 1, INT64 time at 0, ID+IDE at 8, DLC|Dir|EDL|BRS|ESI at 12, DataLength 13, BusChannel 14.
    const r1 = recs[1].at;
    expect(Number(v.getBigInt64(r1, true))).toBe(1);
    expect(v.getUint32(r1 + 8, true)).toBe((0x18fef100 | 0x80000000) >>> 0);
    expect(file[r1 + 12]).toBe(8 | 0x10);
    expect(file[r1 + 13]).toBe(8);
    expect(v.getUint16(r1 + 14, true)).toBe(2);
    expect(Buffer.from(file.subarray(r1 + 16, r1 + 24)).toString('hex')).toBe('ff007f8001020304');
    // Frame 3: CAN FD, 12 bytes: DLC 9, EDL and ESI set, Tx.
    const r3 = recs[3].at;
    expect(file[r3 + 12]).toBe(9 | 0x10 | 0x20 | 0x80);
    expect(file[r3 + 13]).toBe(12);
  });

  it('first writes an unfinalized file that already reads back, then finalizes it through header()', () => {
    const frames = Array.from({ length: 3000 }, (_, i) =>
      makeFrame({ ts: T0 + i * 997, channel: i % 4, id: 0x100 + (i % 50), data: Uint8Array.of(i & 255, i >> 8) }),
    );
    const w = createLogWriter('mf4');
    const parts = [w.write(frames.slice(0, 1000)), w.write(frames.slice(1000)), w.end()];
    const file = Buffer.concat(parts);
    expect(String.fromCharCode(...file.subarray(0, 8))).toBe('UnFinMF ');
    expect(readLog(file).frames).toEqual(frames);
    const head = w.header?.() as Uint8Array;
    file.set(head);
    expect(String.fromCharCode(...file.subarray(0, 8))).toBe('MDF     ');
    const [g] = dataGroups(file);
    expect(g.groups[0].cycles).toBe(3000);
    expect(Buffer.from(file).equals(writeLog(frames, 'mf4'))).toBe(true);
  });

  it('writes in bounded pieces with compression: DZ blocks of 4 MiB listed at the end', () => {
    const frames = Array.from({ length: 200_000 }, (_, i) =>
      makeFrame({ ts: T0 + i * 100, id: i & 0x7ff, data: Uint8Array.of(i & 255, (i >> 8) & 255, 3, 4, 5, 6, 7, 8) }),
    );
    const w = createLogWriter('mf4', { compress: true });
    const parts: Uint8Array[] = [];
    for (let i = 0; i < frames.length; i += 25_000) parts.push(w.write(frames.slice(i, i + 25_000)));
    parts.push(w.end());
    // 200 000 records of 25 bytes: 5 MB raw in two blocks, the first handed out as soon as it is full.
    expect(parts.findIndex((p) => p.length > 1000)).toBeLessThan(8);
    const file = Buffer.concat(parts);
    file.set(w.header?.() as Uint8Array);
    const [g] = dataGroups(file);
    const dl = block(file, block(file, g.dataLink).links[0]);
    expect(dl.links.slice(1).map((l) => block(file, l).id)).toEqual(['##DZ', '##DZ']);
    expect(file.length).toBeLessThan(5_000_000 / 3);
    const r = readLog(file);
    expect(r.frames.length).toBe(frames.length);
    expect(r.frames[199_999]).toEqual(frames[199_999]);
  });
});

/**
 * A sorted file built by hand: two data groups without record ids, a python-can-like layout
 * (Timestamp REAL64 in s; ID a UINT32 with IDE in bit 31; byte-sized fields; 64 DataBytes) for
 * data frames and a remote-frame group, their times interleaved.
 */
function sortedFile(vlsd = false): { file: Uint8Array; frames: CanFrame[] } {
  const blocks: { id: string; links: (number | string)[]; data: Uint8Array; name: string }[] = [];
  const add = (name: string, id: string, links: (number | string)[], data: Uint8Array) => blocks.push({ id, links, data, name });
  const tx = (name: string, s: string) => add(name, '##TX', [], Buffer.from(`${s}\0`));
  const cn = (
    name: string,
    next: string | number,
    title: string,
    f: { type?: number; sync?: number; dt: number; byte: number; bits: number; comp?: string; data?: string },
  ) => {
    const d = new Uint8Array(72);
    const v = dv(d);
    d[0] = f.type ?? 0;
    d[1] = f.sync ?? 0;
    d[2] = f.dt;
    v.setUint32(4, f.byte, true);
    v.setUint32(8, f.bits, true);
    tx(`${name}.tx`, title);
    add(name, '##CN', [next, f.comp ?? 0, `${name}.tx`, 0, 0, f.data ?? 0, 0, 0], d);
  };
  const hdData = new Uint8Array(32);
  dv(hdData).setBigUint64(0, BigInt(T0) * 1000n, true);
  add('hd', '##HD', ['dg1', 0, 0, 0, 0, 0], hdData);
  const dg = (name: string, next: string | number, cg: string, dt: string) => add(name, '##DG', [next, cg, dt, 0], new Uint8Array(8));
  const cg = (name: string, first: string, size: number, count: number) => {
    const d = new Uint8Array(32);
    dv(d).setBigUint64(8, BigInt(count), true);
    dv(d).setUint32(24, size, true);
    add(name, '##CG', [0, first, 0, 0, 0, 0], d);
  };
  dg('dg1', 'dg2', 'cg1', 'dt1');
  dg('dg2', 0, 'cg2', 'dt2');
  // With `vlsd`, DataBytes is a UINT64 offset into SD blocks (two, under a DL) instead of 64 bytes.
  const size1 = vlsd ? 24 : 80;
  cg('cg1', 't1', size1, 3);
  cn('t1', 's1', 'Timestamp', { type: 2, sync: 1, dt: 4, byte: 0, bits: 64 });
  cn('s1', 0, 'CAN_DataFrame', { dt: 10, byte: 8, bits: (size1 - 8) * 8, comp: 'm1' });
  cn('m1', 'm2', 'CAN_DataFrame.BusChannel', { dt: 0, byte: 8, bits: 8 });
  cn('m2', 'm3', 'CAN_DataFrame.ID', { dt: 0, byte: 9, bits: 32 });
  cn('m3', 'm4', 'CAN_DataFrame.DLC', { dt: 0, byte: 13, bits: 8 });
  cn('m4', 'm5', 'CAN_DataFrame.DataLength', { dt: 0, byte: 14, bits: 8 });
  cn('m5', 'm6', 'CAN_DataFrame.Dir', { dt: 0, byte: 15, bits: 8 });
  if (vlsd) cn('m6', 0, 'CAN_DataFrame.DataBytes', { type: 1, dt: 10, byte: 16, bits: 64, data: 'sdl' });
  else cn('m6', 0, 'CAN_DataFrame.DataBytes', { dt: 10, byte: 16, bits: 64 * 8 });
  cg('cg2', 't2', 15, 2);
  cn('t2', 's2', 'Timestamp', { type: 2, sync: 1, dt: 4, byte: 0, bits: 64 });
  cn('s2', 0, 'CAN_RemoteFrame', { dt: 10, byte: 8, bits: 7 * 8, comp: 'r1' });
  cn('r1', 'r2', 'CAN_RemoteFrame.BusChannel', { dt: 0, byte: 8, bits: 8 });
  cn('r2', 'r3', 'CAN_RemoteFrame.ID', { dt: 0, byte: 9, bits: 32 });
  cn('r3', 'r4', 'CAN_RemoteFrame.DLC', { dt: 0, byte: 13, bits: 8 });
  cn('r4', 0, 'CAN_RemoteFrame.Dir', { dt: 0, byte: 14, bits: 8 });
  const frames: CanFrame[] = [
    { ...base, ts: T0 + 1000, channel: 0, id: 0x100, ext: false, data: Uint8Array.of(1, 2, 3) },
    { ...base, ts: T0 + 1500, channel: 1, id: 0x18daf110, ext: true, rtr: true, dlc: 8, tx: true, data: new Uint8Array(0) },
    { ...base, ts: T0 + 2000, channel: 1, id: 0x1fffffff, ext: true, tx: true, data: Uint8Array.of(9, 8, 7, 6, 5, 4, 3, 2) },
    { ...base, ts: T0 + 2000, channel: 0, id: 0x7df, ext: false, rtr: true, dlc: 2, data: new Uint8Array(0) },
    { ...base, ts: T0 + 3000, channel: 0, id: 0x5, ext: false, data: new Uint8Array(0) },
  ];
  const dt1 = new Uint8Array(3 * size1);
  const dt2 = new Uint8Array(2 * 15);
  let n1 = 0;
  let n2 = 0;
  const sd: Uint8Array[] = [];
  let sdAt = 0;
  for (const f of frames) {
    const rec = f.rtr ? dt2.subarray(15 * n2++) : dt1.subarray(size1 * n1++);
    const v = dv(rec);
    v.setFloat64(0, (f.ts - T0) / 1e6, true);
    rec[8] = f.channel + 1;
    v.setUint32(9, (f.id | (f.ext ? 0x80000000 : 0)) >>> 0, true);
    rec[13] = f.rtr ? (f.dlc ?? 0) : f.data.length;
    if (f.rtr) rec[14] = f.tx ? 1 : 0;
    else {
      rec[14] = f.data.length;
      rec[15] = f.tx ? 1 : 0;
      if (!vlsd) rec.set(f.data, 16);
      else {
        v.setBigUint64(16, BigInt(sdAt), true);
        const entry = new Uint8Array(4 + f.data.length);
        dv(entry).setUint32(0, f.data.length, true);
        entry.set(f.data, 4);
        sd.push(entry);
        sdAt += entry.length;
      }
    }
  }
  if (vlsd) {
    // The second value straddles the two SD blocks.
    const all = Buffer.concat(sd);
    const cut = sd[0].length + 5;
    add('sd1', '##SD', [], all.subarray(0, cut));
    add('sd2', '##SD', [], all.subarray(cut));
    const dl = new Uint8Array(8 + 16);
    dv(dl).setUint32(4, 2, true);
    dv(dl).setBigUint64(16, BigInt(cut), true);
    add('sdl', '##DL', [0, 'sd1', 'sd2'], dl);
  }
  add('dt1', '##DT', [], dt1);
  add('dt2', '##DT', [], dt2);
  // Lay out and link by name.
  const at = new Map<string, number>();
  let size = 64;
  for (const b of blocks) {
    at.set(b.name, size);
    size += (24 + 8 * b.links.length + b.data.length + 7) & ~7;
  }
  const file = new Uint8Array(size);
  file.set(Buffer.from('MDF     4.10    Hand    ', 'latin1'));
  dv(file).setUint16(28, 410, true);
  for (const b of blocks) {
    const p = at.get(b.name) as number;
    const links = b.links.map((l) => (typeof l === 'string' ? (at.get(l) as number) : l));
    file.set(Buffer.from(b.id, 'latin1'), p);
    dv(file).setBigUint64(p + 8, BigInt(24 + 8 * links.length + b.data.length), true);
    dv(file).setBigUint64(p + 16, BigInt(links.length), true);
    links.forEach((l, i) => {
      dv(file).setBigUint64(p + 24 + 8 * i, BigInt(l), true);
    });
    file.set(b.data, p + 24 + 8 * links.length);
  }
  return { file, frames };
}

describe('MF4 reader on sorted data groups', () => {
  it.each([
    ['fixed DataBytes', false],
    ['DataBytes in SD blocks (VLSD)', true],
  ])('reads each group and merges the groups by time: %s', (_name, vlsd) => {
    const { file, frames } = sortedFile(vlsd);
    const r = readLog(file);
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.frames).toEqual(frames);
  });
});

/** A DT block of `records`, its length written (or left at 24, as a logger first writes it). */
function dtBlock(records: Uint8Array, lengthWritten = true): Uint8Array {
  const b = new Uint8Array((24 + records.length + 7) & ~7);
  b.set(Buffer.from('##DT', 'latin1'));
  dv(b).setBigUint64(8, BigInt(lengthWritten ? 24 + records.length : 24), true);
  b.set(records, 24);
  return b;
}

describe('MF4 reader on unfinalized files', () => {
  const frames = Array.from({ length: 300 }, (_, i) => makeFrame({ ts: T0 + i * 1000, id: 0x100 + i, data: Uint8Array.of(i & 255, 1, 2) }));
  const file = writeLog(frames, 'mf4');
  const [g] = dataGroups(file);
  const starts = records(file, g).map((r) => r.at - 1);
  const meta = file.slice(0, g.dataLink);
  const part = (from: number, to?: number) => file.subarray(starts[from], to === undefined ? file.length : starts[to]);
  const unfinalized = (b: Uint8Array, flags: number) => {
    b.set(Buffer.from('UnFinMF ', 'latin1'));
    dv(b).setUint16(60, flags, true);
    return b;
  };

  it('finds data blocks written after the last one its DL block lists, the last one running to the end', () => {
    const dt1 = dtBlock(part(0, 100));
    const dt2 = dtBlock(part(100, 180));
    const dt3 = dtBlock(part(180), false);
    const dlAt = meta.length;
    const dl = new Uint8Array(24 + 16 + 16);
    dl.set(Buffer.from('##DL', 'latin1'));
    dv(dl).setBigUint64(8, BigInt(dl.length), true);
    dv(dl).setBigUint64(16, 2n, true);
    dv(dl).setBigUint64(32, BigInt(dlAt + dl.length), true); // DT1 only
    dv(dl).setUint32(44, 1, true);
    const b = unfinalized(Buffer.concat([meta, dl, dt1, dt2, dt3.subarray(0, 24 + part(180).length)]), 1 | 4 | 16);
    dv(b).setBigUint64(g.at + 24 + 16, BigInt(dlAt), true);
    const r = readLog(b);
    expect(r.warnings).toEqual([]);
    expect(r.frames).toEqual(frames);
    // Without the flags saying the list and the last length were not updated, only what it lists is read.
    dv(b).setUint16(60, 1, true);
    expect(readLog(b).frames).toEqual(frames.slice(0, 100));
  });

  it('takes a DT block of length 24 as running to the end when the file gives no flags', () => {
    const b = unfinalized(Buffer.concat([meta, dtBlock(part(0), false).subarray(0, 24 + part(0).length)]), 0);
    expect(readLog(b).frames).toEqual(frames);
  });
});

describe('MF4 reader on damaged input', () => {
  const good = writeLog(mixed(), 'mf4');
  const zipped = writeLog(mixed(), 'mf4', { compress: true });

  it('never throws, hangs or reports an error without its byte offset', async () => {
    const damaged = (src: Uint8Array) =>
      fc.array(fc.tuple(fc.nat(src.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }).map((edits) => {
        const b = src.slice();
        for (const [at, v] of edits) b[at] = v;
        return b;
      });
    // Links and lengths are 8-byte numbers: set whole ones to extremes too.
    const bigNumbers = (src: Uint8Array) =>
      fc
        .tuple(
          fc.nat(Math.floor(src.length / 8) - 1),
          fc.constantFrom(0n, 1n, 64n, 2n ** 63n - 1n, 2n ** 64n - 1n, BigInt(src.length), 0x7fffffffn),
        )
        .map(([slot, v]) => {
          const b = src.slice();
          dv(b).setBigUint64(slot * 8, v, true);
          return b;
        });
    const cut = (src: Uint8Array) => fc.nat(src.length).map((n) => src.slice(0, n));
    const input = fc.oneof(damaged(good), damaged(zipped), bigNumbers(good), bigNumbers(zipped), cut(good), cut(zipped));
    fc.assert(
      fc.property(input, (b) => {
        const r = readLog(b, 'mf4');
        expect(r.error ?? '').not.toMatch(/^Could not read/);
        if (r.error) expect(r.errorAt?.offset).toBeTypeOf('number');
        for (const w of r.warnings) if (w.offset === undefined) expect(w.message).toMatch(/more/);
      }),
      { numRuns: 600 },
    );
    // The streaming reader takes the same paths: a sample of damaged files through it.
    for (const b of fc.sample(fc.oneof(damaged(good), bigNumbers(zipped)), 40)) {
      const reader = new Mf4FileReader((o, n) => b.subarray(o, o + n));
      for await (const _ of reader);
      expect(reader.result().error ?? '').not.toMatch(/^Could not read/);
    }
  });

  it.each([
    ['a data group list going round in a circle', (b: Uint8Array, dg: number) => dv(b).setBigUint64(dg + 24, BigInt(dg), true), /circle/],
    [
      'a link past the end of the file',
      (b: Uint8Array, dg: number) => dv(b).setBigUint64(dg + 24 + 8, BigInt(b.length + 1000), true),
      /past the end/,
    ],
    [
      'a channel group link to a non-CG block',
      (b: Uint8Array, dg: number) => dv(b).setBigUint64(dg + 24 + 8, BigInt(dg), true),
      /expected ##CG/,
    ],
    ['a block length of 2^63', (b: Uint8Array, dg: number) => dv(b).setBigUint64(dg + 8, 2n ** 63n, true), /impossible length/],
  ])('explains %s with its byte offset', (_n, damage, message) => {
    const b = good.slice();
    const dg = block(b, 64).links[0];
    damage(b, dg);
    const r = readLog(b, 'mf4');
    expect(r.frames).toEqual([]);
    expect(r.error).toMatch(message);
    expect(r.error).toMatch(/\(byte \d+\)/);
    expect(r.errorAt?.offset).toBeGreaterThanOrEqual(64);
  });

  it('refuses files that are not MDF 4 with a clear error', () => {
    expect(readLog(Buffer.from('MDF     3.30    '.padEnd(64, ' ')), 'mf4').error).toMatch(/version 3\.30 is not supported/);
    expect(readLog(Buffer.from('hello'), 'mf4').error).toMatch(/not an MF4 file/);
    const noBus = good.slice();
    // No channel group left: the file holds nothing to read.
    dv(noBus).setBigUint64(block(noBus, 64).links[0] + 24 + 8, 0n, true);
    expect(readLog(noBus, 'mf4').error).toMatch(/no CAN bus logging/);
  });

  it('reports a record cut by the end of a finalized file at its offset and keeps the frames before it', () => {
    const b = good.slice(0, good.length - 5);
    const r = readLog(b, 'mf4');
    expect(r.error).toBeUndefined();
    expect(r.frames).toEqual(mixed().slice(0, 9));
    expect(r.warnings.map((w) => w.offset)).toEqual([b.length, good.length - 25]);
  });
});
