import { FLOAT_SCRATCH, rawBigReader, rawReader, rawSource, scaleSource, valueReader, valueSource } from './dbc.extract.ts';
import { signalBytesNeeded } from './dbc.layout.ts';
import type { Dbc, DbcMessage, DbcSignal } from './dbc.model.ts';

/** Writes each signal's physical value into `out[i]` (i = index in `signals`), NaN when absent. */
export type MessageDecodeFn = (data: Uint8Array, out: Float64Array) => void;

export interface CompiledMessage {
  index: number;
  message: DbcMessage;
  name: string;
  id: number;
  ext: boolean;
  /** Signal names, in output order (`out[i]` is `names[i]`). */
  names: string[];
  decode: MessageDecodeFn;
  /** Raw integer readers, for value-table labels. */
  raw: ((data: Uint8Array) => number)[];
  /** Raw value → label per signal (undefined when the signal has none). */
  labels: (Map<number, string> | undefined)[];
  /**
   * Exact physical value as a BigInt, for integer signals wider than 53 bits with integer scaling
   * (undefined for the others): their number in `out` is rounded beyond 2^53.
   */
  exact: (((data: Uint8Array) => bigint) | undefined)[];
  /** Per signal: payload bytes needed, and the index of its multiplexer switch (-1 when none). */
  need: Int32Array;
  switchOf: Int32Array;
}

export interface DecodedMessage {
  message: string;
  id: number;
  ext: boolean;
  /** Physical values; a BigInt for an integer beyond 2^53 that a number would round (see `CompiledMessage.exact`). */
  signals: Record<string, number | bigint>;
  /** Value-table labels of the present signals that have one (only with `labels: true`). */
  labels?: Record<string, string>;
}

export interface CompileOptions {
  /**
   * Generate specialised JavaScript per message (default). Off, or when the runtime forbids
   * `new Function` (strict Content-Security-Policy), closures are used: same results, slower.
   */
  codegen?: boolean;
}

/** Parameter group number of a 29-bit J1939 id: PDU1 (PF < 240) ids carry a destination, not part of it. */
export function j1939Pgn(id: number): number {
  const pf = (id >> 16) & 0xff;
  return pf < 240 ? (id >> 8) & 0x3ff00 : (id >> 8) & 0x3ffff;
}

/**
 * A decoder compiled from a parsed DBC. Hot path: `decodeInto(id, ext, data, out)` — one table
 * look-up and one specialised function call per frame, no allocation.
 */
export class DbcDecoder {
  readonly messages: CompiledMessage[] = [];
  /** Size `out` for `decodeInto` needs: the largest signal count of any message. */
  readonly maxSignals: number;
  readonly j1939: boolean;
  private readonly standard = new Int32Array(2048).fill(-1);
  private readonly extended = new Map<number, number>();
  private readonly byPgn = new Map<number, number>();
  private readonly scratch: Float64Array;

  constructor(
    readonly dbc: Dbc,
    options: CompileOptions = {},
  ) {
    this.j1939 = dbc.protocol.toUpperCase() === 'J1939';
    let codegen = options.codegen !== false;
    for (const m of dbc.messages) {
      if (!m.decodable) continue;
      const index = this.messages.length;
      let decode: MessageDecodeFn | undefined;
      if (codegen) {
        try {
          decode = compileMessage(m);
        } catch {
          codegen = false;
        }
      }
      this.messages.push({
        index,
        message: m,
        name: m.name,
        id: m.id,
        ext: m.ext,
        names: m.signals.map((s) => s.name),
        decode: decode ?? closureMessage(m),
        raw: m.signals.map((s) => rawReader(s)),
        labels: m.signals.map(labelTable),
        exact: m.signals.map(exactReader),
        need: Int32Array.from(m.signals, signalBytesNeeded),
        switchOf: Int32Array.from(m.signals, (s) =>
          s.multiplexer ? m.signals.findIndex((x) => x.name === s.multiplexer?.switchName) : -1,
        ),
      });
      // A duplicate id keeps the first definition (resolveDbc has warned).
      if (!m.ext) {
        if (this.standard[m.id] < 0) this.standard[m.id] = index;
      } else if (!this.extended.has(m.id)) this.extended.set(m.id, index);
      if (m.ext && this.j1939) {
        const pgn = j1939Pgn(m.id);
        if (!this.byPgn.has(pgn)) this.byPgn.set(pgn, index);
      }
    }
    this.maxSignals = Math.max(1, ...this.messages.map((m) => m.names.length));
    this.scratch = new Float64Array(this.maxSignals);
  }

