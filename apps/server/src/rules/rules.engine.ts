import type { DbcDecoder } from '@loggerhead/can';
import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import type { CommittedChunks, FrameChunk } from '../ingest/chunk-writer.ts';
import { LogThrottle } from '../lib/log-throttle.ts';
import type { RuleRow } from '../modules/alert/rules.repository.ts';
import { DecoderCache } from '../modules/signals/decoder-cache.ts';
import type { DecodedFrames, DecodedRow, FrameDemand } from '../modules/signals/signals.events.ts';
import type { DeviceInfo, EngineRepository, FenceRuleRow } from './engine.repository.ts';
import { type EdgeFrame, evaluateBatch } from './evaluator.ts';
import { fenceContains } from './geo.ts';
import { buildMatcher, type CompiledRule, compileRule, type DeviceMatcher } from './matcher.ts';

/** One rule's edges in one batch of frames or fixes, coalesced (see evaluator.ts). */
export interface Edge {
  rule: RuleRow;
  sourceType: 'trigger' | 'fence';
  wasActive: boolean;
  active: boolean;
  fires: number;
  recoveries: number;
  /** What the event records about the first firing frame or fix. */
  fire: Record<string, unknown> | null;
  recover: Record<string, unknown> | null;
}

/** Per rule: when each action last went out, and the event a recovery closes. */
export interface RuleMeta {
  marks: Record<string, number>;
  lastEventId: string | null;
}

export type Dispatch = (device: DeviceInfo, edge: Edge, meta: RuleMeta) => Promise<void>;

/** A raw or signal rule, with its channel and frame id known. */
type FrameRule = RuleRow & { channel: number; frame_id: number };

interface FenceRule {
  rule: FenceRuleRow;
  contains: (lat: number, lon: number) => boolean;
}

interface CompiledEntry {
  version: number;
  dbc: DbcDecoder | null;
  compiled: CompiledRule<FrameRule>;
}

interface DeviceRuntime {
  loadedAt: number;
  device: DeviceInfo | null;
  matcher: DeviceMatcher<FrameRule>;
  compiledById: Map<string, CompiledEntry>;
  fences: FenceRule[];
  /** Rule id → condition currently true; for fence rules, absent until the first fix sets the baseline. */
  active: Map<string, boolean>;
  meta: Map<string, RuleMeta>;
  /** Rule id → updated_at (ms): a changed rule starts over. */
  versions: Map<string, number>;
  /** The frames its signal rules read, for the decode stage to decode. */
  demand: FrameDemand;
}

/** How long a device's rules are trusted before being read again (other server copies change them). */
const RULES_TTL_MS = 5000;
/** Batch groups waiting beyond this are dropped (and logged) rather than growing memory. */
const MAX_QUEUE = 1024;

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

function frameData(f: EdgeFrame, fires: number): Record<string, unknown> {
  return {
    ts: Math.floor(f.ts / 1000),
    ts_us: f.ts,
    channel: f.channel,
    frame_id: `0x${f.id.toString(16).toUpperCase()}`,
    ext: f.ext,
    rtr: f.rtr,
    len: f.len,
    data: hex(f.data),
    value: Number.isNaN(f.value) ? null : f.value,
    fires,
  };
}

/**
 * Evaluates trigger rules on the ingest stream: committed frame batches (raw and DBC-signal rules)
 * and GPS fixes (fence rules). Rules are compiled per device into a map by channel, id format and
 * id; batches of a device are evaluated in commit order, one at a time, and edges go to `dispatch`
 * (events, messages, actions) before the next batch is looked at.
 *
 * In the app the batches come from the decode stage (`onDecoded`, the `signals.frames` event) with
 * the frames its signal rules watch already decoded (`demand` tells the stage which), and DBCs are
 * compiled in the app's one decoder cache: a frame is decoded once, whoever reads it.
 */
export class RuleEngine {
  private devices = new Map<string, DeviceRuntime>();
  private chain: Promise<void> = Promise.resolve();
  private queued = 0;
  /** The "behind" line: once per 10 s, with the count, not a line per dropped batch. */
  private readonly behind = new LogThrottle();
  /** Batches evaluated and frames-batches dropped under overload, for health and tests. */
  readonly stats = { batches: 0, fixes: 0, edges: 0, dropped: 0 };

