/**
 * MF4 is a random-access format: blocks link to each other by file offset. The reader is written
 * once, without I/O, as generators that `yield` a read request and get the bytes back; small
 * drivers then run it over bytes in memory (sync), over a random-access source such as a file
 * handle (async), or over pieces pushed as they arrive. The results are the same in every mode
 * because the reader learns about the end of the file only from short reads, never from a size.
 */

/** Bytes at `offset`: at least `min` of `length` (fewer only at the end of the file; 0 = past it). */
export interface ReadRequest {
  offset: number;
  length: number;
  min: number;
}

/** A step of the reader that may need bytes. */
export type Io<T> = Generator<ReadRequest, T, Uint8Array>;

/** A fatal structural problem, located in the file. */
export class Mf4Error extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function* read(offset: number, length: number, min = length): Io<Uint8Array> {
  return yield { offset, length, min };
}

const PAGE = 1 << 16;
const PAGES = 32;

/**
 * Small reads (block headers, names, links) served from 64 KiB pages, so that metadata spread
 * over a few hundred blocks costs a few reads instead of a few hundred. Holds at most 2 MiB.
 */
export class PageCache {
  private readonly pages = new Map<number, Uint8Array>();

  /** Exactly `length` bytes at `offset`, or fewer when the file ends first. */
  *bytes(offset: number, length: number): Io<Uint8Array> {
    const first = Math.floor(offset / PAGE);
    if (length > PAGE || Math.floor((offset + length - 1) / PAGE) !== first) return yield* read(offset, length);
    let page = this.pages.get(first);
    if (!page) {
      page = (yield* read(first * PAGE, PAGE)).slice();
      if (this.pages.size >= PAGES) this.pages.delete(this.pages.keys().next().value as number);
      this.pages.set(first, page);
    }
    const at = offset - first * PAGE;
    return page.subarray(at, Math.min(at + length, page.length));
  }
}

/** Runs a reader over bytes in memory. */
export function runSync<T>(gen: Io<T>, bytes: Uint8Array): T {
  let r = gen.next();
  while (!r.done) {
    const { offset, length } = r.value;
    const start = Math.min(Math.max(0, offset), bytes.length);
    r = gen.next(bytes.subarray(start, Math.min(bytes.length, start + length)));
  }
  return r.value;
}

/** Resolves with up to `length` bytes at `offset`; fewer only at the end of the file. */
export type RandomAccessSource = (offset: number, length: number) => Promise<Uint8Array> | Uint8Array;

/**
 * Runs a reader over pieces pushed in file order. It must keep every byte (a link may point
 * back anywhere), so memory grows with the file: use a random-access source for big files.
 */
export class PushRunner<T> {
  private buf = new Uint8Array(1 << 16);
  private size = 0;
  private ended = false;
  private pending: ReadRequest | null = null;
  private finished: { value: T } | null = null;

  constructor(private readonly gen: Io<T>) {}

  push(chunk: Uint8Array): void {
    if (this.size + chunk.length > this.buf.length) {
      let cap = this.buf.length * 2;
      while (cap < this.size + chunk.length) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.buf.subarray(0, this.size));
      this.buf = next;
    }
    this.buf.set(chunk, this.size);
    this.size += chunk.length;
    this.run();
  }

  /** Marks the end of the file and runs the reader to its end. */
  end(): T {
    this.ended = true;
    this.run();
    if (!this.finished) throw new Error('MF4 reader did not finish');
    return this.finished.value;
  }

  private run(): void {
    if (this.finished) return;
    let r = this.pending ? null : this.gen.next();
    if (r?.done) {
      this.finished = { value: r.value };
      return;
    }
    let req = this.pending ?? (r?.value as ReadRequest);
    for (;;) {
      if (req.length === 0) {
        r = this.gen.next(new Uint8Array(0));
        if (r.done) {
          this.finished = { value: r.value };
          return;
        }
        req = r.value;
        continue;
      }
      const start = Math.max(0, req.offset);
      const have = this.size - start;
      if (!this.ended && have < Math.max(1, req.min)) {
        this.pending = req;
        return;
      }
      this.pending = null;
      const from = Math.min(start, this.size);
      r = this.gen.next(this.buf.subarray(from, Math.min(this.size, from + req.length)));
      if (r.done) {
        this.finished = { value: r.value };
        return;
      }
      req = r.value;
    }
  }
}