  /** The message for a frame id: exact (id, ext); for J1939 DBCs, extended frames also match by PGN. */
  lookup(id: number, ext: boolean): CompiledMessage | undefined {
    let i: number;
    if (!ext) i = id >= 0 && id < 2048 ? this.standard[id] : -1;
    else {
      i = this.extended.get(id) ?? -1;
      if (i < 0 && this.j1939) i = this.byPgn.get(j1939Pgn(id)) ?? -1;
    }
    return i < 0 ? undefined : this.messages[i];
  }

  /**
   * Decodes into `out` (length >= maxSignals): `out[i]` is the physical value of signal `names[i]`
   * of the returned message, NaN for a signal whose multiplexer value is not active or that does not
   * fit in a short frame. Returns null for an id the DBC lacks.
   */
  decodeInto(id: number, ext: boolean, data: Uint8Array, out: Float64Array): CompiledMessage | null {
    const m = this.lookup(id, ext);
    if (!m) return null;
    m.decode(data, out);
    return m;
  }

  /**
   * Whether signal `i` of `m` is in this frame: the frame is long enough and its multiplexer
   * switches (all the way up) select it. `decodeInto` writes NaN for an absent signal; a float
   * signal can also carry NaN itself, which this tells apart.
   */
  isPresent(m: CompiledMessage, i: number, data: Uint8Array): boolean {
    for (let k = i, hops = 0; k >= 0 && hops <= m.names.length; hops++) {
      if (data.length < m.need[k]) return false;
      const sw = m.switchOf[k];
      if (sw < 0) return true;
      if (data.length < m.need[sw]) return false;
      const r = m.raw[sw](data);
      const mux = m.message.signals[k].multiplexer;
      if (!mux?.ranges.some(([lo, hi]) => r >= lo && r <= hi)) return false;
      k = sw;
    }
    return true;
  }

  /** The value to show for signal `i`: `v` itself, or the exact BigInt when `v` is a rounded wide integer. */
  exactValue(m: CompiledMessage, i: number, data: Uint8Array, v: number): number | bigint {
    const exact = m.exact[i];
    return exact && Number.isFinite(v) && !Number.isSafeInteger(v) ? exact(data) : v;
  }

  /** Convenience form returning an object with the present signals only. */
  decode(frame: { id: number; ext: boolean; data: Uint8Array }, options: { labels?: boolean } = {}): DecodedMessage | null {
    const out = this.scratch;
    const m = this.decodeInto(frame.id, frame.ext, frame.data, out);
    if (!m) return null;
    const signals: Record<string, number | bigint> = {};
    let labels: Record<string, string> | undefined;
    if (options.labels) labels = {};
    for (let i = 0; i < m.names.length; i++) {
      const v = out[i];
      if (Number.isNaN(v) && !this.isPresent(m, i, frame.data)) continue;
      signals[m.names[i]] = this.exactValue(m, i, frame.data, v);
      const table = m.labels[i];
      if (labels && table) {
        const label = table.get(m.raw[i](frame.data));
        if (label !== undefined) labels[m.names[i]] = label;
      }
    }
    return labels ? { message: m.name, id: m.id, ext: m.ext, signals, labels } : { message: m.name, id: m.id, ext: m.ext, signals };
  }
}

/** Exact form of an integer signal wider than 53 bits whose scaling keeps integers integers. */
function exactReader(sig: DbcSignal): ((d: Uint8Array) => bigint) | undefined {
  if (sig.valueType !== 'integer' || sig.length <= 53 || !Number.isInteger(sig.factor) || !Number.isInteger(sig.offset)) return undefined;
  const raw = rawBigReader(sig);
  const factor = BigInt(sig.factor);
  const offset = BigInt(sig.offset);
  if (factor === 1n && offset === 0n) return raw;
  return (d) => raw(d) * factor + offset;
}

export function compileDbc(dbc: Dbc, options?: CompileOptions): DbcDecoder {
  return new DbcDecoder(dbc, options);
}

/**
 * VAL_ keys are raw values; files write "-1" for all-ones in unsigned signals, so a negative key of an
 * unsigned signal is also registered as its two's-complement bit pattern.
 */
