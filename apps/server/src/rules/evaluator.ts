import { BATCH_HEADER_BYTES, FLAG_ERR, FLAG_EXT, FLAG_RTR } from '@loggerhead/can/protocol/batch.ts';
import type { DecodedRow } from './conditions.ts';
import type { CompiledRule, DeviceMatcher, FrameRuleDef } from './matcher.ts';

/** The frame at an edge, copied out of the batch for the event record. */
export interface EdgeFrame {
  /** µs since the Unix epoch. */
  ts: number;
  channel: number;
  id: number;
  ext: boolean;
  rtr: boolean;
  len: number;
  data: Uint8Array;
  value: number;
}

/**
 * What happened to one rule in one batch. Edges inside a batch are coalesced: a condition that
 * flickers a thousand times within one batch is one event (with `fires` = 1000) and at most one
 * recovery, so a storm of frames cannot turn into a storm of database rows.
 */
export interface RuleEdges<R extends FrameRuleDef = FrameRuleDef> {
  compiled: CompiledRule<R>;
  /** Active when the batch began. */
  wasActive: boolean;
  /** Active when the batch ended. */
  active: boolean;
  fires: number;
  recoveries: number;
  firstFire: EdgeFrame | null;
  lastRecover: EdgeFrame | null;
}

/** Whether each rule's condition currently holds (edge detection), by rule id. */
export type ActiveStates = Map<string, boolean>;

function snapshot(
  c: CompiledRule,
  ts: number,
  channel: number,
  id: number,
  fl: number,
  len: number,
  data: Uint8Array,
  row: DecodedRow | undefined,
): EdgeFrame {
  const copy = data.slice();
  return { ts, channel, id, ext: (fl & FLAG_EXT) !== 0, rtr: (fl & FLAG_RTR) !== 0, len, data: copy, value: c.value(copy, len, row) };
}

/**
 * Runs a device's matchers over one stored frame batch (the protocol's column layout, read in
 * place: only frames whose channel and id some rule watches get a payload view). Updates `states`
 * and returns the rules that changed state. `ids`, the batch's distinct ids when known, lets a
 * batch without any watched id be skipped without reading it. `rows`, by frame index, are the frames
 * as the decode stage decoded them: signal conditions read their values there instead of decoding
 * the frame again.
 */
export function evaluateBatch<R extends FrameRuleDef>(
  matcher: DeviceMatcher<R>,
  states: ActiveStates,
  b: Uint8Array,
  ids?: readonly number[],
  rows?: ReadonlyMap<number, DecodedRow>,
): RuleEdges<R>[] {
  if (matcher.rules.length === 0) return [];
  if (ids && !ids.some((id) => matcher.ids.has(id))) return [];
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = v.getUint32(4, true);
  const t0 = v.getUint32(16, true) + v.getUint32(20, true) * 0x1_0000_0000;
  const oId = BATCH_HEADER_BYTES + 4 * n;
  const oCh = BATCH_HEADER_BYTES + 8 * n;
  const oFl = oCh + n;
  const oLen = oFl + n;
  let p = oLen + n;
  const byKey = matcher.byKey;
  let touched: Map<CompiledRule<R>, RuleEdges<R>> | null = null;
  for (let i = 0; i < n; i++) {
    const fl = b[oFl + i];
    const len = b[oLen + i];
    const start = p;
    if (!(fl & FLAG_RTR)) p += len;
    if (fl & FLAG_ERR) continue;
    const id = v.getUint32(oId + 4 * i, true);
    const ch = b[oCh + i];
    const list = byKey.get(ch * 0x4000_0000 + (fl & FLAG_EXT ? 0x2000_0000 : 0) + id);
    if (list === undefined) continue;
    const rtr = (fl & FLAG_RTR) !== 0;
    const data = b.subarray(start, rtr ? start : start + len);
    const row = rows?.get(i);
    for (let k = 0; k < list.length; k++) {
      const c = list[k];
      if (c.rtr !== rtr) continue;
      const r = c.test(data, len, row);
      if (r < 0) continue;
      const was = states.get(c.rule.id) === true;
      if ((r === 1) === was) continue;
      touched ??= new Map();
      let e = touched.get(c);
      if (!e) {
        e = { compiled: c, wasActive: was, active: was, fires: 0, recoveries: 0, firstFire: null, lastRecover: null };
        touched.set(c, e);
      }
      const ts = t0 + v.getUint32(BATCH_HEADER_BYTES + 4 * i, true);
      if (r === 1) {
        e.fires++;
        if (!e.firstFire) e.firstFire = snapshot(c, ts, ch, id, fl, len, data, row);
      } else {
        e.recoveries++;
        e.lastRecover = snapshot(c, ts, ch, id, fl, len, data, row);
      }
      e.active = r === 1;
      states.set(c.rule.id, r === 1);
    }
  }
  return touched ? [...touched.values()] : [];
}
