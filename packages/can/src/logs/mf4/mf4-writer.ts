/**
 * ASAM MDF 4.11 bus-logging writer. One unsorted data group (1-byte record ids) with four
 * channel groups following the ASAM bus logging convention:
 *   1 `CAN_DataFrame`, 8 data bytes (classic frames, CAN FD up to 8 bytes)
 *   2 `CAN_DataFrame`, 64 data bytes (CAN FD over 8 bytes)
 *   3 `CAN_RemoteFrame`
 *   4 `CAN_ErrorFrame`
 * each with a `Timestamp` master channel (INT64 µs since hd_start_time_ns, linear conversion
 * 1e-6 → s) and a structure channel whose members are BusChannel (1-based), ID, IDE, DLC,
 * DataLength, DataBytes, Dir (1 = Tx), EDL, BRS, ESI (and ErrorType). Records are written in
 * the order given, so the file keeps the frames' order.
 *
 * Streaming: the metadata comes first and is of fixed size. The first piece holds it as an
 * unfinalized file (`UnFinMF`, data length and cycle counts not yet written), so even an
 * interrupted export is a valid file; `header()` returns the finalized metadata to write over
 * the start once the last piece is out. Raw records go in one DT block after the metadata;
 * with `compress`, in DZ blocks (deflate) of up to 4 MiB listed by a DL block under an HL block
 * at the end.
 */
import { zlibSync } from 'fflate';
import type { CanFrame } from '../../frame.ts';
import { lengthToDlc } from '../../frame.ts';
import type { LogStreamWriter } from '../log-stream.ts';
import type { LogWriteOptions } from '../types.ts';

const RAW_BLOCK = 4 << 20;
/** Largest record: id + time + error frame fields + 64 data bytes. */
const MAX_RECORD = 1 + 8 + 9 + 64;

const REC_DATA8 = 1;
const REC_DATA64 = 2;
const REC_REMOTE = 3;
const REC_ERROR = 4;

const CN_BUS_EVENT = 1 << 10;
const CG_BUS_EVENT = 1 << 1;
const CG_PLAIN_BUS_EVENT = 1 << 2;
/** id_unfin_flags: cycle counters (bit 0) and the last DT block's length (bit 2) not written. */
const UNFIN_FLAGS = 1 | 4;

interface Blk {
  id: string;
  links: (Blk | number | null)[];
  data: Uint8Array;
  at: number;
}

const align8 = (n: number) => (n + 7) & ~7;

function blk(id: string, links: (Blk | number | null)[], dataSize: number, fill?: (dv: DataView, b: Uint8Array) => void): Blk {
  const data = new Uint8Array(dataSize);
  fill?.(new DataView(data.buffer), data);
  return { id, links, data, at: -1 };
}

function text(id: '##TX' | '##MD', s: string): Blk {
  const bytes = new TextEncoder().encode(s);
  return blk(id, [], align8(bytes.length + 1), (_dv, b) => b.set(bytes));
}

interface CnSpec {
  name: Blk;
  type?: number;
  sync?: number;
  dataType: number;
  byteOffset: number;
  bitOffset?: number;
  bitCount: number;
  flags?: number;
  cc?: Blk | null;
  members?: Blk | null;
}

function cn(s: CnSpec): Blk {
  return blk('##CN', [null, s.members ?? null, s.name, null, s.cc ?? null, null, null, null], 72, (dv) => {
    dv.setUint8(0, s.type ?? 0);
    dv.setUint8(1, s.sync ?? 0);
    dv.setUint8(2, s.dataType);
    dv.setUint8(3, s.bitOffset ?? 0);
    dv.setUint32(4, s.byteOffset, true);
    dv.setUint32(8, s.bitCount, true);
    dv.setUint32(12, s.flags ?? 0, true);
  });
}

/** Chains CN blocks through their first link and returns the first. */
function chainOf(list: Blk[]): Blk {
  for (let i = 0; i + 1 < list.length; i++) list[i].links[0] = list[i + 1];
  return list[0];
}

