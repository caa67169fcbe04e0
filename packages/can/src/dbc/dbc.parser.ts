import type {
  AttributeScope,
  AttributeValue,
  Dbc,
  DbcAttributeDefinition,
  DbcMessage,
  DbcParseResult,
  DbcPosition,
  DbcSignal,
  DbcWarning,
  ValueTable,
} from './dbc.model.ts';
import { resolveDbc } from './dbc.resolve.ts';
import { DbcScanner, DbcSyntaxError } from './dbc.scanner.ts';

/** Statement keywords: a line starting with one of these ends a statement whose `;` is missing. */
const KEYWORDS = new Set([
  'VERSION',
  'NS_',
  'BS_',
  'BU_',
  'VAL_TABLE_',
  'BO_',
  'SG_',
  'BO_TX_BU_',
  'EV_',
  'ENVVAR_DATA_',
  'SGTYPE_',
  'SGTYPE_VAL_',
  'CM_',
  'BA_DEF_',
  'BA_DEF_REL_',
  'BA_DEF_SGTYPE_',
  'BA_DEF_DEF_',
  'BA_DEF_DEF_REL_',
  'BA_',
  'BA_REL_',
  'BA_SGTYPE_',
  'VAL_',
  'SIG_VALTYPE_',
  'SIGTYPE_VALTYPE_',
  'SIG_GROUP_',
  'SIG_TYPE_REF_',
  'SG_MUL_VAL_',
  'CAT_DEF_',
  'CAT_',
  'FILTER',
  'EV_DATA_',
  'BU_SG_REL_',
  'BU_EV_REL_',
  'BU_BO_REL_',
]);

/** Sections of the grammar that carry nothing the console uses: skipped without a warning. */
const IGNORED = new Set([
  'ENVVAR_DATA_',
  'SGTYPE_',
  'SGTYPE_VAL_',
  'BA_DEF_SGTYPE_',
  'BA_REL_',
  'BA_SGTYPE_',
  'SIGTYPE_VALTYPE_',
  'SIG_TYPE_REF_',
  'CAT_DEF_',
  'CAT_',
  'FILTER',
  'EV_DATA_',
  'BU_SG_REL_',
  'BU_EV_REL_',
  'BU_BO_REL_',
  'BA_DEF_DEF_REL_',
]);

const OBJECT_KEYWORDS: Record<string, AttributeScope> = { BU_: 'node', BO_: 'message', SG_: 'signal', EV_: 'envvar' };

/** Statements that refer to messages by id are applied once every message is known. */
export type Deferred = (find: (dbcId: number) => DbcMessage | undefined, warn: (at: DbcPosition, reason: string) => void) => void;

/** Text longer than this is refused up front: no real DBC comes near it and it bounds memory. */
const MAX_TEXT = 64 * 1024 * 1024;

/**
 * Parses DBC text. Never throws: a malformed file gives `{ ok: false, error: { line, col, reason } }`.
 * Tolerates what real files do (opendbc): names starting with digits, `.25`, `CM_ SG_ 304 "…"`,
 * extended ids without bit 31, a lone `m` multiplex indicator, missing `;`, `//` comments — each
 * with a warning.
 */
export function parseDbc(text: string): DbcParseResult {
  const warnings: DbcWarning[] = [];
  if (text.length > MAX_TEXT) return { ok: false, error: { line: 1, col: 1, reason: 'file too large' }, warnings };
  try {
    const dbc = new DbcParser(text, warnings).parse();
    warnings.sort((a, b) => a.line - b.line || a.col - b.col);
    return { ok: true, dbc, warnings };
  } catch (e) {
    if (e instanceof DbcSyntaxError) return { ok: false, error: { line: e.line, col: e.col, reason: e.reason }, warnings };
    // A bug of ours must still not escape as an exception to the caller of a parser of untrusted input.
    return { ok: false, error: { line: 1, col: 1, reason: `internal error: ${(e as Error).message}` }, warnings };
  }
}

class DbcParser {
  private readonly sc: DbcScanner;
  private readonly dbc: Dbc = {
    version: '',
    nodes: [],
    messages: [],
    valueTables: new Map(),
    environmentVariables: [],
    attributeDefinitions: [],
    attributes: {},
    protocol: 'CAN',
  };
  private readonly deferred: { at: DbcPosition; run: Deferred }[] = [];
  private current: DbcMessage | null = null;

  constructor(
    text: string,
    private readonly warnings: DbcWarning[],
  ) {
    this.sc = new DbcScanner(text, (at) => this.warn(at, "'//' comment skipped (not DBC syntax)"));
  }

