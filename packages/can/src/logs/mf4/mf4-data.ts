/**
 * The data of a data group (or of a VLSD channel's SD blocks) as one logical byte stream: a DT
 * (or SD) block, a DZ block holding one compressed, or a list of them (DL chain, optionally under
 * an HL block). Raw blocks are read in windows; a DZ block is inflated whole (bounded), so memory
 * depends on the block size, not on the file size.
 */
import { inflateSync, unzlibSync } from 'fflate';
import { type BlockReader, HEADER, u64 } from './mf4-blocks.ts';
import { type Io, Mf4Error, read } from './mf4-io.ts';
import { type FileHeader, UNFIN_DL, UNFIN_DT_LENGTH } from './mf4-meta.ts';

/** Raw data is read this much at a time. */
const WINDOW = 1 << 18;
/** Largest DZ block we inflate (writers use a few MiB). */
export const MAX_INFLATED = 64 << 20;
/** Most data blocks one list may hold. */
const MAX_FRAGMENTS = 1 << 22;

export interface Window {
  bytes: Uint8Array;
  /** File offset of `bytes[0]` when `exact`, else of the DZ block the bytes were inflated from. */
  fileOffset: number;
  exact: boolean;
}

/** The data blocks a data link leads to, in order (DL/HL lists flattened). */
export function* dataBlocks(reader: BlockReader, link: number, from: number, what: string, raw: string): Io<number[]> {
  if (link === 0) return [];
  const head = yield* reader.header(link, from, what);
  if (head.id === raw || head.id === '##DZ') return [link];
  let dl = link;
  if (head.id === '##HL') {
    const hl = yield* reader.block(link, from, what, '##HL');
    dl = hl.links[0] ?? 0;
  } else if (head.id !== '##DL') throw new Mf4Error(link, `${what}: expected a data block or list, found ${head.id}`);
  const out: number[] = [];
  const seen = new Set<number>();
  let prev = link;
  while (dl !== 0) {
    if (seen.has(dl)) throw new Mf4Error(dl, `${what}: the list of DL blocks goes round in a circle`);
    seen.add(dl);
    const b = yield* reader.block(dl, prev, what, '##DL');
    if (b.data.byteLength < 8) throw new Mf4Error(dl, `${what}: DL block too short`);
    const count = Math.min(b.data.getUint32(4, true), b.links.length - 1);
    // An unfinalized file may leave the last list's unused links at 0.
    for (let i = 1; i <= count; i++) if (b.links[i] !== 0) out.push(b.links[i]);
    if (out.length > MAX_FRAGMENTS) throw new Mf4Error(dl, `${what}: more than ${MAX_FRAGMENTS} data blocks`);
    prev = dl;
    dl = b.links[0];
  }
  return out;
}

/** Inflates a DZ block; `raw` is the original block type it must stand for ("DT", "SD"). */
export function* inflateBlock(reader: BlockReader, offset: number, from: number, what: string, raw: string): Io<Uint8Array> {
  const { length } = yield* reader.header(offset, from, what);
  const h = yield* reader.cache.bytes(offset + HEADER, 24);
  if (h.length < 24 || length < HEADER + 24) throw new Mf4Error(offset, `${what}: DZ block cut short`);
  const dv = new DataView(h.buffer, h.byteOffset, 24);
  const org = String.fromCharCode(h[0], h[1]);
  const zip = h[2];
  const columns = dv.getUint32(4, true);
  const orgLength = u64(dv, 8);
  const zLength = u64(dv, 16);
  if (org !== raw) throw new Mf4Error(offset, `${what}: DZ block holds a ${org} block, expected ${raw}`);
  if (zip > 1) throw new Mf4Error(offset, `${what}: DZ compression ${zip} is not supported (0 deflate, 1 transposed deflate)`);
  if (orgLength === null || orgLength > MAX_INFLATED)
    throw new Mf4Error(offset, `${what}: DZ block inflates to more than ${MAX_INFLATED} bytes`);
  if (zLength === null || zLength > length - HEADER - 24) throw new Mf4Error(offset, `${what}: DZ block data longer than the block`);
  const z = yield* read(offset + HEADER + 24, zLength);
  if (z.length < zLength) throw new Mf4Error(offset, `${what}: DZ block runs past the end of the file`);
  let out: Uint8Array;
  try {
    // One byte of room more than declared tells an overlong stream from an exact one.
    const room = new Uint8Array(orgLength + 1);
    out =
      z.length >= 2 && (z[0] & 0x0f) === 8 && ((z[0] << 8) | z[1]) % 31 === 0
        ? unzlibSync(z, { out: room })
        : inflateSync(z, { out: room });
  } catch (e) {
    throw new Mf4Error(offset, `${what}: DZ block does not inflate (${(e as Error).message})`);
  }
  if (out.length !== orgLength) throw new Mf4Error(offset, `${what}: DZ block inflates to ${out.length} bytes, declared ${orgLength}`);
  if (zip === 1 && columns > 0) {
    const rows = Math.floor(orgLength / columns);
    if (rows > 1) {
      const t = new Uint8Array(orgLength);
      for (let c = 0; c < columns; c++) {
        const src = c * rows;
        for (let r = 0; r < rows; r++) t[r * columns + c] = out[src + r];
      }
      t.set(out.subarray(rows * columns), rows * columns);
      out = t;
    }
  }
  return out;
}