  constructor(
    private readonly repo: EngineRepository,
    private readonly dispatch: Dispatch,
    private readonly log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void },
    private readonly now: () => number = Date.now,
    /** The app's decoder cache; a standalone engine (a test, a benchmark) keeps its own. */
    private readonly decoders: Pick<DecoderCache, 'decoder'> = new DecoderCache(repo),
  ) {}

  /** Subscribes to a chunk writer's `committed` event; returns the unsubscribe function. */
  attach(writer: CommittedChunks): () => void {
    const listener = (chunks: FrameChunk[]) => this.onChunks(chunks);
    writer.on('committed', listener);
    return () => {
      writer.off('committed', listener);
    };
  }

  /** Committed chunks as they are: signal rules decode the frames they watch themselves. */
  onChunks(chunks: readonly FrameChunk[]): void {
    // Batches of devices known to have no frame rules (most of a fleet) are counted here and take
    // no place in the queue.
    const now = this.now();
    const rest = chunks.filter((c) => !this.skips(c, now));
    if (!rest.length) return;
    this.enqueue(async () => {
      await this.loadMany(rest);
      const at = this.now();
      for (const c of rest) if (!this.skips(c, at)) await this.evaluateChunk(c);
    });
  }

  /**
   * A committed group after the decode stage (`signals.frames`, one device's batches): signal rules
   * read its decoded frames. A device known to have no frame rules takes no place in the queue: the
   * decode stage hands on every device of a group commit one by one, and a fleet's 2,000 devices
   * used to fill the queue (and have batches of devices with rules dropped) on every commit.
   */
  onDecoded(e: DecodedFrames): void {
    const now = this.now();
    if (e.chunks.every((c) => this.skips(c, now))) return;
    this.enqueue(async () => {
      const at = this.now();
      for (let i = 0; i < e.chunks.length; i++) if (!this.skips(e.chunks[i], at)) await this.evaluateChunk(e.chunks[i], e.rows[i]);
    });
  }

  /**
   * The frames a device's signal rules watch, per channel with its DBC (the decode stage's demand).
   * A device not seen yet, or whose rules are due to be read again (changed, or older than the TTL),
   * has them read first, in turn with the batches before it.
   */
  demand(tenantId: string, thingsId: string): FrameDemand | Promise<FrameDemand> {
    const rt = this.devices.get(thingsId);
    const now = this.now();
    if (rt && now - rt.loadedAt < RULES_TTL_MS && now >= rt.loadedAt) return rt.demand;
    return new Promise<FrameDemand>((resolve) => {
      this.chain = this.chain
        .then(async () => resolve((await this.runtime(tenantId, thingsId)).demand))
        .catch((err) => {
          this.log.error({ err }, 'rule evaluation failed');
          resolve(new Map());
        });
    });
  }

  /** GPS fixes of a device, in any order: fence rules fire on entering or leaving. */
  onFixes(tenantId: string, thingsId: string, fixes: readonly GpsFix[]): void {
    this.enqueue(() => this.evaluateFixes(tenantId, thingsId, fixes));
  }

  /** Resolves when everything queued so far is evaluated and dispatched. */
  async idle(): Promise<void> {
    let last: Promise<void> | null = null;
    while (last !== this.chain) {
      last = this.chain;
      await last;
    }
  }

  /** Rules (or fences, DBC bindings) changed: read them again on the next batch of the device (or all). */
  invalidate(thingsId?: string): void {
    if (thingsId) {
      const rt = this.devices.get(thingsId);
      if (rt) rt.loadedAt = 0;
    } else for (const rt of this.devices.values()) rt.loadedAt = 0;
  }

  private enqueue(job: () => Promise<void>) {
    if (this.queued >= MAX_QUEUE) {
      this.stats.dropped++;
      if (this.behind.due()) {
        this.log.error({ queued: this.queued, dropped: this.stats.dropped }, 'rule evaluation is behind: batches not evaluated');
      }
      return;
    }
    this.queued++;
    this.chain = this.chain
      .then(job)
      .catch((err) => this.log.error({ err }, 'rule evaluation failed'))
      .finally(() => {
        this.queued--;
      });
  }

  /** A batch of a device known to have no frame rules: counted, without a promise per batch (most of a fleet). */
  private skips(c: FrameChunk, now: number): boolean {
    const rt = this.devices.get(c.thingsId);
    if (!this.fresh(rt, now) || (rt.device && rt.matcher.rules.length > 0)) return false;
    this.stats.batches++;
    return true;
  }

  private fresh(rt: DeviceRuntime | undefined, now: number): rt is DeviceRuntime {
    return !!rt && now - rt.loadedAt < RULES_TTL_MS && now >= rt.loadedAt;
  }

  /**
   * Reads the rules of every device of a batch group that is due, in two statements for all of them
   * (a fleet's group holds a batch of hundreds of devices; one device at a time, their reads every
   * few seconds were most of the database's work). Queued in turn with the batches, like `demand`.
   */
  prefetch(devices: Iterable<{ tenantId: string; thingsId: string }>): Promise<void> {
    const now = this.now();
    const due = new Map<string, { tenantId: string; thingsId: string }>();
    for (const d of devices) if (!this.fresh(this.devices.get(d.thingsId), now)) due.set(d.thingsId, d);
    if (due.size < 2) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.chain = this.chain
        .then(() => this.loadMany([...due.values()]))
        .catch((err) => this.log.error({ err }, 'rule evaluation failed'))
        .finally(resolve);
    });
  }

  private async loadMany(devices: readonly { tenantId: string; thingsId: string }[]): Promise<void> {
    const now = this.now();
    const due = devices.filter((d) => !this.fresh(this.devices.get(d.thingsId), now));
    if (!due.length) return;
    const [frameRules, fenceRules] = await Promise.all([this.repo.frameRulesOf(due), this.repo.fenceRulesOf(due)]);
    const frameBy = new Map<string, RuleRow[]>();
    const fenceBy = new Map<string, FenceRuleRow[]>();
    for (const r of frameRules) frameBy.get(r.things_id)?.push(r) ?? frameBy.set(r.things_id, [r]);
    for (const r of fenceRules) fenceBy.get(r.things_id)?.push(r) ?? fenceBy.set(r.things_id, [r]);
    for (const d of due) await this.build(d.tenantId, d.thingsId, frameBy.get(d.thingsId) ?? [], fenceBy.get(d.thingsId) ?? [], now);
  }

  private async runtime(tenantId: string, thingsId: string): Promise<DeviceRuntime> {
    const old = this.devices.get(thingsId);
    const now = this.now();
    if (this.fresh(old, now)) return old;
    const [frameRules, fenceRules] = await Promise.all([
      this.repo.frameRules(tenantId, thingsId),
      this.repo.fenceRules(tenantId, thingsId),
    ]);
    return this.build(tenantId, thingsId, frameRules, fenceRules, now);
  }

  /** A device's runtime from its rules (kept compiled forms and states of the one before it). */
  private async build(
    tenantId: string,
    thingsId: string,
    frameRules: RuleRow[],
    fenceRules: FenceRuleRow[],
    now: number,
  ): Promise<DeviceRuntime> {
    const old = this.devices.get(thingsId);
    const all: RuleRow[] = [...frameRules, ...fenceRules];
    const device = all.length ? await this.repo.device(tenantId, thingsId) : null;
    let dbcs = new Map<number, DbcDecoder | null>();
    if (frameRules.some((r) => r.data_type === 'signal')) {
      const bound = await this.repo.channelDbcs(tenantId, thingsId);
      dbcs = new Map(await Promise.all(bound.map(async (b) => [b.channel, await this.decoders.decoder(b.dbc_id, b.version)] as const)));
    }
    const compiled: CompiledRule<FrameRule>[] = [];
    const compiledById = new Map<string, CompiledEntry>();
    const demand = new Map<number, { decoder: DbcDecoder; frames: Set<number> }>();
    for (const r of frameRules) {
      const version = new Date(r.updated_at).getTime();
      const dbc = r.data_type === 'signal' ? (dbcs.get(Number(r.channel)) ?? null) : null;
      // An unchanged rule keeps its compiled form, and with it the previous value a `change` condition compares with.
      const kept = old?.compiledById.get(r.id);
      let c = kept && kept.version === version && kept.dbc === dbc ? kept.compiled : null;
      if (!c) {
        const rule: FrameRule = { ...r, channel: Number(r.channel), frame_id: Number(r.frame_id) };
        c = compileRule(rule, dbc);
      }
      if (!c) {
        this.log.warn({ ruleId: r.id }, 'trigger rule not evaluated: its DBC signal is gone');
        continue;
      }
      compiled.push(c);
      compiledById.set(r.id, { version, dbc, compiled: c });
      if (c.decoder) {
        const d = demand.get(c.rule.channel) ?? { decoder: c.decoder, frames: new Set<number>() };
        demand.set(c.rule.channel, d);
        // The key without its channel: ext flag and id.
        d.frames.add(c.key % 0x4000_0000);
      }
    }
    const rt: DeviceRuntime = {
      loadedAt: now,
      device,
      matcher: buildMatcher(compiled),
      fences: fenceRules.map((r) => ({
        rule: r,
        contains: fenceContains({ type: r.fence_type, region: r.fence_region, border: r.fence_border }),
      })),
      compiledById,
      active: new Map(),
      meta: new Map(),
      versions: new Map(),
      demand,
    };
    // The stored state wins: every edge this copy saw is saved before the next batch is evaluated,
    // and another server copy that took some of this device's batches saved its edges there too.
    const stored = new Map(
      (
        await this.repo.states(
          thingsId,
          all.map((r) => r.id),
        )
      ).map((x) => [x.rule_id, x]),
    );
    for (const r of all) {
      const v = new Date(r.updated_at).getTime();
      rt.versions.set(r.id, v);
      const st = stored.get(r.id);
      if (st) {
        rt.active.set(r.id, st.active);
        rt.meta.set(r.id, { marks: st.marks ?? {}, lastEventId: st.last_event_id });
      } else if (old && old.versions.get(r.id) === v && old.meta.has(r.id)) {
        const a = old.active.get(r.id);
        if (a !== undefined) rt.active.set(r.id, a);
        rt.meta.set(r.id, old.meta.get(r.id) as RuleMeta);
      } else rt.meta.set(r.id, { marks: {}, lastEventId: null });
    }
    this.devices.set(thingsId, rt);
    return rt;
  }

  private async evaluateChunk(c: FrameChunk, rows?: ReadonlyMap<number, DecodedRow>): Promise<void> {
    const rt = await this.runtime(c.tenantId, c.thingsId);
    this.stats.batches++;
    if (!rt.device || rt.matcher.rules.length === 0) return;
    const edges = evaluateBatch(rt.matcher, rt.active, c.data, c.info.ids, rows);
    for (const e of edges) {
      this.stats.edges++;
      await this.dispatch(
        rt.device,
        {
          rule: e.compiled.rule,
          sourceType: 'trigger',
          wasActive: e.wasActive,
          active: e.active,
          fires: e.fires,
          recoveries: e.recoveries,
          fire: e.firstFire ? frameData(e.firstFire, e.fires) : null,
          recover: e.lastRecover ? frameData(e.lastRecover, e.recoveries) : null,
        },
        rt.meta.get(e.compiled.rule.id) as RuleMeta,
      );
    }
  }

  private async evaluateFixes(tenantId: string, thingsId: string, fixes: readonly GpsFix[]): Promise<void> {
    const rt = await this.runtime(tenantId, thingsId);
    this.stats.fixes += fixes.length;
    if (!rt.device || rt.fences.length === 0) return;
    const sorted = [...fixes].sort((a, b) => a.ts - b.ts);
    for (const f of rt.fences) {
      const id = f.rule.id;
      const meta = rt.meta.get(id) as RuleMeta;
      let cur = rt.active.get(id);
      const before = cur;
      let fires = 0;
      let recoveries = 0;
      let fire: Record<string, unknown> | null = null;
      let recover: Record<string, unknown> | null = null;
      for (const x of sorted) {
        const inside = f.contains(x.lat, x.lon);
        const cond = f.rule.fence_rule === 'in' ? inside : !inside;
        const at = {
          ts: x.ts,
          lat: x.lat,
          lon: x.lon,
          speed: x.speed ?? null,
          inside,
          fence_id: f.rule.fence_id,
          fence_name: f.rule.fence_name,
        };
        if (cur === undefined) {
          // The first known position is the baseline: a device switched on inside a fence has not "entered" it.
          cur = cond;
          continue;
        }
        if (cond === cur) continue;
        cur = cond;
        if (cond) {
          fires++;
          fire ??= { ...at, fence_rule: f.rule.fence_rule };
        } else {
          recoveries++;
          recover = { ...at, fence_rule: f.rule.fence_rule };
        }
      }
      if (cur === undefined) continue;
      rt.active.set(id, cur);
      if (before === undefined && !fires && !recoveries) {
        await this.repo.saveState(id, thingsId, cur, meta.lastEventId, meta.marks).catch(() => {});
        continue;
      }
      if (!fires && !recoveries) continue;
      this.stats.edges++;
      await this.dispatch(
        rt.device,
        { rule: f.rule, sourceType: 'fence', wasActive: before === true, active: cur, fires, recoveries, fire, recover },
        meta,
      );
    }
  }
}