  /**
   * DBC names are C identifiers; files also carry names that start with a digit (`2017_5`,
   * `0_COUNTER`). They are kept as written, with a warning, since code generated from the file
   * (C structs, Python attributes) cannot use them.
   */
  private checkName(at: DbcPosition, what: string, name: string): void {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) this.warn(at, `${what} name ${name} is not a C identifier (starts with a digit); kept as written`);
  }

  private warn(at: DbcPosition, reason: string): void {
    this.warnings.push({ line: at.line, col: at.col, reason });
  }

  parse(): Dbc {
    const sc: DbcScanner = this.sc;
    while (!sc.atEnd()) {
      const at = sc.here();
      const kw = sc.tryIdent();
      if (kw === null) sc.fail(`unexpected '${sc.src[sc.pos]}'`);
      if (kw !== 'SG_') this.current = null;
      this.statement(kw, at);
    }
    resolveDbc(this.dbc, this.deferred, this.warnings);
    return this.dbc;
  }

  private end(): void {
    const sc: DbcScanner = this.sc;
    if (!sc.tryChar(';')) this.warn(sc.lastEnd, "missing ';'");
  }

  private statement(kw: string, at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    switch (kw) {
      case 'VERSION':
        this.dbc.version = sc.string('version');
        return;
      case 'NS_':
        sc.tryChar(':');
        // The symbol list is indented; the next statement starts in column one.
        while (!sc.atEnd() && !sc.atColumnOne()) sc.ident('symbol in NS_');
        return;
      case 'BS_':
        sc.tryChar(':');
        if (sc.moreOnLine()) sc.skipLine();
        return;
      case 'BU_':
        sc.tryChar(':');
        // Node names run to the next statement: a keyword, or any word back in column one.
        for (let n = sc.peekIdent(); n !== null && !KEYWORDS.has(n) && (sc.line === at.line || !sc.atColumnOne()); n = sc.peekIdent()) {
          this.checkName(sc.here(), 'node', n);
          sc.ident('node');
          this.dbc.nodes.push({ name: n, attributes: {} });
        }
        return;
      case 'VAL_TABLE_': {
        const name = sc.ident('value table name');
        this.dbc.valueTables.set(name, this.valueList());
        this.end();
        return;
      }
      case 'BO_':
        this.message(at);
        return;
      case 'SG_':
        if (!this.current) sc.fail('SG_ outside a message (no BO_ before it)', at);
        this.current.signals.push(this.signal(at));
        return;
      case 'BO_TX_BU_':
        this.txNodes(at);
        return;
      case 'CM_':
        this.comment(at);
        return;
      case 'BA_DEF_':
      case 'BA_DEF_REL_':
        this.attributeDefinition(kw === 'BA_DEF_REL_');
        return;
      case 'BA_DEF_DEF_':
        this.attributeDefault();
        return;
      case 'BA_':
        this.attribute(at);
        return;
      case 'VAL_':
        this.values(at);
        return;
      case 'SIG_VALTYPE_':
        this.signalValueType(at);
        return;
      case 'SIG_GROUP_':
        this.signalGroup(at);
        return;
      case 'SG_MUL_VAL_':
        this.multiplexValues(at);
        return;
      case 'EV_':
        this.environmentVariable();
        return;
      default:
        if (!IGNORED.has(kw)) this.warn(at, `unknown section ${kw} skipped`);
        sc.skipStatement(KEYWORDS);
    }
  }

  private valueList(): ValueTable {
    const sc: DbcScanner = this.sc;
    const table: ValueTable = new Map();
    for (;;) {
      const c = sc.peek();
      if (c === ';' || c === '' || !/[-+\d.]/.test(c)) return table;
      const v = sc.number('value');
      table.set(v, sc.string('value label'));
    }
  }

  private message(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const dbcId = sc.uint('message id');
    if (dbcId > 0xffffffff) sc.fail('message id out of range', at);
    sc.skipWs();
    const nameAt = sc.here();
    const name = sc.ident('message name');
    this.checkName(nameAt, 'message', name);
    sc.expect(':', 'after the message name');
    const length = sc.uint('message length');
    if (length > 64) sc.fail('message length above 64 bytes');
    const transmitter = sc.moreOnLine() ? sc.ident('transmitter') : '';
    const msg: DbcMessage = {
      id: 0,
      ext: false,
      dbcId,
      name,
      length,
      fd: false,
      transmitter,
      transmitters: [],
      signals: [],
      signalGroups: [],
      attributes: {},
      decodable: true,
      line: at.line,
    };
    this.dbc.messages.push(msg);
    this.current = msg;
  }

  private signal(at: DbcPosition): DbcSignal {
    const sc: DbcScanner = this.sc;
    sc.skipWs();
    const nameAt = sc.here();
    const name = sc.ident('signal name');
    this.checkName(nameAt, 'signal', name);
    let isMultiplexer = false;
    let muxValue: number | undefined;
    if (sc.peek() !== ':') {
      const muxAt = sc.here();
      const ind = sc.ident('multiplexer indicator');
      const m = /^m(\d+)(M?)$/.exec(ind);
      if (ind === 'M') isMultiplexer = true;
      else if (m) {
        muxValue = Number(m[1]);
        isMultiplexer = m[2] === 'M';
      } else if (ind === 'm') {
        this.warn(muxAt, `signal ${name}: multiplexer indicator 'm' without a value, read as 'M'`);
        isMultiplexer = true;
      } else sc.fail(`bad multiplexer indicator '${ind}'`, muxAt);
    }
    sc.expect(':', 'after the signal name');
    const startAt = sc.here();
    const startBit = sc.uint('start bit');
    sc.expect('|', 'between start bit and length');
    const length = sc.uint('signal length');
    sc.expect('@', 'before the byte order');
    const orderAt = sc.here();
    const order = sc.uint('byte order (0 or 1)');
    if (order > 1) sc.fail('byte order must be 0 (Motorola) or 1 (Intel)', orderAt);
    let signed: boolean;
    if (sc.tryChar('-')) signed = true;
    else if (sc.tryChar('+')) signed = false;
    else sc.fail("expected '+' or '-' after the byte order");
    if (length < 1 || length > 64) sc.fail('signal length must be 1..64', startAt);
    if (startBit >= 512) sc.fail('start bit beyond 64 bytes', startAt);
    sc.expect('(', 'before factor');
    const factor = sc.number('factor');
    sc.expect(',', 'between factor and offset');
    const offset = sc.number('offset');
    sc.expect(')', 'after offset');
    sc.expect('[', 'before minimum');
    const min = sc.number('minimum');
    sc.expect('|', 'between minimum and maximum');
    const max = sc.number('maximum');
    sc.expect(']', 'after maximum');
    const unit = sc.peek() === '"' ? sc.string('unit') : '';
    const receivers: string[] = [];
    while (sc.moreOnLine()) {
      if (sc.tryChar(',')) continue;
      const r = sc.tryIdent();
      if (r === null) sc.fail('bad receiver list');
      receivers.push(r);
    }
    const sig: DbcSignal = {
      name,
      startBit,
      length,
      byteOrder: order === 1 ? 'intel' : 'motorola',
      signed,
      valueType: 'integer',
      factor,
      offset,
      min,
      max,
      unit,
      receivers,
      isMultiplexer,
      attributes: {},
      line: at.line,
    };
    // Provisional: resolveDbc attaches the switch (SG_MUL_VAL_ may name another one).
    if (muxValue !== undefined) sig.multiplexer = { switchName: '', ranges: [[muxValue, muxValue]] };
    return sig;
  }

  /** `<id> <signal>` reference; applies `fn` once messages are all known. */
  private onSignal(at: DbcPosition, dbcId: number, name: string, fn: (sig: DbcSignal, msg: DbcMessage) => void): void {
    this.deferred.push({
      at,
      run: (find, warn) => {
        const msg = find(dbcId);
        const sig = msg?.signals.find((s) => s.name === name);
        if (!msg || !sig) warn(at, `reference to unknown signal ${dbcId} ${name}`);
        else fn(sig, msg);
      },
    });
  }

  private onMessage(at: DbcPosition, dbcId: number, fn: (msg: DbcMessage) => void): void {
    this.deferred.push({
      at,
      run: (find, warn) => {
        const msg = find(dbcId);
        if (!msg) warn(at, `reference to unknown message ${dbcId}`);
        else fn(msg);
      },
    });
  }

  private txNodes(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const id = sc.uint('message id');
    sc.expect(':', 'after the message id');
    const nodes: string[] = [];
    while (sc.peek() !== ';' && sc.peek() !== '') {
      if (sc.tryChar(',')) continue;
      const n = sc.peekIdent();
      if (n === null || KEYWORDS.has(n)) break;
      nodes.push(sc.ident('node'));
    }
    this.end();
    this.onMessage(at, id, (m) => m.transmitters.push(...nodes));
  }

  private comment(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    if (sc.peek() === '"') {
      this.dbc.comment = sc.string('comment');
      this.end();
      return;
    }
    const kw = sc.ident('comment target');
    if (kw === 'BU_' || kw === 'EV_') {
      const name = sc.ident(kw === 'BU_' ? 'node name' : 'variable name');
      const text = sc.string('comment');
      this.deferred.push({
        at,
        run: (_find, warn) => {
          const target =
            kw === 'BU_' ? this.dbc.nodes.find((n) => n.name === name) : this.dbc.environmentVariables.find((v) => v.name === name);
          if (target) target.comment = text;
          else warn(at, `comment for unknown ${kw === 'BU_' ? 'node' : 'variable'} ${name}`);
        },
      });
    } else if (kw === 'BO_') {
      const id = sc.uint('message id');
      const text = sc.string('comment');
      this.onMessage(at, id, (m) => {
        m.comment = text;
      });
    } else if (kw === 'SG_') {
      const id = sc.uint('message id');
      if (sc.peek() === '"') {
        // opendbc: `CM_ SG_ 304 "…"` — a signal comment without a signal; keep it on the message.
        const text = sc.string('comment');
        this.warn(at, `CM_ SG_ ${id} has no signal name; kept as the message comment`);
        this.onMessage(at, id, (m) => {
          m.comment = m.comment ? `${m.comment}\n${text}` : text;
        });
      } else {
        const name = sc.ident('signal name');
        const text = sc.string('comment');
        this.onSignal(at, id, name, (s) => {
          s.comment = text;
        });
      }
    } else if (/^\d+$/.test(kw)) {
      // opendbc: `CM_ 145 "…"` — read as a message comment.
      const id = Number(kw);
      const text = sc.string('comment');
      this.warn(at, `CM_ ${id} without BO_; kept as the message comment`);
      this.onMessage(at, id, (m) => {
        m.comment = text;
      });
    } else sc.fail(`unknown comment target ${kw}`, at);
    this.end();
  }

  private attributeDefinition(relation: boolean): void {
    const sc: DbcScanner = this.sc;
    let scope: AttributeScope = 'network';
    if (sc.peek() !== '"') {
      const kw = sc.ident('attribute object type');
      scope = relation ? 'relation' : (OBJECT_KEYWORDS[kw] ?? sc.fail(`unknown attribute object type ${kw}`));
    }
    const name = sc.string('attribute name');
    const typeAt = sc.here();
    const type = sc.ident('attribute type');
    const def: DbcAttributeDefinition = { name, scope, type: type as DbcAttributeDefinition['type'] };
    if (type === 'INT' || type === 'HEX' || type === 'FLOAT') {
      def.min = sc.number('minimum');
      def.max = sc.number('maximum');
    } else if (type === 'ENUM') {
      def.enumValues = [];
      while (sc.peek() === '"') {
        def.enumValues.push(sc.string('enum value'));
        if (!sc.tryChar(',')) break;
      }
    } else if (type !== 'STRING') sc.fail(`unknown attribute type ${type}`, typeAt);
    this.end();
    if (!relation) this.dbc.attributeDefinitions.push(def);
  }

  private attributeValue(): AttributeValue {
    return this.sc.peek() === '"' ? this.sc.string('attribute value') : this.sc.number('attribute value');
  }

  private attributeDefault(): void {
    const name = this.sc.string('attribute name');
    const value = this.attributeValue();
    this.end();
    this.deferred.push({
      at: this.sc.here(),
      run: () => {
        const def = this.dbc.attributeDefinitions.find((d) => d.name === name);
        if (def) def.default = value;
      },
    });
  }

  private attribute(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const name = sc.string('attribute name');
    let target: string | null = null;
    if (sc.peek() !== '"' && sc.peekIdent() !== null && !/^[-+\d.]/.test(sc.peek())) target = sc.ident('attribute object type');
    // Enum attributes are stored by label, so `VFrameFormat` reads "StandardCAN_FD", not 14.
    const label = (v: AttributeValue, scope: AttributeScope): AttributeValue => {
      const def = this.dbc.attributeDefinitions.find((d) => d.name === name && d.scope === scope);
      return def?.type === 'ENUM' && typeof v === 'number' && def.enumValues?.[v] !== undefined ? def.enumValues[v] : v;
    };
    if (target === null) {
      const v = this.attributeValue();
      this.deferred.push({
        at,
        run: () => {
          this.dbc.attributes[name] = label(v, 'network');
        },
      });
    } else if (target === 'BO_') {
      const id = sc.uint('message id');
      const v = this.attributeValue();
      this.onMessage(at, id, (m) => {
        m.attributes[name] = label(v, 'message');
      });
    } else if (target === 'SG_') {
      const id = sc.uint('message id');
      const sig = sc.ident('signal name');
      const v = this.attributeValue();
      this.onSignal(at, id, sig, (s) => {
        s.attributes[name] = label(v, 'signal');
      });
    } else if (target === 'BU_') {
      const node = sc.ident('node name');
      const v = this.attributeValue();
      this.deferred.push({
        at,
        run: (_f, warn) => {
          const n = this.dbc.nodes.find((x) => x.name === node);
          if (n) n.attributes[name] = label(v, 'node');
          else warn(at, `attribute for unknown node ${node}`);
        },
      });
    } else if (target === 'EV_') {
      sc.ident('variable name');
      this.attributeValue();
    } else sc.fail(`unknown attribute object type ${target}`, at);
    this.end();
  }

  private values(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const first = sc.ident('message id or variable name');
    if (/^\d+$/.test(first)) {
      const sig = sc.ident('signal name');
      const table = this.valueList();
      this.end();
      this.onSignal(at, Number(first), sig, (s) => {
        s.values = table;
      });
    } else {
      const table = this.valueList();
      this.end();
      this.deferred.push({
        at,
        run: (_f, warn) => {
          const v = this.dbc.environmentVariables.find((e) => e.name === first);
          if (v) v.values = table;
          else warn(at, `value descriptions for unknown variable ${first}`);
        },
      });
    }
  }

  private signalValueType(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const id = sc.uint('message id');
    const name = sc.ident('signal name');
    sc.tryChar(':');
    const typeAt = sc.here();
    const t = sc.uint('value type (0, 1 or 2)');
    if (t > 2) sc.fail('value type must be 0, 1 (float32) or 2 (float64)', typeAt);
    this.end();
    this.onSignal(at, id, name, (s) => {
      const want = t === 1 ? 32 : 64;
      if (t === 0) s.valueType = 'integer';
      else if (s.length !== want)
        this.warn(at, `signal ${name}: ${t === 1 ? 'float32' : 'float64'} needs ${want} bits, has ${s.length}; read as integer`);
      else s.valueType = t === 1 ? 'float32' : 'float64';
    });
  }

  private signalGroup(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const id = sc.uint('message id');
    const name = sc.ident('signal group name');
    const repetitions = sc.uint('repetitions');
    sc.expect(':', 'after the repetitions');
    const signals: string[] = [];
    while (sc.peek() !== ';' && sc.peek() !== '') {
      if (sc.tryChar(',')) continue;
      const n = sc.peekIdent();
      if (n === null || KEYWORDS.has(n)) break;
      signals.push(sc.ident('signal name'));
    }
    this.end();
    this.onMessage(at, id, (m) => m.signalGroups.push({ name, repetitions, signals }));
  }

  private multiplexValues(at: DbcPosition): void {
    const sc: DbcScanner = this.sc;
    const id = sc.uint('message id');
    const name = sc.ident('signal name');
    const switchName = sc.ident('multiplexer switch name');
    const ranges: [number, number][] = [];
    do {
      const lo = sc.uint('range start');
      sc.expect('-', 'in the value range');
      const hi = sc.uint('range end');
      ranges.push([lo, hi]);
    } while (sc.tryChar(','));
    this.end();
    this.onSignal(at, id, name, (s) => {
      // Several SG_MUL_VAL_ lines for one signal add up (some tools write one range per line).
      if (s.multiplexer?.switchName === switchName) s.multiplexer.ranges.push(...ranges);
      else s.multiplexer = { switchName, ranges };
    });
  }

  private environmentVariable(): void {
    const sc: DbcScanner = this.sc;
    const name = sc.ident('variable name');
    sc.expect(':', 'after the variable name');
    const type = sc.uint('variable type');
    sc.expect('[', 'before minimum');
    const min = sc.number('minimum');
    sc.expect('|', 'between minimum and maximum');
    const max = sc.number('maximum');
    sc.expect(']', 'after maximum');
    const unit = sc.string('unit');
    const initial = sc.number('initial value');
    const id = sc.number('variable id');
    const access = sc.ident('access type');
    const nodes: string[] = [];
    while (sc.peek() !== ';' && sc.peek() !== '') {
      if (sc.tryChar(',')) continue;
      const n = sc.peekIdent();
      if (n === null || KEYWORDS.has(n)) break;
      nodes.push(sc.ident('node'));
    }
    this.end();
    this.dbc.environmentVariables.push({ name, type, min, max, unit, initial, id, access, nodes });
  }
}