/** The records of a data group, window by window. */
export class DataStream {
  private blocks: number[] = [];
  private index = -1;
  private pos = 0;
  private end = 0;
  /** The current block is read to the end of the file (unfinalized last DT block). */
  private open = false;
  /** Warnings about the stream itself (a block cut short), for the caller to report. */
  readonly problems: { offset: number; message: string }[] = [];

  constructor(
    private readonly reader: BlockReader,
    private readonly header: FileHeader,
    private readonly link: number,
    private readonly from: number,
  ) {}

  *init(): Io<void> {
    this.blocks = yield* dataBlocks(this.reader, this.link, this.from, 'data', '##DT');
    if (this.link) this.listed = (yield* this.reader.header(this.link, this.from, 'data')).id !== '##DT';
  }

  /** The data is a list (DL/HL), not one block. */
  private listed = false;
  private seen: Set<number> | null = null;

  /**
   * An unfinalized file whose flags say the last DL block was not updated: data blocks the
   * writer appended after the last one listed are found where they follow it, one after another.
   */
  private *unlisted(at: number, length: number): Io<void> {
    if (!this.listed || !this.header.unfinalized || (this.header.unfinFlags & UNFIN_DL) === 0) return;
    const next = (at + length + 7) & ~7;
    this.seen ??= new Set(this.blocks);
    if (this.blocks.length >= MAX_FRAGMENTS || this.seen.has(next)) return;
    try {
      const h = yield* this.reader.header(next, at, 'data');
      if (h.id === '##DT' || h.id === '##DZ') {
        this.blocks.push(next);
        this.seen.add(next);
      }
    } catch (e) {
      if (!(e instanceof Mf4Error)) throw e;
    }
  }

  /** The next window of data, or null at the end. */
  *next(): Io<Window | null> {
    for (;;) {
      if (this.index >= 0 && this.pos < this.end) {
        const want = Math.min(WINDOW, this.end - this.pos);
        const bytes = yield* read(this.pos, want, 1);
        if (bytes.length === 0) {
          if (!this.open)
            this.problems.push({ offset: this.pos, message: `data block ends at the end of the file, ${this.end - this.pos} bytes short` });
          this.end = this.pos;
          continue;
        }
        const w: Window = { bytes, fileOffset: this.pos, exact: true };
        this.pos += bytes.length;
        return w;
      }
      if (++this.index >= this.blocks.length) return null;
      const at = this.blocks[this.index];
      const prev = this.index > 0 ? this.blocks[this.index - 1] : this.from;
      const { id, length } = yield* this.reader.header(at, prev, 'data');
      if (this.index === this.blocks.length - 1) yield* this.unlisted(at, length);
      if (id === '##DZ') {
        const bytes = yield* inflateBlock(this.reader, at, prev, 'data', 'DT');
        this.end = this.pos = 0;
        if (bytes.length) return { bytes, fileOffset: at, exact: false };
        continue;
      }
      if (id !== '##DT') throw new Mf4Error(at, `data: expected DT or DZ, found ${id}`);
      this.pos = at + HEADER;
      this.end = at + length;
      this.open = false;
      const last = this.index === this.blocks.length - 1;
      // Unfinalized: the flag says the length was not written; with no flags given, a DT block
      // still holding no data (its length as first written) is taken the same way.
      const flags = this.header.unfinFlags;
      if (last && this.header.unfinalized && ((flags & UNFIN_DT_LENGTH) !== 0 || (flags === 0 && length === HEADER))) {
        // The writer never wrote this block's length: it runs to the next block or the end of the file.
        const next = this.reader.known.after(at);
        this.end = Math.max(this.end, next);
        this.open = next === Number.POSITIVE_INFINITY;
      }
    }
  }
}