/** The fixed metadata, with the values known only at the end as parameters. */
interface Finals {
  finalized: boolean;
  startNs: bigint;
  utcOffsetMinutes: number;
  counts: number[];
  /** File offset of the DG's data (HL block, or the DT block right after the metadata). */
  data: number;
  dtLength: number;
}

/** Lays the metadata out from offset 0 (ID block first) and serialises it. */
function metadata(f: Finals, withDt: boolean): Uint8Array {
  const t = (s: string) => text('##TX', s);
  const names = new Map<string, Blk>();
  const name = (s: string) => {
    let b = names.get(s);
    if (!b) {
      b = t(s);
      names.set(s, b);
    }
    return b;
  };
  const seconds = blk('##CC', [null, t('s'), null, null], 40, (dv) => {
    dv.setUint8(0, 1);
    dv.setUint16(6, 2, true);
    dv.setFloat64(24, 0, true);
    dv.setFloat64(32, 1e-6, true);
  });
  const source = blk('##SI', [t('CAN'), t('CAN'), null], 8, (dv) => {
    dv.setUint8(0, 2); // bus
    dv.setUint8(1, 2); // CAN
  });
  const member = (struct: string, field: string, byteOffset: number, bitCount: number, bitOffset = 0, dataType = 0) =>
    cn({ name: name(`${struct}.${field}`), dataType, byteOffset, bitOffset, bitCount, flags: CN_BUS_EVENT });
  const group = (recordId: number, acq: string, struct: string, size: number, members: Blk[]) => {
    const time = cn({ name: name('Timestamp'), type: 2, sync: 1, dataType: 2, byteOffset: 0, bitCount: 64, cc: seconds });
    const top = cn({
      name: name(struct),
      dataType: 10,
      byteOffset: 8,
      bitCount: (size - 8) * 8,
      flags: CN_BUS_EVENT,
      members: chainOf(members),
    });
    time.links[0] = top;
    return blk('##CG', [null, time, name(acq), source, null, null], 32, (dv) => {
      dv.setUint32(0, recordId, true);
      dv.setBigUint64(8, BigInt(f.counts[recordId - 1]), true);
      dv.setUint16(16, CG_BUS_EVENT | CG_PLAIN_BUS_EVENT, true);
      dv.setUint16(18, 0x2e, true); // path separator '.'
      dv.setUint32(24, size, true);
    });
  };
  const frameMembers = (struct: string, bytesAt: number, bytes: number) => [
    member(struct, 'BusChannel', 14, 16),
    member(struct, 'ID', 8, 29),
    member(struct, 'IDE', 11, 1, 7),
    member(struct, 'DLC', 12, 4),
    member(struct, 'DataLength', 13, 8),
    member(struct, 'DataBytes', bytesAt, bytes * 8, 0, 10),
    member(struct, 'Dir', 12, 1, 4),
    member(struct, 'EDL', 12, 1, 5),
    member(struct, 'BRS', 12, 1, 6),
    member(struct, 'ESI', 12, 1, 7),
  ];
  const groups = [
    group(REC_DATA8, 'CAN_DataFrame', 'CAN_DataFrame', 24, frameMembers('CAN_DataFrame', 16, 8)),
    group(REC_DATA64, 'CAN_DataFrame', 'CAN_DataFrame', 80, frameMembers('CAN_DataFrame', 16, 64)),
    group(REC_REMOTE, 'CAN_RemoteFrame', 'CAN_RemoteFrame', 16, [
      member('CAN_RemoteFrame', 'BusChannel', 14, 16),
      member('CAN_RemoteFrame', 'ID', 8, 29),
      member('CAN_RemoteFrame', 'IDE', 11, 1, 7),
      member('CAN_RemoteFrame', 'DLC', 12, 4),
      member('CAN_RemoteFrame', 'DataLength', 13, 8),
      member('CAN_RemoteFrame', 'Dir', 12, 1, 4),
    ]),
    group(REC_ERROR, 'CAN_ErrorFrame', 'CAN_ErrorFrame', 81, [
      ...frameMembers('CAN_ErrorFrame', 17, 64),
      member('CAN_ErrorFrame', 'ErrorType', 16, 8),
    ]),
  ];
  chainOf(groups);
  const dg = blk('##DG', [null, groups[0], f.data || null, null], 8, (dv) => dv.setUint8(0, 1));
  const fhText = `<FHcomment xmlns="http://www.asam.net/mdf/v4"><TX>CAN bus log export</TX><tool_id>Loggerhead</tool_id><tool_vendor>Loggerhead</tool_vendor><tool_version>1</tool_version></FHcomment>`;
  const fh = blk('##FH', [null, text('##MD', fhText)], 16, (dv) => {
    dv.setBigUint64(0, f.startNs, true);
    dv.setInt16(8, f.utcOffsetMinutes, true);
    dv.setUint8(12, 2);
  });
  const hd = blk('##HD', [dg, fh, null, null, null, null], 32, (dv) => {
    dv.setBigUint64(0, f.startNs, true);
    dv.setInt16(8, f.utcOffsetMinutes, true);
    dv.setUint8(12, 2); // time offsets valid; the start itself is UTC
  });
  // Every block reachable from HD, HD first, then in the order met.
  const order: Blk[] = [];
  const seen = new Set<Blk>();
  const visit = (b: Blk) => {
    if (seen.has(b)) return;
    seen.add(b);
    order.push(b);
    for (const l of b.links) if (l && typeof l === 'object') visit(l);
  };
  visit(hd);
  let at = 64;
  for (const b of order) {
    b.at = at;
    at += align8(24 + 8 * b.links.length + b.data.length);
  }
  const dtAt = at;
  const out = new Uint8Array(at + (withDt ? 24 : 0));
  const dv = new DataView(out.buffer);
  // ID block.
  const ascii = (s: string, p: number) => {
    for (let i = 0; i < s.length; i++) out[p + i] = s.charCodeAt(i);
  };
  ascii(f.finalized ? 'MDF     ' : 'UnFinMF ', 0);
  ascii('4.11    ', 8);
  ascii('Lghead  ', 16);
  dv.setUint16(28, 411, true);
  if (!f.finalized) dv.setUint16(60, UNFIN_FLAGS, true);
  for (const b of order) {
    const len = 24 + 8 * b.links.length + b.data.length;
    ascii(b.id, b.at);
    dv.setBigUint64(b.at + 8, BigInt(len), true);
    dv.setBigUint64(b.at + 16, BigInt(b.links.length), true);
    b.links.forEach((l, i) => {
      const target = l === null ? 0 : typeof l === 'number' ? l : l.at;
      dv.setBigUint64(b.at + 24 + 8 * i, BigInt(target), true);
    });
    out.set(b.data, b.at + 24 + 8 * b.links.length);
  }
  if (withDt) {
    ascii('##DT', dtAt);
    dv.setBigUint64(dtAt + 8, BigInt(f.dtLength), true);
  }
  return out;
}