function labelTable(sig: DbcSignal): Map<number, string> | undefined {
  if (!sig.values || sig.values.size === 0) return undefined;
  const t = new Map(sig.values);
  if (!sig.signed && sig.length <= 53)
    for (const [k, v] of sig.values) {
      const bits = k + 2 ** sig.length;
      if (k < 0 && bits >= 0 && !t.has(bits)) t.set(bits, v);
    }
  return t;
}

/** Switches (multiplexers) ordered so that every switch comes after the switch it depends on. */
function switchOrder(m: DbcMessage): number[] {
  const idx = new Map(m.signals.map((s, i) => [s.name, i]));
  const order: number[] = [];
  const done = new Set<number>();
  const visit = (i: number) => {
    if (done.has(i)) return;
    done.add(i);
    const up = m.signals[i].multiplexer;
    if (up) visit(idx.get(up.switchName)!);
    order.push(i);
  };
  m.signals.forEach((s, i) => {
    if (s.isMultiplexer) visit(i);
  });
  return order;
}

function rangeSource(v: string, ranges: [number, number][]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? `${v} === ${lo}` : `(${v} >= ${lo} && ${v} <= ${hi})`)).join(' || ');
}

/** Body statements for a frame that holds every signal of the message. */
function bodySource(m: DbcMessage): string {
  const idx = new Map(m.signals.map((s, i) => [s.name, i]));
  const lines: string[] = [];
  const cond = (s: DbcSignal): string => {
    const parts: string[] = [];
    if (s.multiplexer) parts.push(`(${rangeSource(`r${idx.get(s.multiplexer.switchName)}`, s.multiplexer.ranges)})`);
    return parts.join(' && ');
  };
  const switches = switchOrder(m);
  const isSwitch = new Set(switches);
  for (const i of switches) {
    const s = m.signals[i];
    // Raw switch value, or -1 when the switch itself is absent (no range matches -1).
    const c = cond(s);
    lines.push(c ? `const r${i} = ${c} ? ${rawSource(s)} : -1;` : `const r${i} = ${rawSource(s)};`);
    const value = s.valueType === 'integer' ? scaleSource(`r${i}`, s.factor, s.offset) : valueSource(s);
    lines.push(c ? `out[${i}] = ${c} ? ${value} : NaN;` : `out[${i}] = ${value};`);
  }
  m.signals.forEach((s, i) => {
    if (isSwitch.has(i)) return;
    const c = cond(s);
    lines.push(c ? `out[${i}] = ${c} ? ${valueSource(s)} : NaN;` : `out[${i}] = ${valueSource(s)};`);
  });
  return lines.join('\n    ');
}

/**
 * Specialised code for a whole frame; a frame shorter than the message (rare) takes the closures,
 * which keeps the generated code, and the optimising compiler's work on it, to one body.
 */
function compileMessage(m: DbcMessage): MessageDecodeFn {
  const need = Math.max(0, ...m.signals.map(signalBytesNeeded));
  const src = `return function decode(d, out) {
  if (d.length < ${need}) {
    short(d, out);
    return;
  }
  ${bodySource(m)}
};`;
  const { U32, F32, F64, LO, HI } = FLOAT_SCRATCH;
  return new Function('U32', 'F32', 'F64', 'LO', 'HI', 'short', src)(U32, F32, F64, LO, HI, closureMessage(m)) as MessageDecodeFn;
}

/** Same semantics as `compileMessage`, built from closures. */
function closureMessage(m: DbcMessage): MessageDecodeFn {
  const idx = new Map(m.signals.map((s, i) => [s.name, i]));
  const order = [...switchOrder(m), ...m.signals.map((_, i) => i).filter((i) => !m.signals[i].isMultiplexer)];
  const need = Int32Array.from(m.signals, signalBytesNeeded);
  const raw = m.signals.map((s) => rawReader(s));
  const value = m.signals.map(valueReader);
  const sw = new Float64Array(m.signals.length);
  const plan = order.map((i) => {
    const mux = m.signals[i].multiplexer;
    return { i, sw: mux ? idx.get(mux.switchName)! : -1, ranges: mux?.ranges ?? [], isSwitch: m.signals[i].isMultiplexer };
  });
  return (d, out) => {
    const n = d.length;
    for (const p of plan) {
      let active = n >= need[p.i];
      if (active && p.sw >= 0) {
        const r = sw[p.sw];
        active = p.ranges.some(([lo, hi]) => r >= lo && r <= hi);
      }
      if (p.isSwitch) sw[p.i] = active ? raw[p.i](d) : -1;
      out[p.i] = active ? value[p.i](d) : NaN;
    }
  };
}
