import { signalBitPositions, signalBytesNeeded } from './dbc.layout.ts';
import type { AttributeValue, Dbc, DbcMessage, DbcPosition, DbcWarning } from './dbc.model.ts';
import type { Deferred } from './dbc.parser.ts';

const EXT_FLAG = 0x80000000;

/** Overlap warnings per message are capped: a file with a bad layout would otherwise drown the rest. */
const MAX_OVERLAP_WARNINGS = 3;
const MAX_PAIR_CHECKS = 200_000;

/**
 * Second pass once the whole text is read: applies statements that refer to messages, derives ids,
 * CAN FD, cycle times, the protocol and the multiplexer tree, and checks layouts.
 */
export function resolveDbc(dbc: Dbc, deferred: { at: DbcPosition; run: Deferred }[], warnings: DbcWarning[]): void {
  const warn = (at: DbcPosition, reason: string) => warnings.push({ line: at.line, col: at.col, reason });
  const byDbcId = new Map<number, DbcMessage>();
  for (const m of dbc.messages) {
    if (byDbcId.has(m.dbcId))
      warn({ line: m.line, col: 1 }, `message id ${m.dbcId} defined twice (${byDbcId.get(m.dbcId)!.name}, ${m.name})`);
    else byDbcId.set(m.dbcId, m);
  }
  // Tools disagree on whether references carry bit 31; accept either spelling.
  const find = (id: number) => byDbcId.get(id) ?? byDbcId.get((id ^ EXT_FLAG) >>> 0);
  for (const d of deferred) d.run(find, warn);
  // Every statement naming things by their short names has run: the long names can take over.
  applyLongNames(dbc);

  for (const def of dbc.attributeDefinitions) {
    if (def.scope === 'network' && def.default !== undefined && !(def.name in dbc.attributes))
      dbc.attributes[def.name] = enumLabel(dbc, def.name, def.default);
  }
  const protocol = dbc.attributes.ProtocolType;
  if (typeof protocol === 'string' && protocol !== '') dbc.protocol = protocol;

  const vFrameDefault = defaultOf(dbc, 'VFrameFormat');
  const cycleDefault = defaultOf(dbc, 'GenMsgCycleTime');
  for (const m of dbc.messages) {
    const at = { line: m.line, col: 1 };
    resolveId(m, at, warn);
    const format = m.attributes.VFrameFormat ?? vFrameDefault;
    // Defined as INT instead of ENUM, the attribute holds the enum's index: 14 StandardCAN_FD, 15 ExtendedCAN_FD.
    const vf = typeof format === 'number' ? (V_FRAME_FORMATS[format] ?? '') : (format ?? '');
    if (vf.includes('CAN_FD')) m.fd = true;
    if (vf.startsWith('Extended') && !m.ext && m.decodable) m.ext = true;
    if (m.length > 8) m.fd = true;
    const cycle = m.attributes.GenMsgCycleTime ?? cycleDefault;
    if (typeof cycle === 'number' && cycle > 0) m.cycleTime = cycle;
    resolveMultiplexing(m, warn);
    checkLayout(m, warn);
  }
}

/** Vector's VFrameFormat enumeration, by index (the values an INT-typed definition stores). */
const V_FRAME_FORMATS: Record<number, string> = {
  0: 'StandardCAN',
  1: 'ExtendedCAN',
  3: 'J1939PG',
  14: 'StandardCAN_FD',
  15: 'ExtendedCAN_FD',
};

/**
 * Vector tools cut names to 32 characters in the statements and keep the whole name in a string
 * attribute (`SystemMessageLongSymbol`, `SystemSignalLongSymbol`, `SystemNodeLongSymbol`): that
 * name is the one users know, so it replaces the short one everywhere (switch references, signal
 * groups, transmitters and receivers).
 */
function applyLongNames(dbc: Dbc): void {
  const long = (attrs: Record<string, AttributeValue>, key: string) => {
    const v = attrs[key];
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
  };
  const nodes = new Map<string, string>();
  for (const n of dbc.nodes) {
    const name = long(n.attributes, 'SystemNodeLongSymbol');
    if (name && name !== n.name) {
      nodes.set(n.name, name);
      n.name = name;
    }
  }
  const node = (n: string) => nodes.get(n) ?? n;
  for (const m of dbc.messages) {
    m.name = long(m.attributes, 'SystemMessageLongSymbol') ?? m.name;
    if (nodes.size) {
      m.transmitter = node(m.transmitter);
      m.transmitters = m.transmitters.map(node);
    }
    const renamed = new Map<string, string>();
    for (const sig of m.signals) {
      const name = long(sig.attributes, 'SystemSignalLongSymbol');
      if (name && name !== sig.name) {
        renamed.set(sig.name, name);
        sig.name = name;
      }
      if (nodes.size) sig.receivers = sig.receivers.map(node);
    }
    if (!renamed.size) continue;
    for (const sig of m.signals)
      if (sig.multiplexer) sig.multiplexer.switchName = renamed.get(sig.multiplexer.switchName) ?? sig.multiplexer.switchName;
    for (const g of m.signalGroups) g.signals = g.signals.map((n) => renamed.get(n) ?? n);
  }
}

