/**
 * MDF 4 blocks (ASAM MDF 4.1/4.2): every block but the 64-byte ID block starts with a 24-byte
 * header (`##XX`, 4 reserved bytes, UINT64 length, UINT64 link count), then its links (INT64
 * file offsets, 0 = none), then its data. All numbers little-endian.
 */
import { type Io, Mf4Error, type PageCache } from './mf4-io.ts';

export const HEADER = 24;
/** The HD block always follows the 64-byte ID block. */
export const HD_OFFSET = 64;
/** No metadata block we read is this big (DL blocks of huge files stay far below). */
const MAX_META_BLOCK = 16 << 20;

export interface Block {
  offset: number;
  id: string;
  length: number;
  links: number[];
  /** The data section (after the links), within `length`. */
  data: DataView;
  bytes: Uint8Array;
}

/** UINT64 as a number; null past 2^53 (no offset or count of a real file gets there). */
export function u64(dv: DataView, at: number): number | null {
  const hi = dv.getUint32(at + 4, true);
  if (hi >= 0x200000) return null;
  return hi * 0x100000000 + dv.getUint32(at, true);
}

function id4(b: Uint8Array): string {
  return String.fromCharCode(b[0], b[1], b[2], b[3]);
}

/**
 * Every offset a link of a parsed block points at: each is the start of a block, so the
 * smallest one past an unfinalized data block bounds where that block can end.
 */
export class KnownOffsets {
  private readonly set = new Set<number>();
  private sorted: number[] | null = null;

  add(o: number): void {
    if (o > 0 && !this.set.has(o)) {
      this.set.add(o);
      this.sorted = null;
    }
  }

  /** The smallest known block start after `o`, or Infinity. */
  after(o: number): number {
    if (!this.sorted) this.sorted = [...this.set].sort((a, b) => a - b);
    const s = this.sorted;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid] <= o) lo = mid + 1;
      else hi = mid;
    }
    return lo < s.length ? s[lo] : Number.POSITIVE_INFINITY;
  }
}

export class BlockReader {
  readonly known = new KnownOffsets();
  /** Blocks read so far: a bound on work for files whose links go round in circles. */
  reads = 0;

  constructor(readonly cache: PageCache) {}

  /** Checks a link before following it. */
  check(link: number, from: number, what: string): void {
    if (!Number.isSafeInteger(link) || link < HD_OFFSET) throw new Mf4Error(from, `${what}: link ${link} points outside the file`);
  }

  /** The 24-byte header at `offset`: id and length. */
  *header(offset: number, from: number, what: string): Io<{ id: string; length: number; linkCount: number }> {
    this.check(offset, from, what);
    const h = yield* this.cache.bytes(offset, HEADER);
    if (h.length < HEADER) throw new Mf4Error(offset, `${what}: block runs past the end of the file`);
    if (h[0] !== 0x23 || h[1] !== 0x23) throw new Mf4Error(offset, `${what}: no block here (expected "##")`);
    const dv = new DataView(h.buffer, h.byteOffset, HEADER);
    const length = u64(dv, 8);
    const linkCount = u64(dv, 16);
    if (length === null || linkCount === null || linkCount > (length - HEADER) / 8 || length < HEADER)
      throw new Mf4Error(offset, `${what}: block ${id4(h.subarray(0, 4))} has an impossible length or link count`);
    return { id: id4(h), length, linkCount };
  }

  /** A whole metadata block, checking its id when `expect` is given. */
  *block(offset: number, from: number, what: string, ...expect: string[]): Io<Block> {
    if (++this.reads > 2_000_000) throw new Mf4Error(offset, 'too many blocks (do links go round in circles?)');
    const { id, length, linkCount } = yield* this.header(offset, from, what);
    if (expect.length && !expect.includes(id)) throw new Mf4Error(offset, `${what}: expected ${expect.join(' or ')}, found ${id}`);
    if (length > MAX_META_BLOCK) throw new Mf4Error(offset, `${what}: ${id} block of ${length} bytes is too big`);
    const bytes = yield* this.cache.bytes(offset, length);
    if (bytes.length < length) throw new Mf4Error(offset, `${what}: ${id} block runs past the end of the file`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, length);
    const links: number[] = new Array(linkCount);
    for (let i = 0; i < linkCount; i++) {
      const l = u64(dv, HEADER + 8 * i);
      if (l === null) throw new Mf4Error(offset, `${what}: ${id} block has a link past 2^53`);
      links[i] = l;
      this.known.add(l);
    }
    const start = HEADER + 8 * linkCount;
    return { offset, id, length, links, bytes, data: new DataView(bytes.buffer, bytes.byteOffset + start, length - start) };
  }

  /** Text of a TX block (or the `<TX>` of an MD block); '' for no link. */
  *text(link: number, from: number, what: string): Io<string> {
    if (link === 0) return '';
    const b = yield* this.block(link, from, what, '##TX', '##MD');
    const raw = new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength);
    const end = raw.indexOf(0);
    const s = new TextDecoder('utf-8', { fatal: false }).decode(end < 0 ? raw : raw.subarray(0, end));
    if (b.id === '##TX') return s;
    const m = /<TX>([^<]*)<\/TX>/.exec(s);
    return m ? m[1] : '';
  }
}

/** A block's data field, checking that it is there. */
export function need(b: Block, size: number, what: string): DataView {
  if (b.data.byteLength < size)
    throw new Mf4Error(b.offset, `${what}: ${b.id} block too short (${b.data.byteLength} data bytes, need ${size})`);
  return b.data;
}

/** Follows a `next` chain, refusing to go round in circles. */
export function* chain<T>(
  reader: BlockReader,
  first: number,
  from: number,
  what: string,
  expect: string,
  visit: (b: Block) => Io<T>,
  max = 1 << 20,
): Io<T[]> {
  const out: T[] = [];
  const seen = new Set<number>();
  let link = first;
  let prev = from;
  while (link !== 0) {
    if (seen.has(link)) throw new Mf4Error(link, `${what}: the list of ${expect} blocks goes round in a circle`);
    if (seen.size >= max) throw new Mf4Error(link, `${what}: more than ${max} ${expect} blocks`);
    seen.add(link);
    const b = yield* reader.block(link, prev, what, expect);
    out.push(yield* visit(b));
    prev = link;
    link = b.links[0] ?? 0;
  }
  return out;
}
