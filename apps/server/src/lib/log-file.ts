/**
 * A CAN log file read from a byte stream (an upload, a file on disk, a recalled file): gzip
 * (magic bytes 1f 8b) is inflated on the way (inflate.ts: in zlib's thread pool, bounded), the
 * format is taken from the first bytes (or the file name: `trip.asc.gz`), and the frames are parsed
 * piece by piece, so the inflated file is never held whole. MF4 is read by random access from the
 * file (a stream is first written to a temporary file, see mf4-file.ts).
 */
import fs from 'node:fs';
import type { CanFrame } from '@loggerhead/can';
import { AutoLogReader, addStreamProblem, isGzip, type LogFormat, type LogReadResult } from '@loggerhead/can/logs/index.ts';
import { isMf4 } from '@loggerhead/can/logs/mf4/mf4-reader.ts';
import { gunzipLimited, InflatedTooLargeError, inflatedSize, isGzipDamage } from './inflate.ts';
import { isMf4File, readMf4File, readMf4Stream } from './mf4-file.ts';

export interface LogFileOptions {
  /** File name, for the format when the content does not tell (and for messages). */
  name?: string;
  format?: LogFormat | null;
  /** At most this many bytes are inflated from gzip; past it `LogTooLargeError`. */
  maxInflatedBytes?: number;
  /** Times in ASC/BLF/TRC headers are local wall-clock time at this offset (minutes east of UTC). */
  utcOffsetMinutes?: number;
}

/** Past `maxInflatedBytes` (an `InflatedTooLargeError`, the one a route answers 413 `upload.too-large`). */
export class LogTooLargeError extends InflatedTooLargeError {
  constructor(limit: number) {
    super(limit);
    this.message = `The log is larger than ${Math.round((limit / (1024 * 1024)) * 10) / 10} MB once inflated`;
    this.name = 'LogTooLargeError';
  }
}

export interface LogFileResult extends LogReadResult {
  /** The file was gzip-compressed. */
  gzip: boolean;
}

/** The bytes as they come, then the rest of the source. */
async function* prepend(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield first;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
}

/**
 * Reads a whole log from `source` (chunks of bytes). Never throws for a bad file: its problems
 * are in the result (`error` when nothing could be read, `warnings`/`skipped` otherwise); throws
 * `LogTooLargeError` past `maxInflatedBytes`, and whatever the source itself throws.
 */
export async function readLogStream(source: AsyncIterable<Uint8Array> | Uint8Array, opts: LogFileOptions = {}): Promise<LogFileResult> {
  // MF4 links back and forth: a file on disk is read in place, by random access.
  if (source instanceof fs.ReadStream && typeof source.path === 'string' && (await isMf4File(source.path))) {
    source.destroy();
    return { ...(await readMf4File(source.path, { utcOffsetMinutes: opts.utcOffsetMinutes })), gzip: false };
  }
  const iterable: AsyncIterable<Uint8Array> =
    source instanceof Uint8Array
      ? (async function* () {
          yield source;
        })()
      : source;
  const it = iterable[Symbol.asyncIterator]();
  // Enough bytes to see the gzip or MF4 magic (a first piece of one byte is allowed).
  let head = new Uint8Array(0);
  while (head.length < 8) {
    const r = await it.next();
    if (r.done) break;
    const joined = new Uint8Array(head.length + r.value.length);
    joined.set(head);
    joined.set(r.value, head.length);
    head = joined;
  }
  const gzip = isGzip(head);
  if (!gzip && isMf4(head) && !(source instanceof Uint8Array)) {
    return { ...(await readMf4Stream(head, it, { utcOffsetMinutes: opts.utcOffsetMinutes })), gzip: false };
  }
  const reader = new AutoLogReader({ name: opts.name, format: opts.format, utcOffsetMinutes: opts.utcOffsetMinutes });
  const frames: CanFrame[] = [];
  const take = (chunk: Uint8Array) => {
    const got = reader.push(chunk);
    for (let i = 0; i < got.length; i++) frames.push(got[i]);
  };
  let problem = '';
  let compressed = 0;
  if (!gzip) {
    if (head.length) take(head);
    for (let r = await it.next(); !r.done; r = await it.next()) take(r.value);
  } else {
    const max = opts.maxInflatedBytes ?? Number.POSITIVE_INFINITY;
    let pieces: AsyncIterable<Uint8Array> = prepend(head, it);
    if (Number.isFinite(max)) {
      // Bounded: the compressed bytes are kept (the upload's own limit bounds them) while a first
      // inflation only counts what they come to, so a bomb is refused as soon as it passes the
      // limit, before one frame of it is parsed or held.
      const kept: Uint8Array[] = [];
      const keep = (async function* () {
        for await (const c of prepend(head, it)) {
          kept.push(c);
          yield c;
        }
      })();
      try {
        await inflatedSize(keep, max);
      } catch (e) {
        if (e instanceof InflatedTooLargeError) throw new LogTooLargeError(max);
        // Damaged data: the second pass reads what it can and names the damage.
        if (!isGzipDamage(e)) throw e;
      }
      pieces = (async function* () {
        yield* kept;
      })();
    }
    try {
      for await (const chunk of gunzipLimited(pieces, max, (n) => {
        compressed += n;
      }))
        take(chunk);
    } catch (e) {
      if (e instanceof InflatedTooLargeError) throw new LogTooLargeError(max);
      if (isGzipDamage(e)) problem = `gzip data damaged or cut short: ${(e as Error).message}`;
      else throw e;
    }
  }
  const result = reader.end();
  if (frames.length) result.frames = frames.concat(result.frames);
  if (problem) {
    if (result.format === null) {
      return { ...result, gzip, error: `Could not inflate the gzip file (${problem})`, errorAt: { offset: compressed } };
    }
    addStreamProblem(result, compressed, problem);
  }
  return { ...result, gzip };
}

/** One line on what a read skipped: `3 lines skipped: line 7 (bad DLC), line 9 (…)`, the first `max` named. */
export function describeSkipped(r: Pick<LogReadResult, 'warnings' | 'skipped'>, max = 3): string {
  const byLine = r.warnings.some((w) => w.line !== undefined);
  const where = r.warnings
    .slice(0, max)
    .map((w) => `${w.line !== undefined ? `line ${w.line}` : `byte ${w.offset}`} (${w.message})`)
    .join(', ');
  const more = r.skipped > Math.min(max, r.warnings.length) ? ', …' : '';
  return `${r.skipped} ${byLine ? 'line' : 'object'}${r.skipped === 1 ? '' : 's'} skipped: ${where}${more}`;
}

/** `readLogStream` over a file on disk. */
export function readLogFile(path: string, opts: LogFileOptions = {}): Promise<LogFileResult> {
  return readLogStream(fs.createReadStream(path, { highWaterMark: 1 << 20 }), { name: path, ...opts });
}
