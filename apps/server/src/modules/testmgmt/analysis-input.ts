import { type CompiledMessage, compileDbc, type DbcDecoder, parseDbc } from '@loggerhead/can';
import { FLAG_EXT } from '@loggerhead/can/protocol/batch.ts';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { forEachFrameInOrder } from '../data/frame-order.ts';
import { framesRepository } from '../data/frames.repository.ts';
import type { ScriptInput } from './runtime/groovy-runtime.ts';
import { type TestWindow, testmgmtRepository } from './testmgmt.repository.ts';

/** One collected window and what to take from it (a collect step, or a dry run's range). */
export interface CollectPlan {
  window: TestWindow;
  channels: number[];
  ids: number[];
  /** `Signal` or `Message.Signal`; empty: every signal of the frames' messages. */
  signals: string[];
}

/** A decoded signal's samples (epoch µs, physical values). */
export interface Series {
  name: string;
  message: string;
  channel: number;
  unit: string;
  t: number[];
  v: number[];
}

export type AnalysisData =
  | { ok: true; input: ScriptInput; frames: number; series: Map<string, Series>; notes: string[] }
  | { ok: false; frames: number };

/** The frames of each window (filtered by its channels and ids) and the DBC signals decoded from them. */
export async function collectInput(
  raw: RawSql,
  run: { tenantId: string; thingsId: string; params: Record<string, unknown> },
  plans: CollectPlan[],
  maxFrames: number,
): Promise<AnalysisData> {
  const repo = testmgmtRepository(raw);
  const decoders = new Map<number, { d: DbcDecoder; out: Float64Array }>();
  for (const b of await repo.bindings(run.tenantId, run.thingsId)) {
    const parsed = parseDbc(b.content);
    if (!parsed.ok) continue;
    const d = compileDbc(parsed.dbc);
    decoders.set(b.channel, { d, out: new Float64Array(d.maxSignals) });
  }
  const frames = framesRepository(raw);
  // The frame store scopes by the tenant; the run was checked against the caller when it started.
  const scope = { tenantId: run.tenantId } as Auth;
  const start = plans.length ? plans[0].window.from * 1000 : 0;
  const input: ScriptInput = {
    start_us: start,
    frames: { ts: [], ch: [], id: [], fl: [], data: [] },
    signals: [],
    params: run.params,
    window: {
      from: plans[0]?.window.from ?? 0,
      to: plans[plans.length - 1]?.window.to ?? 0,
      seconds: plans.reduce((n, p) => n + (p.window.to - p.window.from) / 1000, 0),
      windows: plans.map((p) => p.window),
    },
  };
  const series = new Map<string, Series>();
  let count = 0;
  let tooMany = false;
  for (const plan of plans) {
    const wanted = new Set(plan.signals);
    const keep = new Map<CompiledMessage, number[]>();
    const keepOf = (m: CompiledMessage): number[] => {
      let k = keep.get(m);
      if (!k) {
        k = m.names.flatMap((n, i) => (wanted.size === 0 || wanted.has(n) || wanted.has(`${m.name}.${n}`) ? [i] : []));
        keep.set(m, k);
      }
      return k;
    };
    const range = {
      thingsId: run.thingsId,
      from: plan.window.from * 1000,
      to: plan.window.to * 1000,
      channels: plan.channels.length ? plan.channels : null,
      ids: plan.ids.length ? plan.ids : null,
    };
    const filter = {
      channels: plan.channels.length ? new Set(plan.channels) : null,
      ids: plan.ids.length ? new Set(plan.ids) : null,
      from: range.from,
      to: range.to,
    };
    await forEachFrameInOrder(frames.chunks(scope, range, 64), filter, (ts, ch, id, fl, _len, data) => {
      if (++count > maxFrames) {
        tooMany = true;
        return false;
      }
      input.frames.ts.push(ts);
      input.frames.ch.push(ch);
      input.frames.id.push(id);
      input.frames.fl.push(fl);
      input.frames.data.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('hex').toUpperCase());
      const dec = decoders.get(ch);
      if (!dec) return true;
      const { d, out: vals } = dec;
      const m = d.decodeInto(id, (fl & FLAG_EXT) !== 0, data, vals);
      if (!m) return true;
      for (const i of keepOf(m)) {
        const v = vals[i];
        if (Number.isNaN(v) && !d.isPresent(m, i, data)) continue;
        const key = `${ch}:${m.name}.${m.names[i]}`;
        let s = series.get(key);
        if (!s) {
          s = { name: m.names[i], message: m.name, channel: ch, unit: m.message.signals[i].unit ?? '', t: [], v: [] };
          series.set(key, s);
        }
        s.t.push(ts);
        const exact = d.exactValue(m, i, data, v);
        s.v.push(typeof exact === 'bigint' ? Number(exact) : exact);
      }
      return true;
    });
    if (tooMany) return { ok: false, frames: count };
  }
  const notes: string[] = [];
  const known = new Set<string>();
  for (const { d } of decoders.values()) for (const m of d.messages) for (const n of m.names) known.add(n).add(`${m.name}.${n}`);
  for (const plan of plans)
    for (const s of plan.signals) if (!known.has(s)) notes.push(`signal '${s}' is not in a DBC file bound to the device's channels`);
  for (const s of series.values())
    input.signals.push({
      name: s.name,
      message: s.message,
      channel: s.channel,
      unit: s.unit,
      t: s.t,
      v: s.v.map((x) => (Number.isFinite(x) ? x : null)),
    });
  return { ok: true, input, frames: count, series, notes: [...new Set(notes)] };
}

const MAX_CHART_POINTS = 2000;

/**
 * The charts of a report: each signal the script marked (`Message.Signal`), times in epoch ms, thinned
 * to the minimum and maximum of each of 1000 buckets when longer than 2000 points.
 */
export function chartsOf(marked: string[], series: Map<string, Series>) {
  const out = [];
  for (const key of marked) {
    const s = [...series.values()].find((x) => `${x.message}.${x.name}` === key);
    if (!s) continue;
    let idx: number[];
    if (s.t.length <= MAX_CHART_POINTS) idx = s.t.map((_, i) => i);
    else {
      idx = [];
      const buckets = MAX_CHART_POINTS / 2;
      const per = s.t.length / buckets;
      for (let b = 0; b < buckets; b++) {
        const lo = Math.floor(b * per);
        const hi = Math.min(s.t.length, Math.floor((b + 1) * per));
        let min = lo;
        let max = lo;
        for (let i = lo; i < hi; i++) {
          if (s.v[i] < s.v[min]) min = i;
          if (s.v[i] > s.v[max]) max = i;
        }
        idx.push(...(min <= max ? [min, max] : [max, min]));
      }
      idx = [...new Set(idx)];
    }
    out.push({
      signal: s.name,
      message: s.message,
      channel: s.channel,
      unit: s.unit,
      times: idx.map((i) => s.t[i] / 1000),
      values: idx.map((i) => (Number.isFinite(s.v[i]) ? s.v[i] : null)),
    });
  }
  return out;
}
