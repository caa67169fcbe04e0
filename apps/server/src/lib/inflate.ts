/**
 * The one way the server inflates what a user sent (gzip-compressed logs, console bundles): as a
 * stream, in zlib's thread pool rather than on the thread that serves every tenant, and bounded. As
 * soon as the inflated bytes pass the limit the inflater and the source are stopped and
 * `InflatedTooLargeError` is thrown; what was inflated so far is not kept anywhere, so a bomb costs
 * at most the limit and the pieces in flight, and its memory goes back at once. Routes answer it
 * 413 `upload.too-large` (`uploadTooLarge`).
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ApiError } from './errors.ts';

export class InflatedTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The file is larger than ${Math.round((limit / (1024 * 1024)) * 10) / 10} MB once inflated`);
    this.name = 'InflatedTooLargeError';
  }
}

/** A gzip stream that is damaged or cut short (not the limit, not the source's own failure). */
export function isGzipDamage(e: unknown): boolean {
  return (e as { code?: string }).code?.startsWith('Z_') === true || /unexpected end|incorrect header|invalid/i.test((e as Error).message);
}

/**
 * Inflates gzip bytes (one or several members) piece by piece as they come from `source`. Throws
 * `InflatedTooLargeError` once more than `max` bytes came out (the source is not read further),
 * zlib's error for damaged data, and whatever the source throws. `onCompressed` sees the size of
 * each compressed piece read.
 */
export async function* gunzipLimited(
  source: AsyncIterable<Uint8Array> | Uint8Array,
  max: number,
  onCompressed?: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  const counted = (async function* () {
    if (source instanceof Uint8Array) {
      onCompressed?.(source.length);
      yield source;
      return;
    }
    for await (const c of source) {
      onCompressed?.(c.length);
      yield c;
    }
  })();
  const gunzip = createGunzip();
  const input = Readable.from(counted, { objectMode: false });
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  let inflated = 0;
  try {
    for await (const chunk of gunzip) {
      inflated += (chunk as Buffer).length;
      if (inflated > max) throw new InflatedTooLargeError(max);
      yield chunk as Buffer;
    }
  } finally {
    input.unpipe(gunzip);
    input.destroy();
    gunzip.destroy();
    // The source's own iterator is ended too (an upload stops being read).
    await counted.return(undefined).catch(() => {});
  }
}

/** The whole inflated content, at most `max` bytes (`gunzipLimited` gathered). */
export async function gunzipToBuffer(source: AsyncIterable<Uint8Array> | Uint8Array, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of gunzipLimited(source, max)) parts.push(c);
  return Buffer.concat(parts);
}

/** Counts what `source` inflates to, keeping nothing of it: throws like `gunzipLimited` past `max`. */
export async function inflatedSize(source: AsyncIterable<Uint8Array> | Uint8Array, max: number): Promise<number> {
  let n = 0;
  for await (const c of gunzipLimited(source, max)) n += c.length;
  return n;
}

/** The 413 a route answers for `InflatedTooLargeError`. */
export function uploadTooLarge(e: InflatedTooLargeError): ApiError {
  return new ApiError(413, 'upload.too-large', e.message, { details: { limit_bytes: e.limit } });
}
