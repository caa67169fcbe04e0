/**
 * How bytea crosses the driver. A PostgreSQL server takes and returns binary; PGlite (Postgres in
 * WebAssembly) moves a bytea parameter or result through a slow per-byte path, while base64 text
 * (`encode(x, 'base64')` / `decode($n, 'base64')`) goes through native code on both sides: 3-4× faster
 * to write and ~15× faster to read a chunk, and what made a month-long curve spend most of its time
 * in the conversion.
 *
 * Two ways use this: the frame store picks per driver with `bytesCodec`, and the signal store always
 * sends base64 text with `toB64` / `fromB64`.
 */
export interface BytesCodec {
  /** SQL for parameter `$n` holding bytes. */
  param(n: number): string;
  value(b: Uint8Array): unknown;
  /** SQL selecting a bytea expression as column `as`. */
  select(expr: string, as: string): string;
  read(v: unknown): Uint8Array;
}

export const toB64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
export const fromB64 = (s: string): Uint8Array => Buffer.from(s, 'base64');

const binary: BytesCodec = {
  param: (n) => `$${n}`,
  value: (b) => b,
  select: (expr, as) => `${expr} as ${as}`,
  read: (v) => v as Uint8Array,
};

const base64: BytesCodec = {
  param: (n) => `decode($${n}, 'base64')`,
  value: toB64,
  select: (expr, as) => `encode(${expr}, 'base64') as ${as}`,
  read: (v) => {
    const b = Buffer.from(v as string, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  },
};

export const bytesCodec = (kind: 'pglite' | 'postgres'): BytesCodec => (kind === 'pglite' ? base64 : binary);
