/**
 * Vector BLF reader: CAN_MESSAGE (1), CAN_MESSAGE2 (86), CAN_FD_MESSAGE (100),
 * CAN_FD_MESSAGE_64 (101), CAN_ERROR (2), CAN_ERROR_EXT (73) and CAN_FD_ERROR_64 (104), inside zlib or stored
 * LOG_CONTAINERs or at top level. Objects may continue from one container into the next.
 * Other object types are skipped silently; damaged ones with a warning at their file offset.
 * A message with more than 8 data bytes is CAN FD even when its EDL flag is unset. An error
 * frame is sent (`tx`) when its extended error flags say TX or TX NAK (bits 12-13 = 3 or 1).
 *
 * Frame time = header start (SYSTEMTIME, wall clock → see `utcOffsetMinutes`) + object time
 * (10 µs or 1 ns units per header flags, rounded to µs). With no start in the header the
 * times stay relative to 0. BLF channel n is our channel n-1.
 */
import { unzlibSync } from 'fflate';
import type { CanFrame } from '../frame.ts';
import {
  COMPRESSION_NONE,
  COMPRESSION_ZLIB,
  FD_BRS,
  FD_EDL,
  FD_ERR_BRS,
  FD_ERR_EDL,
  FD_ERR_ESI,
  FD_ESI,
  FD64_BRS,
  FD64_EDL,
  FD64_ESI,
  FD64_RTR,
  ID_EXT,
  isLobj,
  MSG_FLAG_RTR,
  MSG_FLAG_TX,
  OBJ,
  OBJ_BASE_SIZE,
  readNanosAsMicros,
  readSystemTime,
  readU64,
  TIME_TEN_MICS,
} from './blf-format.ts';
import { ByteQueue } from './byte-queue.ts';
import { FrameSink } from './frame-sink.ts';
import { PayloadArena } from './payload-arena.ts';
import type { IncrementalParser, LogReadOptions, LogReadResult } from './types.ts';

/** Vector writes 128 KiB containers; anything past this is not a BLF we can trust. */
const MAX_CONTAINER = 64 << 20;

interface Ctx {
  sink: FrameSink;
  arena: PayloadArena;
  base: number;
  /** Bytes of an object that continues in the next container. */
  carry: Uint8Array;
}

function makeFrame(ts: number, channel: number, rawId: number, tx: boolean, data: Uint8Array): CanFrame {
  return {
    ts,
    channel: channel > 0 ? channel - 1 : 0,
    id: rawId & 0x1fffffff,
    ext: (rawId & ID_EXT) !== 0,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx,
    data,
  };
}

function tooShort(ctx: Ctx, offset: number, type: number, body: number, need: number): void {
  ctx.sink.warnings.offset(offset, `object type ${type}: body of ${body} bytes, expected ${need}`);
}

/**
 * Decodes the object at `p` (complete: `p + size <= b.length`). `fileOffset` locates it for
 * warnings (for objects inside a container: the container's offset).
 */