function defaultOf(dbc: Dbc, name: string): AttributeValue | undefined {
  const def = dbc.attributeDefinitions.find((d) => d.name === name && d.scope === 'message');
  return def?.default === undefined ? undefined : enumLabel(dbc, name, def.default);
}

function enumLabel(dbc: Dbc, name: string, v: AttributeValue): AttributeValue {
  const def = dbc.attributeDefinitions.find((d) => d.name === name);
  return def?.type === 'ENUM' && typeof v === 'number' && def.enumValues?.[v] !== undefined ? def.enumValues[v] : v;
}

function resolveId(m: DbcMessage, at: DbcPosition, warn: (at: DbcPosition, r: string) => void): void {
  const raw = m.dbcId;
  if (raw >= EXT_FLAG) {
    m.ext = true;
    m.id = (raw - EXT_FLAG) >>> 0;
  } else {
    m.id = raw;
    if (raw > 0x7ff && raw <= 0x1fffffff) {
      m.ext = true;
      warn(at, `message ${m.name}: id ${raw} is above 0x7FF without the extended flag (bit 31); read as extended`);
    }
  }
  if (m.id > 0x1fffffff) {
    // VECTOR__INDEPENDENT_SIG_MSG (0xC0000000) holds orphan signals and is never on a bus.
    m.decodable = false;
    if (m.name !== 'VECTOR__INDEPENDENT_SIG_MSG') warn(at, `message ${m.name}: id ${raw} is beyond 29 bits; not decodable`);
  }
}

function resolveMultiplexing(m: DbcMessage, warn: (at: DbcPosition, r: string) => void): void {
  const byName = new Map(m.signals.map((s) => [s.name, s]));
  // In simple multiplexing the switch is the `M` signal that is not itself multiplexed.
  const roots = m.signals.filter((s) => s.isMultiplexer && !s.multiplexer);
  for (const s of m.signals) {
    const mux = s.multiplexer;
    if (!mux) continue;
    const at = { line: s.line, col: 1 };
    if (mux.switchName === '') {
      if (roots.length === 0) {
        warn(at, `signal ${s.name} is multiplexed but message ${m.name} has no multiplexer; decoded always`);
        s.multiplexer = undefined;
        continue;
      }
      if (roots.length > 1) warn(at, `message ${m.name} has several multiplexers and no SG_MUL_VAL_ for ${s.name}; using ${roots[0].name}`);
      mux.switchName = roots[0].name;
    }
    const sw = byName.get(mux.switchName);
    if (!sw || sw === s) {
      warn(at, `signal ${s.name}: multiplexer ${mux.switchName} not in message ${m.name}; decoded always`);
      s.multiplexer = undefined;
    } else if (!sw.isMultiplexer) {
      sw.isMultiplexer = true;
    }
  }
  // A cycle (a switch that depends on itself) would make the signals undecidable.
  for (const s of m.signals) {
    const seen = new Set<string>();
    for (let c = s; c.multiplexer; c = byName.get(c.multiplexer.switchName)!) {
      if (seen.has(c.name)) {
        warn({ line: s.line, col: 1 }, `signal ${s.name}: multiplexer cycle; decoded always`);
        s.multiplexer = undefined;
        break;
      }
      seen.add(c.name);
    }
  }
}

function checkLayout(m: DbcMessage, warn: (at: DbcPosition, r: string) => void): void {
  // One 512-bit mask per signal: a pair test is 16 word ANDs.
  const masks: Uint32Array[] = [];
  for (const s of m.signals) {
    if (signalBytesNeeded(s) > m.length && m.decodable)
      warn(
        { line: s.line, col: 1 },
        `signal ${s.name} ends beyond the ${m.length}-byte message ${m.name}; decoded only from longer frames`,
      );
    const mask = new Uint32Array(16);
    for (const b of signalBitPositions(s)) mask[b >> 5] |= 1 << (b & 31);
    masks.push(mask);
  }
  let reported = 0;
  // Only warnings ride on this, so a pathological file (thousands of signals) gets a bounded check.
  let budget = MAX_PAIR_CHECKS;
  for (let i = 0; i < m.signals.length && reported < MAX_OVERLAP_WARNINGS && budget > 0; i++) {
    for (let j = i + 1; j < m.signals.length && reported < MAX_OVERLAP_WARNINGS && budget-- > 0; j++) {
      if (!intersects(masks[i], masks[j]) || exclusive(m, i, j)) continue;
      warn({ line: m.signals[j].line, col: 1 }, `signals ${m.signals[i].name} and ${m.signals[j].name} of ${m.name} overlap`);
      reported++;
    }
  }
}

function intersects(a: Uint32Array, b: Uint32Array): boolean {
  for (let k = 0; k < 16; k++) if (a[k] & b[k]) return true;
  return false;
}

/** Two signals under the same switch with disjoint value ranges are never in the same frame. */
function exclusive(m: DbcMessage, i: number, j: number): boolean {
  const a = m.signals[i].multiplexer;
  const b = m.signals[j].multiplexer;
  if (!a || !b || a.switchName !== b.switchName) return false;
  return !a.ranges.some(([lo, hi]) => b.ranges.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));
}
