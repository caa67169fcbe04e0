/**
 * Vector BLF writer. Classic frames become CAN_MESSAGE2 (86), CAN FD frames
 * CAN_FD_MESSAGE_64 (101), error frames CAN_ERROR_EXT (73), or CAN_FD_ERROR_64 (104) for one on
 * a CAN FD frame, both with their direction in the extended error flags — the objects current
 * CANoe versions write. (python-can 4.1 reads no CAN_FD_ERROR_64 and skips it.) Objects use v1 headers with 1 ns timestamps relative to the header start
 * time, and are packed whole into zlib LOG_CONTAINERs of up to 128 KiB. The header carries
 * file size, uncompressed size, object count and start/stop SYSTEMTIMEs like Vector's.
 */
import { zlibSync } from 'fflate';
import type { CanFrame } from '../frame.ts';
import { lengthToDlc } from '../frame.ts';
import {
  COMPRESSION_NONE,
  COMPRESSION_ZLIB,
  CONTAINER_HEADER_SIZE,
  EARLIEST_SYSTEMTIME_US,
  ERR_EXT_RX,
  ERR_EXT_TX,
  FD_ERR_BRS,
  FD_ERR_EDL,
  FD_ERR_ESI,
  FD64_BRS,
  FD64_EDL,
  FD64_ESI,
  FILE_HEADER_SIZE,
  ID_EXT,
  MSG_FLAG_RTR,
  MSG_FLAG_TX,
  OBJ,
  OBJ_HEADER_V1_SIZE,
  TIME_ONE_NANS,
  writeMicrosAsNanos,
  writeSystemTime,
  writeU64,
} from './blf-format.ts';
import { startOfRecording } from './start-time.ts';
import type { LogWriteOptions } from './types.ts';

const CONTAINER_MAX = 128 * 1024;
/** Largest object we emit: header + CAN_FD_ERROR_64 body + 64 data bytes + padding. */
const MAX_OBJECT = OBJ_HEADER_V1_SIZE + 44 + 64 + 4;

const LOBJ = [0x4c, 0x4f, 0x42, 0x4a];

function rawId(f: CanFrame): number {
  return ((f.id & 0x1fffffff) | (f.ext ? ID_EXT : 0)) >>> 0;
}

/** Writes one object (header + body) at `p`; returns the position after its padding. */
function writeObject(buf: Uint8Array, dv: DataView, p: number, f: CanFrame, us: number): number {
  let type: number;
  let size: number;
  const q = p + OBJ_HEADER_V1_SIZE;
  const data = f.data;
  if (f.err && f.fd) {
    type = OBJ.CAN_FD_ERROR_64;
    const len = Math.min(data.length, 64);
    size = OBJ_HEADER_V1_SIZE + 44 + len;
    buf.fill(0, q, q + 44);
    buf[q] = f.channel + 1;
    buf[q + 1] = lengthToDlc(len);
    buf[q + 2] = len;
    dv.setUint16(q + 6, f.tx ? ERR_EXT_TX : ERR_EXT_RX, true);
    dv.setUint16(q + 8, FD_ERR_EDL | (f.brs ? FD_ERR_BRS : 0) | (f.esi ? FD_ERR_ESI : 0), true);
    dv.setUint32(q + 12, rawId(f), true);
    for (let i = 0; i < len; i++) buf[q + 44 + i] = data[i];
  } else if (f.err) {
    type = OBJ.CAN_ERROR_EXT;
    size = OBJ_HEADER_V1_SIZE + 32;
    buf.fill(0, q, q + 32);
    dv.setUint16(q, f.channel + 1, true);
    const len = Math.min(data.length, 8);
    buf[q + 10] = len;
    dv.setUint32(q + 16, rawId(f), true);
    dv.setUint16(q + 20, f.tx ? ERR_EXT_TX : ERR_EXT_RX, true);
    for (let i = 0; i < len; i++) buf[q + 24 + i] = data[i];
  } else if (f.fd) {
    type = OBJ.CAN_FD_MESSAGE_64;
    const len = Math.min(data.length, 64);
    size = OBJ_HEADER_V1_SIZE + 40 + len;
    buf.fill(0, q, q + 40);
    buf[q] = f.channel + 1;
    buf[q + 1] = lengthToDlc(len);
    buf[q + 2] = len;
    dv.setUint32(q + 4, rawId(f), true);
    dv.setUint32(q + 12, FD64_EDL | (f.brs ? FD64_BRS : 0) | (f.esi ? FD64_ESI : 0), true);
    buf[q + 34] = f.tx ? 1 : 0;
    for (let i = 0; i < len; i++) buf[q + 40 + i] = data[i];
  } else {
    type = OBJ.CAN_MESSAGE2;
    size = OBJ_HEADER_V1_SIZE + 24;
    buf.fill(0, q, q + 24);
    dv.setUint16(q, f.channel + 1, true);
    buf[q + 2] = (f.tx ? MSG_FLAG_TX : 0) | (f.rtr ? MSG_FLAG_RTR : 0);
    const len = f.rtr ? 0 : Math.min(data.length, 8);
    buf[q + 3] = f.rtr || (f.dlc !== undefined && f.dlc > 8 && len === 8) ? (f.dlc ?? 0) & 15 : len;
    dv.setUint32(q + 4, rawId(f), true);
    for (let i = 0; i < len; i++) buf[q + 8 + i] = data[i];
  }
  buf[p] = LOBJ[0];
  buf[p + 1] = LOBJ[1];
  buf[p + 2] = LOBJ[2];
  buf[p + 3] = LOBJ[3];
  dv.setUint16(p + 4, OBJ_HEADER_V1_SIZE, true);
  dv.setUint16(p + 6, 1, true);
  dv.setUint32(p + 8, size, true);
  dv.setUint32(p + 12, type, true);
  dv.setUint32(p + 16, TIME_ONE_NANS, true);
  dv.setUint32(p + 20, 0, true);
  writeMicrosAsNanos(dv, p + 24, us);
  // BLF pads each object with `size % 4` bytes (not to the next multiple of 4).
  const pad = size % 4;
  buf.fill(0, p + size, p + size + pad);
  return p + size + pad;
}

