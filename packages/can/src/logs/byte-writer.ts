/**
 * Growable ASCII output buffer. Text writers emit bytes straight into it instead of
 * concatenating strings: a million-line export then costs a few buffer doublings, not a
 * million short-lived strings.
 */

const HEX_UPPER = new Uint8Array([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 65, 66, 67, 68, 69, 70]);

export class ByteWriter {
  buf: Uint8Array;
  pos = 0;

  constructor(initial = 1 << 16) {
    this.buf = new Uint8Array(initial);
  }

  /** Makes room for `n` more bytes; the unchecked writers below rely on it. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }

  /** ASCII only (callers pass our own format strings and interface names). */
  ascii(s: string): void {
    this.ensure(s.length);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i) & 0x7f;
    this.pos = p;
  }

  hex2(v: number): void {
    const b = this.buf;
    b[this.pos++] = HEX_UPPER[(v >> 4) & 15];
    b[this.pos++] = HEX_UPPER[v & 15];
  }

  hexDigit(v: number): void {
    this.buf[this.pos++] = HEX_UPPER[v & 15];
  }

  /** Upper-case hex of `v` (up to 32 bits), zero-padded to `width` digits. */
  hex(v: number, width: number): void {
    let digits = 1;
    while (digits < 8 && v >>> (digits * 4) !== 0) digits++;
    if (digits < width) digits = width;
    const b = this.buf;
    for (let i = digits - 1; i >= 0; i--) b[this.pos++] = HEX_UPPER[(v >>> (i * 4)) & 15];
  }

  /** Decimal of a non-negative integer below 2^53, zero-padded to `width` digits. */
  uint(v: number, width = 1): void {
    const b = this.buf;
    let digits = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
    if (digits < width) digits = width;
    let p = this.pos + digits;
    this.pos = p;
    for (let i = 0; i < digits; i++) {
      const q = Math.floor(v / 10);
      b[--p] = 48 + (v - q * 10);
      v = q;
    }
  }

  spaces(n: number): void {
    for (let i = 0; i < n; i++) this.buf[this.pos++] = 32;
  }

  /** The written bytes; copied out when the buffer is mostly slack so callers do not hold it. */
  result(): Uint8Array {
    return this.pos * 2 < this.buf.length ? this.buf.slice(0, this.pos) : this.buf.subarray(0, this.pos);
  }
}
