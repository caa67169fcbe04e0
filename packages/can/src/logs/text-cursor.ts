/**
 * Hand-rolled scanning over ASCII bytes. The text readers work on the raw file bytes
 * (no TextDecoder, no split, no regex per line) because that is what keeps candump
 * parsing above a million lines per second.
 */

/** Hex digit value per byte, -1 for non-hex. */
export const HEX_VALUE = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) t[48 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[65 + i] = 10 + i;
    t[97 + i] = 10 + i;
  }
  return t;
})();

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000];

export function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/** A position inside one line: `b[p..e)`. Readers reuse a single instance for the whole file. */
export class Cursor {
  b: Uint8Array;
  p = 0;
  e = 0;

  constructor(b: Uint8Array) {
    this.b = b;
  }

  setLine(start: number, end: number): void {
    this.p = start;
    this.e = end;
  }

  atEnd(): boolean {
    return this.p >= this.e;
  }

  peek(): number {
    return this.p < this.e ? this.b[this.p] : -1;
  }

  skipSpaces(): number {
    const b = this.b;
    let p = this.p;
    const start = p;
    while (p < this.e && (b[p] === 32 || b[p] === 9)) p++;
    this.p = p;
    return p - start;
  }

  /** Advances over a run of non-blank bytes and returns where it started. */
  token(): number {
    const b = this.b;
    const start = this.p;
    let p = start;
    while (p < this.e && b[p] !== 32 && b[p] !== 9) p++;
    this.p = p;
    return start;
  }

  /** True when the bytes at [start, this.p) spell `word` (ASCII, case-insensitive). */
  tokenIs(start: number, word: string): boolean {
    if (this.p - start !== word.length) return false;
    for (let i = 0; i < word.length; i++) {
      if ((this.b[start + i] | 0x20) !== (word.charCodeAt(i) | 0x20)) return false;
    }
    return true;
  }

  text(start: number, end = this.p): string {
    let s = '';
    for (let i = start; i < end; i++) s += String.fromCharCode(this.b[i]);
    return s;
  }

  /**
   * Seconds with an optional fraction as integer microseconds. Integer and fraction are
   * accumulated separately so `1436509052.249713` stays exact (a float parse would not).
   * Fractions finer than 1 µs are rounded. Returns NaN when no digits are found.
   */
  seconds(): number {
    const b = this.b;
    let p = this.p;
    const e = this.e;
    let sec = 0;
    const start = p;
    while (p < e && b[p] >= 48 && b[p] <= 57) sec = sec * 10 + (b[p++] - 48);
    let us = 0;
    if (p < e && b[p] === 46) {
      p++;
      let n = 0;
      while (p < e && n < 6 && b[p] >= 48 && b[p] <= 57) {
        us = us * 10 + (b[p++] - 48);
        n++;
      }
      us *= POW10[6 - n];
      if (p < e && b[p] >= 53 && b[p] <= 57) us++;
      while (p < e && b[p] >= 48 && b[p] <= 57) p++;
      if (n === 0 && p === start + 1) return Number.NaN;
    } else if (p === start) {
      return Number.NaN;
    }
    this.p = p;
    return sec * 1e6 + us;
  }

  /** Unsigned number in base 16 or 10 from the current position to the next blank; NaN if malformed. */
  uintToken(base: number): number {
    const b = this.b;
    let p = this.p;
    let v = 0;
    const start = p;
    while (p < this.e && b[p] !== 32 && b[p] !== 9) {
      const d = HEX_VALUE[b[p]];
      if (d < 0 || d >= base) return Number.NaN;
      v = v * base + d;
      p++;
    }
    this.p = p;
    return p === start ? Number.NaN : v;
  }
}

/** Calls `fn(start, end, lineNumber)` for every line, without the line break (`\n` or `\r\n`). */
export function forEachLine(b: Uint8Array, fn: (start: number, end: number, line: number) => void): void {
  let pos = 0;
  let line = 0;
  const n = b.length;
  // A UTF-8 byte order mark would otherwise look like garbage on line 1.
  if (n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) pos = 3;
  while (pos < n) {
    let nl = b.indexOf(10, pos);
    if (nl < 0) nl = n;
    let end = nl;
    if (end > pos && b[end - 1] === 13) end--;
    fn(pos, end, ++line);
    pos = nl + 1;
  }
}

export function toBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}