/** Writes one record at `p`; returns its size. */
function writeRecord(b: Uint8Array, dv: DataView, p: number, f: CanFrame, start: number): number {
  const data = f.data;
  const len = Math.min(data.length, 64);
  let rec: number;
  let dlc: number;
  let dataLength = len;
  let bytesAt = p + 17;
  let size: number;
  if (f.err) {
    rec = REC_ERROR;
    dlc = lengthToDlc(len);
    size = 82;
    b[p + 17] = 0;
    bytesAt = p + 18;
  } else if (f.rtr) {
    rec = REC_REMOTE;
    dlc = (f.dlc ?? 0) & 15;
    dataLength = Math.min(dlc, 8);
    size = 17;
  } else if (len > 8) {
    rec = REC_DATA64;
    dlc = lengthToDlc(len);
    size = 81;
  } else {
    rec = REC_DATA8;
    dlc = f.fd ? lengthToDlc(len) : (f.dlc ?? len) & 15;
    size = 25;
  }
  b[p] = rec;
  // INT64 µs since the start, as two 32-bit halves (two's complement for times before it).
  const rel = Math.round(f.ts - start);
  const hi = Math.floor(rel / 0x100000000);
  dv.setUint32(p + 1, rel - hi * 0x100000000, true);
  dv.setInt32(p + 5, hi, true);
  dv.setUint32(p + 9, ((f.id & 0x1fffffff) | (f.ext ? 0x80000000 : 0)) >>> 0, true);
  b[p + 13] = (dlc & 15) | (f.tx ? 0x10 : 0) | (f.fd ? 0x20 : 0) | (f.brs ? 0x40 : 0) | (f.esi ? 0x80 : 0);
  b[p + 14] = dataLength;
  dv.setUint16(p + 15, Math.min(f.channel + 1, 0xffff), true);
  if (rec !== REC_REMOTE) {
    const room = rec === REC_DATA8 ? 8 : 64;
    for (let i = 0; i < len; i++) b[bytesAt + i] = data[i];
    b.fill(0, bytesAt + len, bytesAt + room);
  }
  return size;
}