function parseObject(b: Uint8Array, dv: DataView, p: number, size: number, ctx: Ctx, fileOffset: number): void {
  const headerSize = dv.getUint16(p + 4, true);
  const version = dv.getUint16(p + 6, true);
  const type = dv.getUint32(p + 12, true);
  if (type !== OBJ.CAN_MESSAGE && type !== OBJ.CAN_MESSAGE2 && type !== OBJ.CAN_FD_MESSAGE && type !== OBJ.CAN_FD_MESSAGE_64) {
    if (type !== OBJ.CAN_ERROR_EXT && type !== OBJ.CAN_ERROR && type !== OBJ.CAN_FD_ERROR_64) return;
  }
  if ((version !== 1 && version !== 2) || headerSize < OBJ_BASE_SIZE + 16 || headerSize > size) {
    ctx.sink.warnings.offset(fileOffset, `object type ${type}: unsupported header (version ${version}, size ${headerSize})`);
    return;
  }
  const flags = dv.getUint32(p + 16, true);
  // Units per header flags: 1 = 10 µs, 2 = 1 ns (python-can also takes anything else as ns).
  const rel = flags === TIME_TEN_MICS ? readU64(dv, p + 24) * 10 : readNanosAsMicros(dv, p + 24);
  const ts = ctx.base + rel;
  const q = p + headerSize;
  const body = size - headerSize;
  let f: CanFrame;
  switch (type) {
    case OBJ.CAN_MESSAGE:
    case OBJ.CAN_MESSAGE2: {
      if (body < 16) {
        tooShort(ctx, fileOffset, type, body, 16);
        return;
      }
      const mflags = b[q + 2];
      const dlc = b[q + 3] & 15;
      const rtr = (mflags & MSG_FLAG_RTR) !== 0;
      f = makeFrame(
        ts,
        dv.getUint16(q, true),
        dv.getUint32(q + 4, true),
        (mflags & MSG_FLAG_TX) !== 0,
        ctx.arena.copy(b, q + 8, rtr ? 0 : Math.min(dlc, 8)),
      );
      if (rtr) {
        f.rtr = true;
        f.dlc = dlc;
      } else if (dlc > 8) f.dlc = dlc;
      break;
    }
    case OBJ.CAN_FD_MESSAGE: {
      if (body < 20) {
        tooShort(ctx, fileOffset, type, body, 20);
        return;
      }
      const mflags = b[q + 2];
      const dlc = b[q + 3] & 15;
      const fdFlags = b[q + 13];
      const declared = b[q + 14];
      const fd = (fdFlags & FD_EDL) !== 0 || declared > 8;
      const rtr = !fd && (mflags & MSG_FLAG_RTR) !== 0;
      const len = rtr ? 0 : Math.min(declared, 64, Math.max(0, body - 20));
      f = makeFrame(ts, dv.getUint16(q, true), dv.getUint32(q + 4, true), (mflags & MSG_FLAG_TX) !== 0, ctx.arena.copy(b, q + 20, len));
      if (fd) {
        f.fd = true;
        f.brs = (fdFlags & FD_BRS) !== 0;
        f.esi = (fdFlags & FD_ESI) !== 0;
      } else if (rtr) {
        f.rtr = true;
        f.dlc = dlc;
      } else if (dlc > 8) f.dlc = dlc;
      break;
    }
    case OBJ.CAN_FD_MESSAGE_64: {
      if (body < 40) {
        tooShort(ctx, fileOffset, type, body, 40);
        return;
      }
      const dlc = b[q + 1] & 15;
      const fdFlags = dv.getUint32(q + 12, true);
      const declared = b[q + 2];
      const fd = (fdFlags & FD64_EDL) !== 0 || declared > 8;
      const rtr = !fd && (fdFlags & FD64_RTR) !== 0;
      const len = rtr ? 0 : Math.min(declared, 64, body - 40);
      f = makeFrame(ts, b[q], dv.getUint32(q + 4, true), b[q + 34] !== 0, ctx.arena.copy(b, q + 40, len));
      if (fd) {
        f.fd = true;
        f.brs = (fdFlags & FD64_BRS) !== 0;
        f.esi = (fdFlags & FD64_ESI) !== 0;
      } else if (rtr) {
        f.rtr = true;
        f.dlc = dlc;
      } else if (dlc > 8) f.dlc = dlc;
      break;
    }
    case OBJ.CAN_ERROR_EXT: {
      if (body < 32) {
        tooShort(ctx, fileOffset, type, body, 32);
        return;
      }
      const dlc = Math.min(b[q + 10], 8);
      f = makeFrame(
        ts,
        dv.getUint16(q, true),
        dv.getUint32(q + 16, true),
        errorSent(dv.getUint16(q + 20, true)),
        ctx.arena.copy(b, q + 24, dlc),
      );
      f.err = true;
      break;
    }
    case OBJ.CAN_FD_ERROR_64: {
      if (body < 44) {
        tooShort(ctx, fileOffset, type, body, 44);
        return;
      }
      const extFlags = dv.getUint16(q + 8, true);
      const len = Math.min(b[q + 2], 64, body - 44);
      f = makeFrame(ts, b[q], dv.getUint32(q + 12, true), errorSent(dv.getUint16(q + 6, true)), ctx.arena.copy(b, q + 44, len));
      f.err = true;
      f.fd = (extFlags & FD_ERR_EDL) !== 0 || len > 8;
      f.brs = f.fd && (extFlags & FD_ERR_BRS) !== 0;
      f.esi = f.fd && (extFlags & FD_ERR_ESI) !== 0;
      break;
    }
    default: {
      // CAN_ERROR: channel and length only.
      if (body < 4) {
        tooShort(ctx, fileOffset, type, body, 4);
        return;
      }
      f = makeFrame(ts, dv.getUint16(q, true), 0, false, ctx.arena.take(0));
      f.err = true;
    }
  }
  ctx.sink.atOffset(f, fileOffset);
}

