import type { DbcPosition } from './dbc.model.ts';

/** A syntax error at a position; the parser turns it into a refused result, it never escapes. */
export class DbcSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly reason: string,
  ) {
    super(`${line}:${col} ${reason}`);
  }
}

const IDENT = /[A-Za-z0-9_]+/y;
// `.25`, `1.`, `-1e-05`, `+3`: opendbc writes all of these.
const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const UINT = /\d+/y;

/**
 * Cursor over DBC text. The parser pulls the token kind it expects next (the DBC grammar is
 * positional, so a context-free tokenizer would mis-read `1|2@0+` or `3-5`). Every read either
 * consumes input or throws, so no loop built on it can spin.
 */
export class DbcScanner {
  pos = 0;
  line = 1;
  private lineStart = 0;
  /** Where the last token read ended: a missing `;` is reported there, not on the next line. */
  lastEnd: DbcPosition = { line: 1, col: 1 };

  constructor(
    readonly src: string,
    /** Told of each `//` comment skipped (not DBC grammar, but written by hand and by some tools). */
    private readonly onComment?: (at: DbcPosition) => void,
  ) {}

  /** At `//` outside a string: skips to the end of the line (the line break stays). */
  private comment(p: number): number {
    this.onComment?.({ line: this.line, col: p - this.lineStart + 1 });
    const nl = this.src.indexOf('\n', p);
    return nl < 0 ? this.src.length : nl;
  }

  /** Skips blanks, newlines (LF or CRLF) and `//` comments. */
  skipWs(): void {
    const s = this.src;
    let p = this.pos;
    while (p < s.length) {
      const c = s.charCodeAt(p);
      if (c === 10) {
        this.line++;
        this.lineStart = p + 1;
      } else if (c === 47 && s.charCodeAt(p + 1) === 47) {
        p = this.comment(p);
        continue;
      } else if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11 && c !== 0xfeff) break;
      p++;
    }
    this.pos = p;
  }

  /** Skips blanks (and a trailing `//` comment) up to the end of the line; true when another token follows on it. */
  moreOnLine(): boolean {
    const s = this.src;
    let p = this.pos;
    while (p < s.length) {
      const c = s.charCodeAt(p);
      if (c === 47 && s.charCodeAt(p + 1) === 47) {
        p = this.comment(p);
        break;
      }
      if (c !== 32 && c !== 9 && c !== 13) break;
      p++;
    }
    this.pos = p;
    return p < s.length && s.charCodeAt(p) !== 10;
  }

  atEnd(): boolean {
    this.skipWs();
    return this.pos >= this.src.length;
  }

  /** Next non-blank character, without consuming it ('' at end). */
  peek(): string {
    this.skipWs();
    return this.src[this.pos] ?? '';
  }

  get col(): number {
    return this.pos - this.lineStart + 1;
  }

  here(): DbcPosition {
    return { line: this.line, col: this.col };
  }

  /** True when the next token is the first thing on its line (not indented). */
  atColumnOne(): boolean {
    this.skipWs();
    return this.pos === this.lineStart;
  }

  fail(reason: string, at?: DbcPosition): never {
    const p = at ?? this.here();
    throw new DbcSyntaxError(p.line, p.col, reason);
  }

  private sticky(re: RegExp): string | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (!m) return null;
    this.pos += m[0].length;
    this.lastEnd = this.here();
    return m[0];
  }

  /** Identifier; DBC names may start with a digit (`5_SEC_DISABLE_TIMER`). */
  ident(what: string): string {
    this.skipWs();
    return this.sticky(IDENT) ?? this.fail(`expected ${what}`);
  }

  tryIdent(): string | null {
    this.skipWs();
    return this.sticky(IDENT);
  }

  /** Looks at the identifier ahead without consuming it. */
  peekIdent(): string | null {
    this.skipWs();
    IDENT.lastIndex = this.pos;
    const m = IDENT.exec(this.src);
    return m ? m[0] : null;
  }

  number(what: string): number {
    this.skipWs();
    const at = this.here();
    const t = this.sticky(NUMBER) ?? this.fail(`expected ${what}`);
    const v = Number(t);
    if (!Number.isFinite(v)) this.fail(`${what} out of range`, at);
    return v;
  }

  tryNumber(): number | null {
    this.skipWs();
    const t = this.sticky(NUMBER);
    return t === null ? null : Number(t);
  }

  uint(what: string): number {
    this.skipWs();
    const at = this.here();
    const t = this.sticky(UINT) ?? this.fail(`expected ${what}`);
    const v = Number(t);
    if (!Number.isSafeInteger(v)) this.fail(`${what} out of range`, at);
    return v;
  }

  /** Integer, possibly negative (VAL_ keys). */
  int(what: string): number {
    const at = this.here();
    const v = this.number(what);
    if (!Number.isInteger(v)) this.fail(`${what} must be an integer`, at);
    return v;
  }

  /** Quoted string; `\"` and `\\` are escapes; may span lines. */
  string(what: string): string {
    this.skipWs();
    const s = this.src;
    if (s.charCodeAt(this.pos) !== 34) this.fail(`expected ${what} (a quoted string)`);
    const start = this.here();
    let p = this.pos + 1;
    let out = '';
    let chunk = p;
    for (;;) {
      if (p >= s.length) this.fail('unterminated string', start);
      const c = s.charCodeAt(p);
      if (c === 34) break;
      if (c === 92 && (s.charCodeAt(p + 1) === 34 || s.charCodeAt(p + 1) === 92)) {
        out += s.slice(chunk, p);
        chunk = p + 1;
        p += 2;
        continue;
      }
      if (c === 10) {
        this.line++;
        this.lineStart = p + 1;
      }
      p++;
    }
    out += s.slice(chunk, p);
    this.pos = p + 1;
    this.lastEnd = this.here();
    return out.replace(/\r\n/g, '\n');
  }

  tryChar(ch: string): boolean {
    this.skipWs();
    if (this.src[this.pos] === ch) {
      this.pos++;
      this.lastEnd = this.here();
      return true;
    }
    return false;
  }

  expect(ch: string, context: string): void {
    if (!this.tryChar(ch)) this.fail(`expected '${ch}' ${context}`);
  }

  /**
   * Skips the rest of a statement: up to and including the next `;` outside strings, or up to a line
   * that starts (column one) with one of `keywords`, whichever comes first.
   */
  skipStatement(keywords: ReadonlySet<string>): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 59) {
        this.pos++;
        return;
      }
      if (c === 34) {
        this.string('string');
        continue;
      }
      if (c === 47 && s.charCodeAt(this.pos + 1) === 47) {
        this.pos = this.comment(this.pos);
        continue;
      }
      if (c === 10) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
        const w = this.peekIdentRaw();
        if (w !== null && keywords.has(w)) return;
        continue;
      }
      this.pos++;
    }
  }

  /** Skips to the end of the current line. */
  skipLine(): void {
    const i = this.src.indexOf('\n', this.pos);
    this.pos = i < 0 ? this.src.length : i;
  }

  private peekIdentRaw(): string | null {
    IDENT.lastIndex = this.pos;
    const m = IDENT.exec(this.src);
    return m ? m[0] : null;
  }
}