/**
 * Variable-length values in SD blocks, read by their offset: each is a UINT32 length and
 * that many bytes. Blocks are resolved in order as offsets reach them (offsets normally grow).
 */
export class SignalData {
  private blocks: number[] | null = null;
  /** Logical start and length of each resolved block. */
  private starts: number[] = [];
  private lengths: number[] = [];
  private cached: { index: number; bytes: Uint8Array } | null = null;

  constructor(
    private readonly reader: BlockReader,
    private readonly link: number,
    private readonly from: number,
  ) {}

  private *resolve(i: number): Io<boolean> {
    const blocks = this.blocks ?? [];
    while (this.starts.length <= i) {
      const n = this.starts.length;
      if (n >= blocks.length) return false;
      const at = blocks[n];
      const { id, length } = yield* this.reader.header(at, this.from, 'signal data');
      let len: number;
      if (id === '##DZ') {
        const h = yield* this.reader.cache.bytes(at + HEADER, 24);
        if (h.length < 24) throw new Mf4Error(at, 'signal data: DZ block cut short');
        len = u64(new DataView(h.buffer, h.byteOffset, 24), 8) ?? 0;
      } else if (id === '##SD') len = length - HEADER;
      else throw new Mf4Error(at, `signal data: expected SD or DZ, found ${id}`);
      this.starts.push(n === 0 ? 0 : this.starts[n - 1] + this.lengths[n - 1]);
      this.lengths.push(len);
    }
    return true;
  }

  /** `n` bytes at logical offset `at`, or null when the data ends first. */
  private *bytes(at: number, n: number): Io<Uint8Array | null> {
    if (!this.blocks) this.blocks = yield* dataBlocks(this.reader, this.link, this.from, 'signal data', '##SD');
    const out = new Uint8Array(n);
    let done = 0;
    // The block holding `at`: among the resolved ones, else resolve forward to it.
    const k = this.starts.length;
    let i: number;
    if (k > 0 && at < this.starts[k - 1] + this.lengths[k - 1]) {
      let lo = 0;
      let hi = k - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      i = lo;
    } else {
      i = k;
      for (;;) {
        if (!(yield* this.resolve(i))) return null;
        if (at < this.starts[i] + this.lengths[i]) break;
        i++;
      }
    }
    while (done < n) {
      if (!(yield* this.resolve(i))) return null;
      const from = at + done - this.starts[i];
      const take = Math.min(n - done, this.lengths[i] - from);
      const block = (this.blocks as number[])[i];
      let piece: Uint8Array;
      const { id } = yield* this.reader.header(block, this.from, 'signal data');
      if (id === '##DZ') {
        if (this.cached?.index !== i)
          this.cached = { index: i, bytes: yield* inflateBlock(this.reader, block, this.from, 'signal data', 'SD') };
        piece = this.cached.bytes.subarray(from, from + take);
      } else piece = yield* this.reader.cache.bytes(block + HEADER + from, take);
      if (piece.length < take) return null;
      out.set(piece, done);
      done += take;
      i++;
    }
    return out;
  }

  /** The value at `offset`, or null when it is not in the file. */
  *value(offset: number, max: number): Io<Uint8Array | null> {
    const len = yield* this.bytes(offset, 4);
    if (!len) return null;
    const n = new DataView(len.buffer).getUint32(0, true);
    if (n > max) return null;
    return n === 0 ? new Uint8Array(0) : yield* this.bytes(offset + 4, n);
  }
}