/** Extended error flags, bits 12-13: 0 RX NAK, 1 TX NAK, 2 RX, 3 TX. */
function errorSent(flagsExt: number): boolean {
  return ((flagsExt >> 12) & 1) === 1;
}

/**
 * Walks the objects in `b`, returning the unconsumed tail (an object that continues in the
 * next container). Objects are followed by up to 3 padding bytes, hence the short search.
 */
function walk(b: Uint8Array, ctx: Ctx, fileOffset: number, inContainer: boolean): Uint8Array {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let p = 0;
  const n = b.length;
  while (p < n) {
    if (!isLobj(b, p)) {
      let k = p + 1;
      while (k < p + 8 && k + 4 <= n && !isLobj(b, k)) k++;
      if (k < p + 8 && k + 4 <= n) p = k;
      else if (n - p < 8)
        return b.subarray(p); // maybe padding, maybe the start of an object in the next piece
      else {
        // Lost sync: skip to the next object signature we can find.
        let next = -1;
        for (let i = p + 1; i + 4 <= n; i++) {
          if (b[i] === 0x4c && isLobj(b, i)) {
            next = i;
            break;
          }
        }
        const allZero = b.subarray(p, next < 0 ? n : next).every((x) => x === 0);
        if (!allZero)
          ctx.sink.warnings.offset(fileOffset + (inContainer ? 0 : p), `no object signature, ${next < 0 ? n - p : next - p} bytes skipped`);
        if (next < 0) return b.subarray(Math.max(p, n - 3)); // a signature may straddle the next piece
        p = next;
      }
    }
    if (p + OBJ_BASE_SIZE > n) return b.subarray(p);
    const size = dv.getUint32(p + 8, true);
    if (size < OBJ_BASE_SIZE || size > MAX_CONTAINER) {
      ctx.sink.warnings.offset(fileOffset + (inContainer ? 0 : p), `object of impossible size ${size}`);
      p += 4;
      continue;
    }
    if (p + size > n) return b.subarray(p);
    const at = inContainer ? fileOffset : fileOffset + p;
    if (!inContainer && dv.getUint32(p + 12, true) === OBJ.LOG_CONTAINER) readContainer(b, dv, p, size, ctx, at);
    else parseObject(b, dv, p, size, ctx, at);
    p += size;
  }
  return b.subarray(n);
}