export class Mf4Writer implements LogStreamWriter {
  private start: number | null;
  private readonly compress: boolean;
  private readonly deflate: (raw: Uint8Array) => Uint8Array;
  private readonly counts = [0, 0, 0, 0];
  /** Bytes handed out so far (the file offset of the next piece). */
  private written = 0;
  private recordBytes = 0;
  private prefixLength = 0;
  /** Compressed mode: records not yet in a DZ block, and the blocks written. */
  private block = new Uint8Array(0);
  private blockLength = 0;
  private readonly blocks: { at: number; logical: number }[] = [];
  private hl = 0;

  constructor(private readonly opts: LogWriteOptions = {}) {
    this.start = opts.startTime !== undefined && Number.isFinite(opts.startTime) ? Math.max(0, Math.round(opts.startTime)) : null;
    this.compress = opts.compress ?? false;
    const level = Math.min(9, Math.max(1, opts.level ?? 3)) as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
    this.deflate = opts.deflate ?? ((raw) => zlibSync(raw, { level }));
    // The metadata's size does not depend on the values filled in at the end.
    this.prefixLength = metadata(this.finals(false), !this.compress).length;
  }

  private finals(finalized: boolean): Finals {
    return {
      finalized,
      startNs: BigInt(this.start ?? 0) * 1000n,
      utcOffsetMinutes: Math.round(this.opts.utcOffsetMinutes ?? 0),
      counts: finalized ? this.counts : [0, 0, 0, 0],
      data: this.compress ? (finalized ? this.hl : 0) : Math.max(0, this.prefixLength - 24),
      dtLength: finalized ? 24 + this.recordBytes : 24,
    };
  }

  /** The unfinalized metadata, on the first piece. */
  private prefix(): Uint8Array {
    const out = metadata(this.finals(false), !this.compress);
    this.written = out.length;
    return out;
  }

  write(frames: readonly CanFrame[]): Uint8Array {
    if (this.written === 0) {
      if (frames.length === 0) return new Uint8Array(0);
      if (this.start === null) {
        let min = Number.POSITIVE_INFINITY;
        for (const f of frames) if (f.ts < min) min = f.ts;
        this.start = Math.max(0, Math.round(min));
      }
    }
    const head = this.written === 0 ? this.prefix() : null;
    const records = this.encode(frames);
    if (!this.compress) {
      this.written += records.length;
      return head ? concat(head, records) : records;
    }
    this.append(records);
    const parts: Uint8Array[] = head ? [head] : [];
    while (this.blockLength >= RAW_BLOCK) parts.push(this.flushBlock(RAW_BLOCK));
    return parts.length === 1 ? parts[0] : concat(...parts);
  }

  private encode(frames: readonly CanFrame[]): Uint8Array {
    const out = new Uint8Array(frames.length * MAX_RECORD);
    const dv = new DataView(out.buffer);
    const start = this.start ?? 0;
    let p = 0;
    for (const f of frames) {
      const size = writeRecord(out, dv, p, f, start);
      this.counts[out[p] - 1]++;
      p += size;
    }
    this.recordBytes += p;
    return out.subarray(0, p);
  }

