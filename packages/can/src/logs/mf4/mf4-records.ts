/**
 * Records of one data group → CAN frames. Sorted groups hold records of one channel group;
 * unsorted ones prefix each record with its group's record id. A VLSD channel group's records
 * (UINT32 length + bytes) hold the payloads other records point at by offset; loggers write
 * the payload just after (or before) the frame, so a frame waits in order until its payload
 * has come, and a payload that came first waits for its frame, both in bounded number.
 */
import type { CanFrame } from '../../frame.ts';
import { dlcToLength } from '../../frame.ts';
import { checkFrame, type WarningSink } from '../frame-sink.ts';
import type { PayloadArena } from '../payload-arena.ts';
import type { BlockReader } from './mf4-blocks.ts';
import { DataStream, SignalData, type Window } from './mf4-data.ts';
import { type Io, Mf4Error } from './mf4-io.ts';
import { type BusLayout, busLayout } from './mf4-layout.ts';
import { CG_VLSD, type DataGroup, type FileHeader } from './mf4-meta.ts';

/** Largest record we keep whole; bigger VLSD records are skipped over. */
const MAX_RECORD = 16 << 20;
/** Frames decoded per call, so that a big inflated block does not become a million objects at once. */
const FRAMES_PER_FILL = 8192;
/** Payloads held for frames still to come, and frames held for payloads still to come. */
const MAX_WAITING = 1 << 16;
/** Records in a row with known ids that make a position after damage a record start again. */
const RESYNC_RECORDS = 4;

interface Decoder {
  size: number;
  /** This group is a VLSD group: its records are payloads. */
  vlsd: VlsdGroup | null;
  layout: BusLayout | null;
  /** The VLSD group in this data group that holds this group's payloads. */
  target: VlsdGroup | null;
  index: number;
}

/** The payloads of a VLSD channel group in this data group, by offset. */
interface VlsdGroup {
  run: number;
  early: Map<number, Uint8Array>;
  waiting: Map<number, { frame: CanFrame; limit: number; fileOffset: number }>;
}

export interface ReadContext {
  header: FileHeader;
  reader: BlockReader;
  warnings: WarningSink;
  arena: PayloadArena;
  /** Added to every time: header start in µs (+ wall-clock correction). */
  baseUs: number;
}

export class GroupReader {
  private readonly byId = new Map<number, Decoder>();
  private single: Decoder | null = null;
  private readonly stream: DataStream;
  private readonly signalData = new Map<number, SignalData>();
  /** Frames decoded; `queue[head..ready)` can be handed out. */
  private queue: CanFrame[] = [];
  private head = 0;
  private ready = 0;
  private readonly pending = new Set<CanFrame>();
  /** Bytes of a record cut by the end of a window. */
  private carry: Uint8Array | null = null;
  private carryOffset = 0;
  private skip = 0;
  private window: Window | null = null;
  private pos = 0;
  private ended = false;
  /** Frames whose payload is in SD blocks, to fetch before handing them out. */
  private fetch: { frame: CanFrame; sd: SignalData; offset: number; limit: number; fileOffset: number }[] = [];

  private constructor(
    private readonly ctx: ReadContext,
    readonly dg: DataGroup,
  ) {
    this.stream = new DataStream(ctx.reader, ctx.header, dg.dataLink, dg.offset);
  }

  /**
   * A reader for the data group, or null when it holds no CAN frames. Throws Mf4Error when the
   * group claims CAN frames but cannot be read.
   */
  static *open(ctx: ReadContext, dg: DataGroup): Io<GroupReader | null> {
    const r = new GroupReader(ctx, dg);
    let bus = false;
    const vlsdByOffset = new Map<number, VlsdGroup>();
    for (const g of dg.groups) {
      if (g.flags & CG_VLSD) vlsdByOffset.set(g.offset, { run: 0, early: new Map(), waiting: new Map() });
    }
    for (const g of dg.groups) {
      const vlsd = vlsdByOffset.get(g.offset) ?? null;
      const layout = vlsd ? null : busLayout(g);
      const size = g.dataBytes + g.invalBytes;
      if (!vlsd && size === 0 && dg.recIdSize === 0) throw new Mf4Error(g.offset, 'channel group: records of 0 bytes');
      if (size > MAX_RECORD) throw new Mf4Error(g.offset, `channel group: records of ${size} bytes are too big`);
      if (layout) bus = true;
      const elsewhere = layout?.bytes && !layout.bytes.fixed ? layout.bytes.target : 0;
      const dec: Decoder = { size, vlsd, layout, target: vlsdByOffset.get(elsewhere) ?? null, index: 0 };
      if (elsewhere && !dec.target && !r.signalData.has(elsewhere))
        r.signalData.set(elsewhere, new SignalData(ctx.reader, elsewhere, g.offset));
      if (dg.recIdSize === 0) {
        if (dg.groups.length > 1 && !vlsd) throw new Mf4Error(dg.offset, 'data group: several channel groups without record ids');
        if (!vlsd) r.single = dec;
      } else if (r.byId.has(g.recordId)) throw new Mf4Error(g.offset, `channel group: record id ${g.recordId} used twice`);
      else r.byId.set(g.recordId, dec);
    }
    if (!bus) return null;
    yield* r.stream.init();
    return r;
  }