function readContainer(b: Uint8Array, dv: DataView, p: number, size: number, ctx: Ctx, offset: number): void {
  const headerSize = dv.getUint16(p + 4, true);
  const h = p + headerSize;
  if (h + 16 > p + size) {
    ctx.sink.warnings.offset(offset, 'log container too short');
    return;
  }
  const method = dv.getUint16(h, true);
  const payload = b.subarray(h + 16, p + size);
  let data: Uint8Array;
  if (method === COMPRESSION_NONE) data = payload;
  else if (method === COMPRESSION_ZLIB) {
    // The declared size bounds the output: a corrupt or hostile container cannot balloon.
    const declared = dv.getUint32(h + 8, true);
    if (declared > MAX_CONTAINER) {
      ctx.sink.warnings.offset(offset, `log container claims ${declared} bytes`);
      return;
    }
    try {
      // A declared size of 0 (seen from some writers) is only trusted for small payloads.
      if (declared === 0 && payload.length > 1 << 16) throw new Error('no uncompressed size');
      data = declared === 0 ? unzlibSync(payload) : unzlibSync(payload, { out: new Uint8Array(declared) });
    } catch (e) {
      ctx.sink.warnings.offset(offset, `log container does not inflate: ${(e as Error).message}`);
      ctx.carry = new Uint8Array(0);
      return;
    }
  } else {
    ctx.sink.warnings.offset(offset, `log container with unknown compression ${method}`);
    return;
  }
  if (ctx.carry.length > 0) {
    const joined = new Uint8Array(ctx.carry.length + data.length);
    joined.set(ctx.carry);
    joined.set(data, ctx.carry.length);
    data = joined;
  }
  ctx.carry = walk(data, ctx, offset, true);
}

const NO_BYTES = new Uint8Array(0);

/** BLF parser that takes the file in pieces of any size; `readBlf` gives it the whole file. */
export class BlfParser implements IncrementalParser {
  private readonly ctx: Ctx;
  private readonly queue = new ByteQueue();
  private offset = 0;
  private state: 'header' | 'objects' | 'invalid' = 'header';
  private error = '';
  private start: number | undefined;

  constructor(private readonly opts: LogReadOptions = {}) {
    this.ctx = { sink: new FrameSink(opts), arena: new PayloadArena(), base: 0, carry: NO_BYTES };
  }

  push(chunk: Uint8Array): void {
    if (this.state === 'invalid') return;
    // Parse straight from the piece when nothing is carried over (always so for `readBlf`).
    const direct = this.queue.length === 0;
    const all = direct ? chunk : this.queue.append(chunk);
    let b = all;
    if (this.state === 'header') {
      if (b.length >= 4 && !(b[0] === 0x4c && b[1] === 0x4f && b[2] === 0x47 && b[3] === 0x47)) {
        this.invalid('Not a BLF file: the "LOGG" header is missing');
        return;
      }
      const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
      const headerSize = b.length >= 8 ? dv.getUint32(4, true) : 0;
      if (b.length >= 8 && (headerSize < 72 || headerSize > 1 << 20)) {
        this.invalid(`Not a BLF file: header size ${headerSize}`);
        return;
      }
      if (b.length < 8 || b.length < headerSize) {
        if (direct) this.queue.append(chunk);
        return;
      }
      this.start = readSystemTime(dv, 40, this.opts.utcOffsetMinutes);
      this.ctx.base = this.start ?? 0;
      b = b.subarray(headerSize);
      this.offset = headerSize;
      this.state = 'objects';
    }
    const rest = walk(b, this.ctx, this.offset, false);
    this.offset += b.length - rest.length;
    if (direct) this.queue.append(rest);
    else this.queue.consume(all.length - rest.length);
  }

  private invalid(message: string): void {
    this.state = 'invalid';
    this.error = message;
    this.queue.clear();
  }

  drain(): CanFrame[] {
    return this.ctx.sink.drain();
  }

  result(): LogReadResult {
    if (this.state === 'header' && !this.error)
      this.error = this.queue.length < 4 ? 'Not a BLF file: the "LOGG" header is missing' : 'BLF file ends inside its header';
    if (this.state !== 'objects') return { format: 'blf', frames: [], warnings: [], skipped: 0, error: this.error, errorAt: { offset: 0 } };
    const { warnings } = this.ctx.sink;
    if (this.queue.view().some((x) => x !== 0)) warnings.offset(this.offset, 'file ends inside an object');
    if (this.ctx.carry.some((x) => x !== 0)) warnings.offset(this.offset, 'last log container ends inside an object');
    return this.ctx.sink.result('blf', 'Vector BLF', this.start);
  }
}

export function readBlf(bytes: Uint8Array, opts: LogReadOptions = {}): LogReadResult {
  const parser = new BlfParser(opts);
  parser.push(bytes);
  return parser.result();
}
