import type { CompiledMessage, DbcDecoder } from '@loggerhead/can/dbc/dbc.decoder.ts';
import { csvText } from '../lib/csv.ts';

/**
 * Output of `loggerhead decode`, built for a million frames a second: lines are written as bytes
 * into one buffer (no string per line), every piece that depends only on the DBC (JSON keys, a
 * message's fixed part, CSV padding) is encoded once, and a signal's non-integer values are
 * formatted once per distinct value.
 */

const utf8 = new TextEncoder();
export const bytesOf = (s: string) => utf8.encode(s);

/**
 * Physical values print without binary noise (0.1 * 3 prints 0.3, not 0.30000000000000004): the
 * 15-digit form is taken only when it is within two ulps of the value, so real precision is kept.
 */
export function num(v: number): string {
  if (Number.isInteger(v) || !Number.isFinite(v)) return String(v);
  const short = Number(v.toPrecision(15));
  return String(Math.abs(short - v) <= Math.abs(v) * 4.5e-16 ? short : v);
}

/**
 * How a value that is not a plain number is written. JSON has no NaN or infinities: a float signal
 * that carries one is written as the string "NaN", "Infinity" or "-Infinity" (what Python's float()
 * and JavaScript's Number() read back; a missing signal is left out, never null). An integer beyond
 * 2^53 is written exactly, as a string of digits in JSON, since a JSON number that size loses digits
 * in most readers. CSV cells hold the same text without quotes.
 */
export function special(v: number): string {
  return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
}

/** "00" to "99": two digits at a time. */
const PAIRS = (() => {
  const t = new Uint8Array(200);
  for (let i = 0; i < 100; i++) {
    t[2 * i] = 48 + ((i / 10) | 0);
    t[2 * i + 1] = 48 + (i % 10);
  }
  return t;
})();

/** Writes a safe integer in decimal (what String(v) prints) at `p`; returns the position after it. */
export function putInt(buf: Uint8Array, p: number, v: number): number {
  if (v < 0) {
    buf[p++] = 45;
    v = -v;
  }
  if (v < 10) {
    buf[p] = 48 + v;
    return p + 1;
  }
  if (v < 0x80000000) {
    // 32-bit integer arithmetic, two digits per division: most values are small.
    let n = v | 0;
    const end =
      p +
      (n < 100
        ? 2
        : n < 1000
          ? 3
          : n < 10000
            ? 4
            : n < 100000
              ? 5
              : n < 1000000
                ? 6
                : n < 10000000
                  ? 7
                  : n < 100000000
                    ? 8
                    : n < 1000000000
                      ? 9
                      : 10);
    let q = end;
    while (n >= 100) {
      const d = (n / 100) | 0;
      const r = (n - d * 100) << 1;
      buf[--q] = PAIRS[r + 1];
      buf[--q] = PAIRS[r];
      n = d;
    }
    if (n >= 10) {
      buf[--q] = PAIRS[(n << 1) + 1];
      buf[--q] = PAIRS[n << 1];
    } else buf[--q] = 48 + n;
    return end;
  }
  let digits = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
  const end = p + digits;
  let q = end;
  while (v >= 10) {
    const d = Math.floor(v / 10);
    buf[--q] = 48 + (v - d * 10);
    v = d;
  }
  buf[--q] = 48 + v;
  return end;
}

/**
 * Constant bytes (JSON keys, a message's fixed part) kept as little-endian 32-bit words too, so that
 * `ByteOut.piece` copies them four bytes at a time.
 */
export interface Piece {
  /** Length in bytes. */
  n: number;
  bytes: Uint8Array;
  /** The bytes padded with zeros to a multiple of 4, as words. */
  words: Int32Array;
}

/** Longer pieces are copied with one `set` (memcpy) instead. */
const WORDS_UP_TO = 64;

export function pieceOf(bytes: Uint8Array): Piece {
  const padded = new Uint8Array((bytes.length + 3) & ~3);
  padded.set(bytes);
  const words = new Int32Array(padded.length >> 2);
  const view = new DataView(padded.buffer);
  for (let i = 0; i < words.length; i++) words[i] = view.getInt32(i * 4, true);
  return { n: bytes.length, bytes, words };
}