  /** The next frame ready to hand out, without taking it. */
  peek(): CanFrame | undefined {
    return this.head < this.ready ? this.queue[this.head] : undefined;
  }

  take(): CanFrame {
    const f = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = this.ready = 0;
    }
    return f;
  }

  /** All frames ready. */
  takeAll(): CanFrame[] {
    const out = this.head === 0 && this.ready === this.queue.length ? this.queue : this.queue.slice(this.head, this.ready);
    this.queue = this.queue.slice(this.ready);
    this.head = this.ready = 0;
    return out;
  }

  get done(): boolean {
    return this.ended && this.head >= this.queue.length;
  }

  /** Decodes more records; returns false once the group has no more. */
  *fill(): Io<boolean> {
    while (!this.ended && this.head >= this.ready) {
      if (this.head > 0) {
        this.queue = this.queue.slice(this.head);
        this.ready -= this.head;
        this.head = 0;
      }
      try {
        if (!this.window || this.pos >= this.window.bytes.length) {
          this.window = yield* this.stream.next();
          this.pos = 0;
          for (const p of this.stream.problems.splice(0)) this.ctx.warnings.offset(p.offset, p.message);
          if (!this.window) {
            this.finish();
            break;
          }
        }
        this.decode();
      } catch (e) {
        if (!(e instanceof Mf4Error)) throw e;
        this.ctx.warnings.offset(e.offset, e.message);
        this.finish(true);
      }
      for (const x of this.fetch.splice(0)) {
        let data: Uint8Array | null = null;
        try {
          data = yield* x.sd.value(x.offset, MAX_RECORD);
        } catch (e) {
          if (!(e instanceof Mf4Error)) throw e;
          this.ctx.warnings.offset(e.offset, e.message);
        }
        this.resolve(x.frame, data, x.limit, x.fileOffset);
      }
      this.advanceReady();
    }
    return !this.done;
  }

  private finish(broken = false): void {
    if (this.carry && !broken) this.ctx.warnings.offset(this.carryOffset, `last record cut short (${this.carry.length} bytes)`);
    this.carry = null;
    this.ended = true;
    this.window = null;
    if (this.pending.size) {
      const lost = this.pending.size;
      this.ctx.warnings.offset(this.dg.offset, `${lost} frame${lost > 1 ? 's' : ''} without their payload in the file`);
      this.queue = this.queue.filter((f, i) => i < this.head || !this.pending.has(f));
      this.pending.clear();
      this.fetch = [];
    }
    this.ready = this.queue.length;
  }

  private advanceReady(): void {
    if (this.pending.size === 0) this.ready = this.queue.length;
    else while (this.ready < this.queue.length && !this.pending.has(this.queue[this.ready])) this.ready++;
  }

  /** File offset of byte `i` of the current window (its DZ block when inflated). */
  private offsetOf(i: number): number {
    const w = this.window as Window;
    return w.exact ? w.fileOffset + i : w.fileOffset;
  }

  /** Decodes records from the current window until it is used up or enough frames are queued. */
  private decode(): void {
    const b = (this.window as Window).bytes;
    let pos = this.pos;
    if (this.carry) {
      pos = this.completeCarry(b);
      if (pos < 0) {
        this.pos = b.length;
        return;
      }
    }
    if (this.lost) pos = this.resync(b, pos);
    const queued = this.queue.length;
    while (pos < b.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, b.length - pos);
        pos += n;
        this.skip -= n;
        continue;
      }
      if (this.queue.length - queued >= FRAMES_PER_FILL) break;
      const size = this.recordSize(b, pos, b.length);
      if (size === -2) {
        // A VLSD record too big to keep: pass over it.
        this.skip = this.bigSize;
        continue;
      }
      if (size === -3) {
        this.ctx.warnings.offset(
          this.offsetOf(pos),
          `record id ${this.idAt(b, pos)} belongs to no channel group: bytes skipped up to the next records`,
        );
        this.lost = true;
        pos = this.resync(b, pos + 1);
        continue;
      }
      if (size < 0 || pos + size > b.length) {
        this.carryOffset = this.offsetOf(pos);
        this.carry = b.slice(pos);
        this.carryLength = this.carry.length;
        pos = b.length;
        break;
      }
      this.record(b, pos, this.offsetOf(pos));
      pos += size;
    }
    this.pos = pos;
  }

  private carryLength = 0;

  /**
   * Completes the record cut at the end of the previous window from the start of `b`; returns
   * where the next record starts in `b`, or -1 when `b` did not complete it.
   */
  private completeCarry(b: Uint8Array): number {
    let buf = this.carry as Uint8Array;
    let len = this.carryLength;
    let used = 0;
    const append = (n: number) => {
      if (len + n > buf.length) {
        const next = new Uint8Array(Math.max(len + n, buf.length * 2));
        next.set(buf.subarray(0, len));
        buf = next;
      }
      buf.set(b.subarray(used, used + n), len);
      len += n;
      used += n;
    };
    let size = this.recordSize(buf, 0, len);
    if (size === -1) {
      append(Math.min(b.length, 16));
      size = this.recordSize(buf, 0, len);
    }
    if (size === -3) {
      this.ctx.warnings.offset(
        this.carryOffset,
        `record id ${this.idAt(buf, 0)} belongs to no channel group: bytes skipped up to the next records`,
      );
      this.carry = null;
      this.lost = true;
      return 0;
    }
    if (size === -2) {
      this.carry = null;
      this.skip = this.bigSize - len;
      return used;
    }
    if (size >= 0 && size > len) {
      if (buf.length < size) {
        const exact = new Uint8Array(size);
        exact.set(buf.subarray(0, len));
        buf = exact;
      }
      append(Math.min(b.length - used, size - len));
    }
    if (size < 0 || len < size) {
      this.carry = buf;
      this.carryLength = len;
      return -1;
    }
    this.carry = null;
    this.record(buf, 0, this.carryOffset);
    return used - (len - size);
  }

  private bigSize = 0;
  /** After bytes that are no record: look for where records start again. */
  private lost = false;

  /**
   * Where records plausibly start again at or after `from` (unsorted data after damage): the
   * first position from which a few records in a row have known ids. `b.length` when none (the
   * search goes on in the next window).
   */
  private resync(b: Uint8Array, from: number): number {
    for (let q = from; q < b.length; q++) {
      let p = q;
      let n = 0;
      while (n < RESYNC_RECORDS && p < b.length) {
        const size = this.recordSize(b, p, b.length);
        if (size === -3 || size === -2) break;
        if (size === -1 || p + size > b.length) {
          // Runs past this window: as far as it can be checked, it fits.
          n = RESYNC_RECORDS;
          break;
        }
        p += size;
        n++;
      }
      if (n >= RESYNC_RECORDS || (n > 0 && p === b.length)) {
        this.lost = false;
        return q;
      }
    }
    return b.length;
  }

  private idAt(b: Uint8Array, pos: number): number {
    let id = 0;
    for (let i = this.dg.recIdSize - 1; i >= 0; i--) id = id * 256 + b[pos + i];
    return id;
  }

  /**
   * Size of the record at `pos`: -1 when its size is not in `b` yet, -2 for an oversized VLSD
   * record, -3 for a record id of no channel group.
   */
  private recordSize(b: Uint8Array, pos: number, end: number): number {
    const idSize = this.dg.recIdSize;
    if (idSize === 0) {
      return (this.single as Decoder).size;
    }
    if (end - pos < idSize) return -1;
    const dec = this.byId.get(this.idAt(b, pos));
    if (!dec) return -3;
    if (!dec.vlsd) return idSize + dec.size;
    if (end - pos < idSize + 4) return -1;
    const n = b[pos + idSize] + b[pos + idSize + 1] * 256 + b[pos + idSize + 2] * 65536 + b[pos + idSize + 3] * 16777216;
    const size = idSize + 4 + n;
    if (size > MAX_RECORD) {
      this.bigSize = size;
      return -2;
    }
    return size;
  }

  private decoderAt(b: Uint8Array, pos: number): Decoder {
    const dec = this.byId.get(this.idAt(b, pos));
    if (!dec) throw new Mf4Error(this.offsetOf(pos), `record id ${this.idAt(b, pos)} belongs to no channel group`);
    return dec;
  }

  /** Decodes the complete record at `pos`. */
  private record(b: Uint8Array, pos: number, fileOffset: number): void {
    const idSize = this.dg.recIdSize;
    const dec = idSize === 0 ? (this.single as Decoder) : this.decoderAt(b, pos);
    const p = pos + idSize;
    if (dec.vlsd) {
      const n = b[p] + b[p + 1] * 256 + b[p + 2] * 65536 + b[p + 3] * 16777216;
      this.payload(dec.vlsd, b, p + 4, n);
      return;
    }
    const index = dec.index++;
    const L = dec.layout;
    if (!L) return;
    this.frame(L, dec, b, p, index, fileOffset);
  }

  private payload(g: VlsdGroup, b: Uint8Array, p: number, n: number): void {
    const at = g.run;
    g.run += 4 + n;
    const w = g.waiting.get(at);
    if (w) {
      g.waiting.delete(at);
      this.resolve(w.frame, b.subarray(p, p + n), w.limit, w.fileOffset);
      return;
    }
    if (g.early.size >= MAX_WAITING) g.early.delete(g.early.keys().next().value as number);
    g.early.set(at, b.slice(p, p + n));
  }

  private frame(L: BusLayout, dec: Decoder, b: Uint8Array, p: number, index: number, fileOffset: number): void {
    const ctx = this.ctx;
    const ts = Math.round(ctx.baseUs + L.time(b, p, index));
    let channel = L.defaultChannel;
    if (L.channel) {
      const c = Math.round(L.channel(b, p, index));
      channel = c >= 1 ? c - 1 : 0;
    }
    let id = 0;
    let ext = false;
    if (L.id) {
      const raw = Math.round(L.id(b, p, index));
      id = raw % 0x20000000;
      ext = L.ide ? L.ide(b, p, index) !== 0 : L.idHasIde ? raw >= 0x80000000 : id > 0x7ff;
    }
    const dlc = L.dlc ? Math.round(L.dlc(b, p, index)) : -1;
    const length = L.dataLength ? Math.round(L.dataLength(b, p, index)) : -1;
    const fd = L.edl ? L.edl(b, p, index) !== 0 : false;
    const f: CanFrame = {
      ts,
      channel,
      id,
      ext,
      fd,
      brs: L.brs ? L.brs(b, p, index) !== 0 : false,
      esi: L.esi ? L.esi(b, p, index) !== 0 : false,
      rtr: L.kind === 'remote',
      err: L.kind === 'error',
      tx: L.dir ? L.dir(b, p, index) !== 0 : false,
      data: EMPTY,
    };
    if (L.kind === 'remote') {
      f.dlc = Math.max(0, dlc >= 0 ? dlc : length >= 0 ? length : 0);
      this.keep(f, fileOffset);
      return;
    }
    if (L.kind === 'data' && !fd && dlc > 8) f.dlc = dlc;
    const want = length >= 0 ? length : dlc >= 0 ? (fd ? dlcToLength(dlc) : Math.min(dlc, 8)) : Number.POSITIVE_INFINITY;
    const bytes = L.bytes;
    if (!bytes) {
      this.keep(f, fileOffset);
      return;
    }
    if (bytes.fixed) {
      if (length > bytes.length) {
        ctx.warnings.offset(fileOffset, `DataLength ${length} is more than the record's ${bytes.length} data bytes`);
        return;
      }
      f.data = this.ctx.arena.copy(b, p + bytes.byteOffset, Math.max(0, Math.min(want, bytes.length)));
      this.keep(f, fileOffset);
      return;
    }
    const offset = bytes.offset(b, p, index);
    const limit = Math.max(0, Math.min(want, 64));
    const target = dec.target;
    if (target) {
      const early = target.early.get(offset);
      if (early) {
        target.early.delete(offset);
        f.data = this.ctx.arena.copy(early, 0, Math.min(early.length, limit));
        this.keep(f, fileOffset);
      } else if (offset < target.run) {
        ctx.warnings.offset(fileOffset, `frame payload at offset ${offset} was not found`);
      } else if (target.waiting.size >= MAX_WAITING) {
        ctx.warnings.offset(fileOffset, 'too many frames waiting for their payload');
      } else {
        target.waiting.set(offset, { frame: f, limit, fileOffset });
        this.wait(f);
      }
      return;
    }
    this.wait(f);
    this.fetch.push({ frame: f, sd: this.signalData.get(bytes.target) as SignalData, offset, limit, fileOffset });
  }

  /** Queues a complete frame, or reports why storage would refuse it. */
  private keep(f: CanFrame, fileOffset: number): void {
    const bad = checkFrame(f);
    if (bad) this.ctx.warnings.offset(fileOffset, bad);
    else this.queue.push(f);
  }

  /** Queues a frame whose payload is still to come: frames after it wait with it. */
  private wait(f: CanFrame): void {
    this.queue.push(f);
    this.pending.add(f);
  }

  /** A waiting frame got its payload (or null: it has none in the file). */
  private resolve(f: CanFrame, data: Uint8Array | null, limit: number, fileOffset: number): void {
    this.pending.delete(f);
    let bad: string | null = 'frame payload is not in the file';
    if (data) {
      f.data = this.ctx.arena.copy(data, 0, Math.min(data.length, limit));
      bad = checkFrame(f);
    }
    if (bad) {
      this.ctx.warnings.offset(fileOffset, bad);
      this.queue.splice(this.queue.lastIndexOf(f), 1);
    }
    this.advanceReady();
  }
}

const EMPTY = new Uint8Array(0);
