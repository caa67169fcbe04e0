/**
 * MF4 reader against real CANedge logs (unfinalized, unsorted, VLSD payloads, virtual channels)
 * and against files derived from them by hand: DZ-compressed data (deflate and transposed
 * deflate) in DL/HL lists, and sorted data groups. The expected frames come from the minimal
 * walker in mf4.helpers.ts and the channel layouts the files' CN blocks declare, written out here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type CanFrame, makeFrame } from '../src/frame.ts';
import { detectLogFormat, readLog } from '../src/logs/index.ts';
import { Mf4FileReader } from '../src/logs/mf4/mf4-reader.ts';
import { block, canedgeBFrames, dataGroups, dv, hasSamples, MF4_DIR, records, startUs } from './mf4.helpers.ts';

const sample = (name: string) => new Uint8Array(readFileSync(resolve(MF4_DIR, name)));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const line = (f: CanFrame) =>
  `${f.ts} ch${f.channel} ${f.id.toString(16)}${f.ext ? 'x' : ''} ${f.fd ? 'fd' : ''}${f.rtr ? 'r' : ''}${f.err ? 'e' : ''} ${f.tx ? 'tx' : 'rx'} ${hex(f.data)}`;

if (!hasSamples) console.warn(`MF4 samples not found in ${MF4_DIR} (set MF4_DIR): sample tests skipped`);

function expectedB(b: Uint8Array): string[] {
  return canedgeBFrames(b).map(line);
}

/**
 * canedge-j1939-a.MF4: one group per bus, direction and frame kind; BusChannel, IDE and Dir are
 * virtual channels whose conversion gives the group's constant. Used groups: "CAN9_Rx" (record
 * id 32: Timestamp UINT48 µs at 0, ID 11 bits at 6, DLC bits 4-7 of byte 7, 8 DataBytes at 8)
 * and "CAN1_Rx_IDE" (record id 66: ID 29 bits at 6, DLC bits 0-3 of byte 10, DataBytes at 11).
 */
function expectedJ1939(b: Uint8Array): { all: number; lines: string[] } {
  const v = dv(b);
  const [g] = dataGroups(b);
  const start = startUs(b);
  const names = new Map(g.groups.map((x) => [x.recordId, x.acqName]));
  let all = 0;
  const lines: string[] = [];
  const time = (at: number) => v.getUint32(at, true) + v.getUint16(at + 4, true) * 2 ** 32;
  for (const r of records(b, g)) {
    if (/^CAN\d+_/.test(names.get(r.id) ?? '')) all++;
    if (r.id === 32) {
      const dlc = b[r.at + 7] >> 4;
      lines.push(
        line(
          makeFrame({
            ts: start + time(r.at),
            channel: 8,
            id: v.getUint16(r.at + 6, true) & 0x7ff,
            ext: false,
            data: b.subarray(r.at + 8, r.at + 8 + dlc),
          }),
        ),
      );
    } else if (r.id === 66) {
      const dlc = b[r.at + 10] & 15;
      lines.push(
        line(
          makeFrame({
            ts: start + time(r.at),
            channel: 0,
            id: v.getUint32(r.at + 6, true) & 0x1fffffff,
            ext: true,
            data: b.subarray(r.at + 11, r.at + 11 + dlc),
          }),
        ),
      );
    }
  }
  return { all, lines };
}

describe.skipIf(!hasSamples)('MF4 reader on CANedge logs', () => {
  it('recognises the unfinalized files', () => {
    const b = sample('canedge-b.MF4');
    expect(String.fromCharCode(...b.subarray(0, 8))).toBe('UnFinMF ');
    expect(detectLogFormat(b)).toBe('mf4');
    expect(detectLogFormat('00000001.MF4')).toBe('mf4');
  });

  it('reads every CAN frame of canedge-b, payloads from its VLSD group, times to the µs', () => {
    const b = sample('canedge-b.MF4');
    // The DT block says 24 bytes (never updated): its records run to the end of the file.
    expect(block(b, dataGroups(b)[0].dataLink).length).toBe(24);
    const r = readLog(b);
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.format).toBe('mf4');
    expect(r.startTime).toBe(startUs(b));
    const want = expectedB(b);
    expect(want).toHaveLength(1815);
    expect(r.frames.map(line)).toEqual(want);
  });

  it('reads canedge-j1939-a: constant channels, directions and id kinds from virtual channels', () => {
    const b = sample('canedge-j1939-a.MF4');
    const r = readLog(b);
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    const { all, lines } = expectedJ1939(b);
    expect(r.frames).toHaveLength(all);
    // Every CAN record of the file is in one of the two groups decoded above.
    expect(lines).toHaveLength(all);
    expect(r.frames.map(line)).toEqual(lines);
    expect(r.frames[0].ts).toBeGreaterThan(Date.UTC(2023, 10, 30) * 1000);
  });

  it('reads through a random-access source in bounded reads, with the same frames', async () => {
    const b = sample('canedge-j1939-a.MF4');
    let largest = 0;
    let total = 0;
    const reader = new Mf4FileReader(async (offset, length) => {
      largest = Math.max(largest, length);
      total += length;
      return b.subarray(offset, offset + length);
    });
    const got: string[] = [];
    let batches = 0;
    for await (const batch of reader) {
      batches++;
      for (const f of batch) got.push(line(f));
    }
    expect(reader.result().error).toBeUndefined();
    expect(got).toEqual(readLog(b).frames.map(line));
    expect(batches).toBeGreaterThan(10);
    // No read near the file's size: the 3 MB file comes in windows of at most 256 KiB.
    expect(largest).toBeLessThanOrEqual(1 << 18);
    expect(total).toBeLessThan(b.length * 1.2);
  });
});

