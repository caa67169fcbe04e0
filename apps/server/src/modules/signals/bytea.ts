/**
 * bytea travels as base64 text (`encode(x, 'base64')` / `decode($n, 'base64')`): PGlite converts
 * bytea results and parameters byte by byte in JavaScript, which made a month-long curve spend
 * most of its time there; base64 is converted natively on both drivers.
 */
export const toB64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
export const fromB64 = (s: string): Uint8Array => Buffer.from(s, 'base64');