/** Growable byte buffer handed out in pieces. */
export class ByteOut {
  buf: Uint8Array;
  /** A view of `buf` for word stores. */
  view: DataView;
  pos = 0;

  constructor(size = 1 << 20) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /**
   * Constant bytes, a word at a time: the last word may store up to 3 bytes past the piece, which
   * the next writes overwrite. So the room ensured must include 3 bytes beyond it.
   */
  piece(pc: Piece): void {
    let p = this.pos;
    this.pos = p + pc.n;
    if (pc.n > WORDS_UP_TO) {
      this.buf.set(pc.bytes, p);
      return;
    }
    const w = pc.words;
    const view = this.view;
    for (let i = 0; i < w.length; i++) {
      view.setInt32(p, w[i], true);
      p += 4;
    }
  }

  /** A line of text (UTF-8) and its newline. */
  line(s: string): void {
    const b = bytesOf(`${s}\n`);
    this.ensure(b.length);
    this.bytes(b);
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    const buf = this.buf;
    let p = this.pos;
    if (n < 32) for (let i = 0; i < n; i++) buf[p++] = b[i];
    else {
      buf.set(b, p);
      p += n;
    }
    this.pos = p;
  }

  /**
   * Bytes `[start, end)` of `src`, a word at a time: reads up to 3 bytes past `end` (which `src` must
   * hold) and stores as many past the copy, which the next writes overwrite.
   */
  copy(src: DataView, start: number, end: number): void {
    let p = this.pos;
    this.pos = p + (end - start);
    const view = this.view;
    for (let i = start; i < end; i += 4) {
      view.setInt32(p, src.getInt32(i, true), true);
      p += 4;
    }
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }

  /** ASCII text (numbers, names checked to be ASCII). */
  ascii(s: string): void {
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** A safe integer in decimal (what String(v) prints). */
  int(v: number): void {
    this.pos = putInt(this.buf, this.pos, v);
  }

  private readonly spare: Uint8Array[] = [];

  /** The bytes written so far; writing goes on in a spare buffer until `give` returns this one. */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.buf = this.spare.pop() ?? new Uint8Array(this.buf.length);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.pos = 0;
    return out;
  }

  /** Hands back a piece from `take` once it is written out, for reuse. */
  give(piece: Uint8Array): void {
    if (this.spare.length < 4 && piece.buffer.byteLength === this.buf.length) this.spare.push(new Uint8Array(piece.buffer));
  }
}

/** Distinct values kept per signal; a signal with more (a wide counter) is formatted each time. */
const CACHE_PER_SIGNAL = 4096;

/** Decimal places of a factor or offset written in a DBC (`0.01` → 2), or -1 beyond 12. */
function decimals(x: number): number {
  for (let d = 0; d <= 12; d++) if (Math.round(x * 10 ** d) / 10 ** d === x) return d;
  return -1;
}

/**
 * Writes the values of one signal. A scaled value is `raw × factor + offset`; with a factor and an
 * offset of at most 12 decimals its intended decimal has as many, so it is written from the integer
 * `round(v × 10^d)` — after checking that this decimal is what `num` would print (within two ulps
 * of v, 15 digits at most, not in exponent form). Anything else goes through `num`, cached by value.
 */
class ValueBytes {
  private readonly cache = new Map<number, Uint8Array>();
  private readonly scale: number;
  private readonly places: number;

  constructor(factor: number, offset: number) {
    const d = Math.max(decimals(factor), decimals(offset));
    this.places = decimals(factor) < 0 || decimals(offset) < 0 ? -1 : d;
    this.scale = 10 ** Math.max(0, this.places);
  }

  write(out: ByteOut, v: number): void {
    if (Number.isSafeInteger(v)) {
      out.int(v);
      return;
    }
    if (this.places > 0) {
      const n = Math.round(v * this.scale);
      const short = n / this.scale;
      const a = n < 0 ? -n : n;
      if (a < 1e15 && Math.abs(short - v) <= Math.abs(v) * 4.5e-16 && (n === 0 || Math.abs(short) >= 1e-6)) {
        if (n < 0) out.byte(45);
        const whole = Math.floor(a / this.scale);
        out.int(whole);
        let frac = a - whole * this.scale;
        if (frac === 0) return;
        let k = this.places;
        while (frac % 10 === 0) {
          frac /= 10;
          k--;
        }
        out.byte(46);
        const buf = out.buf;
        const p = out.pos;
        for (let i = k - 1; i >= 0; i--) {
          const q = Math.floor(frac / 10);
          buf[p + i] = 48 + (frac - q * 10);
          frac = q;
        }
        out.pos = p + k;
        return;
      }
    }
    let b = this.cache.get(v);
    if (b === undefined) {
      b = bytesOf(num(v));
      if (this.cache.size < CACHE_PER_SIGNAL) this.cache.set(v, b);
    }
    out.bytes(b);
  }
}