/** Appends blocks to a file, 8-byte aligned; returns their offsets. */
function append(file: Uint8Array, blocks: Uint8Array[]): { bytes: Uint8Array; at: number[] } {
  let size = (file.length + 7) & ~7;
  const at = blocks.map((x) => {
    const a = size;
    size += (x.length + 7) & ~7;
    return a;
  });
  const out = new Uint8Array(size);
  out.set(file);
  blocks.forEach((x, i) => {
    out.set(x, at[i]);
  });
  return { bytes: out, at };
}

function header(id: string, length: number, links: number[]): Uint8Array {
  const b = new Uint8Array(length);
  const v = dv(b);
  b.set(Buffer.from(id, 'latin1'));
  v.setBigUint64(8, BigInt(length), true);
  v.setBigUint64(16, BigInt(links.length), true);
  links.forEach((l, i) => {
    v.setBigUint64(24 + 8 * i, BigInt(l), true);
  });
  return b;
}

function dz(raw: Uint8Array, transposeColumns: number): Uint8Array {
  let src = raw;
  if (transposeColumns) {
    const rows = Math.floor(raw.length / transposeColumns);
    src = new Uint8Array(raw.length);
    for (let r = 0; r < rows; r++) for (let c = 0; c < transposeColumns; c++) src[c * rows + r] = raw[r * transposeColumns + c];
    src.set(raw.subarray(rows * transposeColumns), rows * transposeColumns);
  }
  const z = deflateSync(src);
  const b = header('##DZ', 48 + z.length, []);
  const v = dv(b);
  b.set(Buffer.from('DT', 'latin1'), 24);
  b[26] = transposeColumns ? 1 : 0;
  v.setUint32(28, transposeColumns, true);
  v.setBigUint64(32, BigInt(raw.length), true);
  v.setBigUint64(40, BigInt(z.length), true);
  b.set(z, 48);
  return b;
}

/** canedge-b with its records moved into DZ blocks (cut at `cuts`, mid-record) under DL and HL. */
function compressedB(cuts: number[], columns: number, withHl: boolean): Uint8Array {
  const b = sample('canedge-b.MF4');
  const [g] = dataGroups(b);
  const dt = block(b, g.dataLink);
  const raw = b.subarray(dt.data);
  const bounds = [0, ...cuts, raw.length];
  const parts = bounds.slice(1).map((end, i) => dz(raw.subarray(bounds[i], end), columns));
  // The file stays unfinalized; its old DT block is left as it is (nothing links to it).
  const first = append(b, parts);
  const n = parts.length;
  const dl = header('##DL', 24 + 8 * (n + 1) + 8 + 8 * n, [0, ...first.at]);
  const v = dv(dl);
  v.setUint32(24 + 8 * (n + 1) + 4, n, true);
  bounds.slice(0, -1).forEach((o, i) => {
    v.setBigUint64(24 + 8 * (n + 1) + 8 + 8 * i, BigInt(o), true);
  });
  const second = append(first.bytes, [dl]);
  let link = second.at[0];
  let out = second.bytes;
  if (withHl) {
    const hl = header('##HL', 40, [link]);
    const third = append(out, [hl]);
    link = third.at[0];
    out = third.bytes;
  }
  // dg_data: the DG's third link.
  dv(out).setBigUint64(g.at + 24 + 16, BigInt(link), true);
  return out;
}

describe.skipIf(!hasSamples)('MF4 compressed data and lists', () => {
  it.each([
    ['deflate, one block under HL', [], 0, true],
    ['transposed deflate (23 columns), three blocks cut mid-record, DL only', [1000, 40_001], 23, false],
    ['transposed deflate with a remainder row', [777], 64, true],
  ] as const)('%s', (_name, cuts, columns, withHl) => {
    const b = compressedB([...cuts], columns, withHl);
    const r = readLog(b);
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([]);
    expect(r.frames.map(line)).toEqual(expectedB(sample('canedge-b.MF4')));
  });

  it('reports a damaged DZ block with its offset and keeps the frames before it', () => {
    const b = compressedB([30_000], 0, true);
    const [g] = dataGroups(b);
    const hl = block(b, g.dataLink);
    const dl = block(b, hl.links[0]);
    const second = dl.links[2];
    b[second + 60] ^= 0xff;
    b[second + 61] ^= 0xff;
    const r = readLog(b);
    expect(r.error).toBeUndefined();
    expect(r.warnings[0].offset).toBe(second);
    expect(r.warnings[0].message).toMatch(/DZ/);
    const want = expectedB(sample('canedge-b.MF4'));
    expect(r.frames.length).toBeGreaterThan(100);
    expect(r.frames.length).toBeLessThan(want.length);
    expect(r.frames.map(line)).toEqual(want.slice(0, r.frames.length));
  });
});