  private append(records: Uint8Array): void {
    if (this.blockLength + records.length > this.block.length) {
      const next = new Uint8Array(Math.max(this.blockLength + records.length, Math.min(RAW_BLOCK * 2, this.block.length * 2 || 1 << 16)));
      next.set(this.block.subarray(0, this.blockLength));
      this.block = next;
    }
    this.block.set(records, this.blockLength);
    this.blockLength += records.length;
  }

  /** A DZ block of the first `n` raw bytes (records may straddle blocks: the data is one stream). */
  private flushBlock(n: number): Uint8Array {
    const raw = this.block.subarray(0, n);
    const z = this.deflate(raw);
    const len = 24 + 24 + z.length;
    const out = new Uint8Array(align8(len));
    const dv = new DataView(out.buffer);
    out.set([0x23, 0x23, 0x44, 0x5a]); // ##DZ
    dv.setBigUint64(8, BigInt(len), true);
    out[24] = 0x44; // "DT"
    out[25] = 0x54;
    dv.setBigUint64(32, BigInt(n), true);
    dv.setBigUint64(40, BigInt(z.length), true);
    out.set(z, 48);
    const logical = this.blocks.length ? this.blocks[this.blocks.length - 1].logical + this.lastRaw : 0;
    this.blocks.push({ at: this.written, logical });
    this.lastRaw = n;
    this.written += out.length;
    this.block.copyWithin(0, n, this.blockLength);
    this.blockLength -= n;
    return out;
  }

  private lastRaw = 0;

  end(): Uint8Array {
    const head = this.written === 0 ? this.prefix() : null;
    if (!this.compress) return head ?? new Uint8Array(0);
    const parts: Uint8Array[] = head ? [head] : [];
    if (this.blockLength > 0) parts.push(this.flushBlock(this.blockLength));
    if (this.blocks.length) {
      const n = this.blocks.length;
      const dlLength = 24 + 8 * (1 + n) + 8 + 8 * n;
      const dl = new Uint8Array(dlLength);
      const dv = new DataView(dl.buffer);
      dl.set([0x23, 0x23, 0x44, 0x4c]); // ##DL
      dv.setBigUint64(8, BigInt(dlLength), true);
      dv.setBigUint64(16, BigInt(1 + n), true);
      this.blocks.forEach((b, i) => {
        dv.setBigUint64(24 + 8 * (1 + i), BigInt(b.at), true);
      });
      const d = 24 + 8 * (1 + n);
      dv.setUint32(d + 4, n, true);
      this.blocks.forEach((b, i) => {
        dv.setBigUint64(d + 8 + 8 * i, BigInt(b.logical), true);
      });
      const dlAt = this.written;
      const hl = new Uint8Array(40);
      const hv = new DataView(hl.buffer);
      hl.set([0x23, 0x23, 0x48, 0x4c]); // ##HL
      hv.setBigUint64(8, 40n, true);
      hv.setBigUint64(16, 1n, true);
      hv.setBigUint64(24, BigInt(dlAt), true);
      this.hl = dlAt + dlLength;
      parts.push(dl, hl);
      this.written += dlLength + 40;
    }
    return concat(...parts);
  }

  /** The finalized metadata, to write over the start of the file once `end()` has been written. */
  header(): Uint8Array {
    return metadata(this.finals(true), !this.compress);
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A whole MF4 file; the start is the earliest frame's time unless `opts.startTime` is earlier. */
export function writeMf4(frames: readonly CanFrame[], opts: LogWriteOptions = {}): Uint8Array {
  let start = opts.startTime;
  for (const f of frames) if (start === undefined || f.ts < start) start = f.ts;
  const w = new Mf4Writer({ ...opts, startTime: start });
  const body = concat(w.write(frames), w.end());
  body.set(w.header());
  return body;
}