/** Seconds with the log's microseconds exactly (epoch seconds need 16 digits). */
export function writeSeconds(out: ByteOut, us: number): void {
  if (!Number.isSafeInteger(us)) {
    out.ascii(num(us / 1e6));
    return;
  }
  if (us < 0) {
    out.byte(45);
    us = -us;
  }
  const sec = Math.floor(us / 1e6);
  out.int(sec);
  out.byte(46);
  let micro = us - sec * 1e6;
  const buf = out.buf;
  const p = out.pos;
  for (let k = 5; k >= 0; k--) {
    const d = Math.floor(micro / 10);
    buf[p + k] = 48 + (micro - d * 10);
    micro = d;
  }
  out.pos = p + 6;
}

/** Per message of the DBC: encoded JSON keys and fixed parts, value writers. Built when first seen. */
export interface MessageOut {
  m: CompiledMessage;
  /** `"NAME": ` and `, "NAME": ` for signal i (JSON). */
  key: Piece[];
  nextKey: Piece[];
  /** JSON: `, "ext": …, "message": "…", "signals": {`; CSV: `,ext,message` and the empty cells around the message's columns. */
  head: Piece;
  before: Piece;
  after: Piece;
  values: ValueBytes[];
  /** Signals whose NaN may be a value rather than "absent" (float signals). */
  floats: boolean[];
  /** Signals that may hold integers beyond 2^53 (`CompiledMessage.exact`). */
  wide: boolean[];
  /** Most bytes one line of this message can take. */
  room: number;
}

export function messageOut(m: CompiledMessage, csv: { at: number; width: number } | null): MessageOut {
  const key = m.names.map((n) => pieceOf(bytesOf(`${JSON.stringify(n)}: `)));
  const head = pieceOf(
    bytesOf(csv ? `,${m.ext},${csvText(m.name)}` : `, "ext": ${m.ext}, "message": ${JSON.stringify(m.name)}, "signals": {`),
  );
  const before = pieceOf(bytesOf(csv ? ','.repeat(csv.at) : ''));
  const after = pieceOf(bytesOf(csv ? ','.repeat(csv.width - csv.at - m.names.length) : ''));
  return {
    m,
    key,
    nextKey: m.names.map((n) => pieceOf(bytesOf(`, ${JSON.stringify(n)}: `))),
    head,
    before,
    after,
    values: m.message.signals.map((s) => new ValueBytes(s.factor, s.offset)),
    floats: m.message.signals.map((s) => s.valueType !== 'integer'),
    wide: m.exact.map((e) => e !== undefined),
    // Keys, a 26-character number per signal and quotes, the line's own fields (3 bytes past each piece).
    room: key.reduce((n, k) => n + k.n + 36, 0) + head.n + before.n + after.n + 160,
  };
}

/** NaN from decodeInto means "absent", unless signal i is a float signal that really carries it. */
export function absent(decoder: DbcDecoder, t: MessageOut, i: number, v: number, data: Uint8Array): boolean {
  return Number.isNaN(v) && !(t.floats[i] && decoder.isPresent(t.m, i, data));
}

/** Writes signal i's value (present: see `absent`). `json` quotes what JSON cannot hold as a number. */
export function writeValue(out: ByteOut, decoder: DbcDecoder, t: MessageOut, i: number, v: number, data: Uint8Array, json: boolean): void {
  if (v - v === 0) {
    // Finite.
    if (t.wide[i] && !Number.isSafeInteger(v)) {
      const exact = String(decoder.exactValue(t.m, i, data, v));
      out.ensure(exact.length + 2);
      out.ascii(json ? `"${exact}"` : exact);
    } else t.values[i].write(out, v);
  } else out.ascii(json ? `"${special(v)}"` : special(v));
}
