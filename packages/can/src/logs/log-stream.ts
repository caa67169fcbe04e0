/**
 * Incremental reading and writing for files too big to hold at once.
 *
 * Reading: feed pieces as they arrive (upload stream, file read stream) and take the frames
 * parsed so far after each; the result equals `readLog` on the whole file whatever the cuts.
 * Writing: pass frames in batches and send each returned piece on (e.g. an HTTP response);
 * the pieces concatenated are the file. BLF's header holds totals known only at the end:
 * `header()` returns the final one for a sink that can overwrite its first 144 bytes.
 */
import type { CanFrame } from '../frame.ts';
import { ByteQueue } from './byte-queue.ts';
import type { IncrementalParser, LineParser, LogReadResult } from './types.ts';

export interface LogStreamReader {
  /** Parses what `chunk` completes; returns the frames parsed since the previous call. */
  push(chunk: Uint8Array): CanFrame[];
  /** Parses the rest; the result's `frames` are only those not returned by `push` yet. */
  end(): LogReadResult;
}

/** No log line is this long; past it the line is reported as bad and the rest of it dropped. */
const MAX_LINE = 1 << 16;

/** Splits pieces into lines, keeping a partial last line until the next piece. */
export class TextStream implements LogStreamReader {
  private readonly rest = new ByteQueue();
  private lineNo = 0;
  private first = true;
  /** Inside an overlong line: drop bytes up to its end. */
  private dropping = false;

  constructor(private readonly parser: LineParser) {}

  push(chunk: Uint8Array): CanFrame[] {
    let pos = 0;
    if (this.dropping) {
      const nl = chunk.indexOf(10);
      if (nl < 0) return this.parser.drain();
      this.dropping = false;
      pos = nl + 1;
    }
    // Bytes already queued hold no line break: search only the new ones.
    const queued = this.rest.length;
    const direct = queued === 0;
    const b = direct ? chunk : this.rest.append(pos > 0 ? chunk.subarray(pos) : chunk);
    if (!direct) pos = 0;
    if (this.first && b.length - pos >= 3) {
      this.first = false;
      if (b[pos] === 0xef && b[pos + 1] === 0xbb && b[pos + 2] === 0xbf) pos += 3;
    }
    let nl = b.indexOf(10, Math.max(pos, queued));
    while (nl >= 0) {
      this.line(b, pos, nl);
      pos = nl + 1;
      nl = b.indexOf(10, pos);
    }
    if (b.length - pos > MAX_LINE) {
      this.line(b, pos, pos + MAX_LINE);
      this.dropping = true;
      pos = b.length;
    }
    if (direct) this.rest.append(b.subarray(pos));
    else this.rest.consume(pos);
    return this.parser.drain();
  }

  private line(b: Uint8Array, start: number, nl: number): void {
    const end = nl > start && b[nl - 1] === 13 ? nl - 1 : nl;
    this.parser.line(b, start, end, ++this.lineNo);
  }

  end(): LogReadResult {
    const rest = this.rest.view();
    if (rest.length > 0 && !this.dropping) this.line(rest, 0, rest.length);
    this.rest.clear();
    return this.parser.result();
  }
}

/** A binary format's parser that takes pieces itself. */
export class BinaryStream implements LogStreamReader {
  constructor(private readonly parser: IncrementalParser & { push(chunk: Uint8Array): void }) {}

  push(chunk: Uint8Array): CanFrame[] {
    this.parser.push(chunk);
    return this.parser.drain();
  }

  end(): LogReadResult {
    return this.parser.result();
  }
}

export interface LogStreamWriter {
  /** Encodes a batch of frames; returns the bytes to append to the file (may be empty). */
  write(frames: readonly CanFrame[]): Uint8Array;
  /** Returns the file's last bytes. */
  end(): Uint8Array;
  /** BLF only: the final file header, to write over the first 144 bytes after `end()`. */
  header?(): Uint8Array;
}