/**
 * Incremental BLF writer. The file header holds totals known only at the end: `write` emits
 * a provisional header first, and `header()` gives the final one to put over the first
 * 144 bytes once everything is written (python-can reads either; Vector's tools use the totals).
 * The start time is fixed by the first `write` (or `opts.startTime`); later frames that are
 * earlier than it are written at the start time.
 */
export class BlfWriter {
  private readonly compress: boolean;
  private readonly level: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  private start = -1;
  private absolute = false;
  private stop = 0;
  private count = 0;
  private fileSize = 0;
  private uncompressedSize = FILE_HEADER_SIZE;
  private readonly chunk = new Uint8Array(CONTAINER_MAX + MAX_OBJECT);
  private readonly cdv = new DataView(this.chunk.buffer);
  private used = 0;
  private parts: Uint8Array[] = [];
  private partsSize = 0;

  constructor(private readonly opts: LogWriteOptions = {}) {
    this.compress = opts.compress ?? true;
    this.level = Math.min(9, Math.max(1, opts.level ?? 3)) as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  }

  /** Encodes `frames`; returns the bytes completed so far (whole containers, the header first). */
  write(frames: readonly CanFrame[]): Uint8Array {
    this.add(frames);
    return this.take();
  }

  /** Writes the last container; returns the remaining bytes. */
  end(): Uint8Array {
    this.finish();
    return this.take();
  }

  /** The final file header (totals and stop time), to replace the provisional one at offset 0. */
  header(): Uint8Array {
    const out = new Uint8Array(FILE_HEADER_SIZE);
    const dv = new DataView(out.buffer);
    out.set([0x4c, 0x4f, 0x47, 0x47]);
    dv.setUint32(4, FILE_HEADER_SIZE, true);
    // Application id 0 (none of Vector's); BLF format version 2.6.8.1 like python-can's writer.
    out.set([0, 0, 0, 0, 2, 6, 8, 1], 8);
    writeU64(dv, 16, this.fileSize);
    writeU64(dv, 24, this.uncompressedSize);
    dv.setUint32(32, this.count, true);
    writeSystemTime(dv, 40, this.absolute ? this.start : undefined, this.opts.utcOffsetMinutes);
    writeSystemTime(dv, 56, this.absolute ? this.stop : undefined, this.opts.utcOffsetMinutes);
    return out;
  }

  /** @internal used by `writeBlf` to build the file in one piece. */
  add(frames: readonly CanFrame[]): void {
    if (this.start < 0) this.begin(frames);
    const { chunk, cdv, start } = this;
    let used = this.used;
    let stop = this.stop;
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i];
      const us = Math.max(start, Math.round(f.ts));
      if (us > stop) stop = us;
      used = writeObject(chunk, cdv, used, f, us - start);
      if (used >= CONTAINER_MAX) {
        this.used = used;
        this.flush();
        used = 0;
      }
    }
    this.used = used;
    this.stop = stop;
    this.count += frames.length;
  }

  /** @internal writes the last container without taking the bytes. */
  finish(): void {
    if (this.start < 0) this.begin([]);
    this.flush();
  }

  /** @internal all bytes emitted and not yet taken. */
  take(): Uint8Array {
    const out = new Uint8Array(this.partsSize);
    let p = 0;
    for (const part of this.parts) {
      out.set(part, p);
      p += part.length;
    }
    this.parts = [];
    this.partsSize = 0;
    return out;
  }

  private begin(frames: readonly CanFrame[]): void {
    const start = startOfRecording(frames, this.opts.startTime);
    // Before 1990 the times are taken as relative (python-can's convention): no SYSTEMTIME.
    this.absolute = start >= EARLIEST_SYSTEMTIME_US;
    this.start = this.absolute ? start : 0;
    this.stop = this.start;
    this.emit(this.header());
  }

  private emit(part: Uint8Array): void {
    this.parts.push(part);
    this.partsSize += part.length;
    this.fileSize += part.length;
  }

  private flush(): void {
    const used = this.used;
    if (used === 0) return;
    const raw = this.chunk.subarray(0, used);
    const deflate = this.opts.deflate;
    const body = !this.compress ? raw.slice() : deflate ? deflate(raw) : zlibSync(raw, { level: this.level });
    const size = CONTAINER_HEADER_SIZE + body.length;
    const head = new Uint8Array(CONTAINER_HEADER_SIZE);
    const hdv = new DataView(head.buffer);
    head.set(LOBJ);
    hdv.setUint16(4, 16, true);
    hdv.setUint16(6, 1, true);
    hdv.setUint32(8, size, true);
    hdv.setUint32(12, OBJ.LOG_CONTAINER, true);
    hdv.setUint16(16, this.compress ? COMPRESSION_ZLIB : COMPRESSION_NONE, true);
    hdv.setUint32(24, used, true);
    this.emit(head);
    this.emit(body);
    if (size % 4) this.emit(new Uint8Array(size % 4));
    this.uncompressedSize += CONTAINER_HEADER_SIZE + used;
    this.used = 0;
  }
}

export function writeBlf(frames: readonly CanFrame[], opts: LogWriteOptions = {}): Uint8Array {
  const w = new BlfWriter(opts);
  w.add(frames);
  w.finish();
  const out = w.take();
  out.set(w.header());
  return out;
}
