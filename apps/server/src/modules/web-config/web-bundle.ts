import path from 'node:path';
import { gunzipToBuffer, InflatedTooLargeError, uploadTooLarge } from '../../lib/inflate.ts';

/** Bounds of an uploaded console bundle, unpacked. */
export const BUNDLE_MAX_BYTES = 200 * 1024 * 1024;
export const BUNDLE_MAX_FILES = 5000;

export class BadBundle extends Error {}

/** A bundle's path, checked: relative, normalised, inside the bundle (no `..`, no absolute path, no drive, no backslash). */
export function safePath(name: string): string {
  const n = name.replace(/^\.\//, '');
  if (!n || n.includes('\\') || n.includes('\0') || n.startsWith('/') || /^[A-Za-z]:/.test(n)) throw new BadBundle(`bad path ${name}`);
  const norm = path.posix.normalize(n);
  if (norm !== n.replace(/\/$/, '') || norm.split('/').some((p) => p === '..' || p === '.' || p === ''))
    throw new BadBundle(`bad path ${name}`);
  return norm;
}

const text = (b: Buffer, from: number, len: number) => {
  const s = b.subarray(from, from + len);
  const end = s.indexOf(0);
  return s.subarray(0, end === -1 ? s.length : end).toString('utf8');
};

/**
 * The regular files of a gzip-compressed tar (ustar, with pax and GNU long names), checked: bounded
 * in size and count, every path inside the bundle. A single top folder (`dist/`) is taken off, so
 * that `index.html` is at the top. Inflated as a stream in zlib's thread pool (inflate.ts), not on
 * the server's thread: past the bound, 413 `upload.too-large` as soon as the inflated bytes pass it.
 */
export async function unpackTarGz(gz: Buffer): Promise<Map<string, Buffer>> {
  let tar: Buffer;
  try {
    tar = await gunzipToBuffer(gz, BUNDLE_MAX_BYTES + 1024 * 1024);
  } catch (e) {
    if (e instanceof InflatedTooLargeError) throw uploadTooLarge(e);
    throw new BadBundle('not a gzip file');
  }
  const files = new Map<string, Buffer>();
  let at = 0;
  let longName: string | null = null;
  let total = 0;
  while (at + 512 <= tar.length) {
    const h = tar.subarray(at, at + 512);
    if (h.every((x) => x === 0)) break;
    const size = Number.parseInt(text(h, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new BadBundle('bad tar header');
    const type = String.fromCharCode(h[156] || 48);
    const body = tar.subarray(at + 512, at + 512 + size);
    if (body.length < size) throw new BadBundle('truncated tar');
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = text(body, 0, body.length);
      continue;
    }
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'g') continue;
    const prefix = text(h, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
    longName = null;
    if (type === '5') {
      // A folder: `tar czf x.tar.gz .` writes `./` for the bundle's own top, `*` writes `assets/`.
      const dir = name.replace(/\/+$/, '');
      if (dir !== '.') safePath(dir);
      continue;
    }
    if (type !== '0' && type !== '7') throw new BadBundle(`unsupported entry ${name}`);
    const p = safePath(name);
    total += size;
    if (total > BUNDLE_MAX_BYTES || files.size >= BUNDLE_MAX_FILES) throw new BadBundle('bundle too large');
    files.set(p, body);
  }
  if (!files.has('index.html')) {
    const tops = new Set([...files.keys()].map((k) => k.split('/')[0]));
    const [top] = tops;
    if (tops.size === 1 && files.has(`${top}/index.html`)) {
      return new Map([...files].map(([k, v]) => [k.slice(top.length + 1), v]));
    }
    throw new BadBundle('no index.html at the top');
  }
  return files;
}
