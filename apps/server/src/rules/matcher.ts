import type { DbcDecoder } from '@loggerhead/can';
import type { Condition } from '@loggerhead/contract';
import { type ConditionTest, compileCondition, type DecodedRow, joinConditions, operandReader, type SignalSource } from './conditions.ts';

/** The fields of a trigger rule the evaluator needs; `R` carries the rest through to the dispatcher. */
export interface FrameRuleDef {
  id: string;
  channel: number;
  frame_format: 'standard' | 'extended';
  frame_type: 'data' | 'remote';
  frame_id: number;
  conditions: Condition[];
  condition_join: 'and' | 'or';
}

export interface CompiledRule<R extends FrameRuleDef = FrameRuleDef> {
  rule: R;
  key: number;
  rtr: boolean;
  test: ConditionTest;
  /** The first condition's operand, for the event record. */
  value: (data: Uint8Array, len: number, row?: DecodedRow) => number;
  /** The DBC its signal conditions read, or null for a rule on raw bytes only. */
  decoder: DbcDecoder | null;
}

/** One device's enabled frame rules, looked up by channel, id format and id. */
export interface DeviceMatcher<R extends FrameRuleDef = FrameRuleDef> {
  byKey: Map<number, CompiledRule<R>[]>;
  /** Every frame id any rule watches, to skip a chunk whose id list has none of them. */
  ids: Set<number>;
  rules: CompiledRule<R>[];
}

const EXT_BIT = 0x2000_0000;
/** channel, ext flag and id in one number below 2^38 (exact in a double). */
export const frameKey = (channel: number, ext: boolean, id: number) => channel * 0x4000_0000 + (ext ? EXT_BIT : 0) + id;

/**
 * Compiles a rule. `dbc` is the decoder of the DBC bound to the rule's channel (signal rules); a
 * signal rule whose message or signal the DBC lacks compiles to null (the service refused it at
 * save time; the DBC may have been replaced since).
 */
export function compileRule<R extends FrameRuleDef>(rule: R, dbc: DbcDecoder | null): CompiledRule<R> | null {
  const ext = rule.frame_format === 'extended';
  let signal: SignalSource | null = null;
  let id = rule.frame_id;
  let isExt = ext;
  const sc = rule.conditions.find((c) => c.source === 'signal');
  if (sc) {
    if (!dbc) return null;
    const m = dbc.messages.find((x) => x.name === sc.message);
    const index = m ? m.names.indexOf(sc.signal ?? '') : -1;
    if (!m || index < 0) return null;
    // The message decides the id the signal travels in.
    id = m.id;
    isExt = m.ext;
    signal = { decoder: dbc, id, ext: isExt, index };
  }
  const tests = rule.conditions.map((c) => compileCondition(c, c.source === 'signal' ? signal : null));
  return {
    rule,
    key: frameKey(rule.channel, isExt, id),
    rtr: rule.frame_type === 'remote',
    test: joinConditions(tests, rule.condition_join),
    value: rule.conditions[0].op === 'mask' ? () => Number.NaN : operandReader(rule.conditions[0], signal),
    decoder: signal?.decoder ?? null,
  };
}

export function buildMatcher<R extends FrameRuleDef>(compiled: CompiledRule<R>[]): DeviceMatcher<R> {
  const byKey = new Map<number, CompiledRule<R>[]>();
  const ids = new Set<number>();
  for (const c of compiled) {
    const list = byKey.get(c.key);
    if (list) list.push(c);
    else byKey.set(c.key, [c]);
    ids.add(c.key % EXT_BIT);
  }
  return { byKey, ids, rules: compiled };
}
