import { randomUUID } from 'node:crypto';
import { FLAG_BRS, FLAG_ERR, FLAG_EXT, FLAG_FD, FLAG_RTR, forEachFrame } from '@loggerhead/can/protocol/batch.ts';
import { type ForwardDestination, ForwardDestinationSchema, type ForwardFilter } from '@loggerhead/contract';
import type { FrameChunk } from '../../ingest/chunk-writer.ts';
import type { Egress } from '../../lib/egress.ts';
import { ApiError } from '../../lib/errors.ts';
import { compilePlugin } from '../plugin/plugin.engine.ts';
import type { DecodedBatch } from '../signals/signals.events.ts';
import { errorText, type ForwardMessage, openSender, type Sender } from './destinations.ts';
import type { DeliverableRule, ForwardRepository, NewMessage, OutboxRow } from './forward.repository.ts';

/** Pending messages a rule may hold; past it new ones are dropped and counted (decision 0126). */
export const MAX_PENDING = 100_000;
/** Messages per delivery round of a rule. */
const ROUND = 200;
/** How long a rule's compiled selection is trusted (group and label changes show within it). */
const RULES_TTL_MS = 5000;
const LEASE_MS = 30_000;
const MAX_DELAY_MS = 5 * 60_000;
/** How often an idle loop reads the outbox (messages other server copies wrote wait at most this). */
const IDLE_POLL_MS = 1000;

export interface EngineOptions {
  repo: ForwardRepository;
  /** The egress policy every destination's connection goes through (lib/egress.ts). */
  egress: Egress;
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** The tenant's `push_tps` (messages/s over its rules; null or 0: no limit). */
  pushTps: (tenantId: string) => Promise<number | null>;
  /** This copy's id (rule leases). */
  owner?: string;
  /** Messages of a device delivered (the tenant flow counts them as forwarded out). */
  counted?: (tenantId: string, thingsId: string, messages: number) => void;
  now?: () => number;
  /** First retry after this long, doubling (default 1 s). */
  baseDelayMs?: number;
  /** Attempts before a message is dead-lettered (default 8). */
  maxAttempts?: number;
  /** Buffer flush and delivery poll period (default 100 ms). */
  pollMs?: number;
  maxPending?: number;
}

interface CompiledRule {
  id: string;
  kinds: Set<string>;
  filter: ForwardFilter;
  /** null: every device of the tenant. */
  devices: Set<string> | null;
}

interface TenantRules {
  at: number;
  rules: CompiledRule[];
  third: Map<string, string | null>;
}

/** A plugin error as a dead letter shows it: its registry code and text. */
function errorOf(e: unknown): string {
  if (e instanceof ApiError && !Array.isArray(e.body)) return `${e.body.code}: ${e.body.message}`;
  return errorText(e);
}

const hex = (d: Uint8Array) => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('hex');

/**
 * A sender whose `close` waits for the send in flight. A rule changed while one of its rounds is being
 * sent drops its client; closing the connection under that round would lose the acknowledgement of
 * messages the destination already took (a PostgreSQL insert commits, the client only hears
 * "connection terminated"), so the round would count them failed and send them again.
 */
function closesAfterSend(s: Sender): Sender {
  let inFlight: Promise<unknown> = Promise.resolve();
  return {
    send(messages) {
      const p = s.send(messages);
      const settled = p.catch(() => {});
      inFlight = Promise.all([inFlight, settled]);
      return p;
    },
    async close() {
      await inFlight;
      await s.close();
    },
  };
}

/** Frames of a committed group as a message's data, narrowed by the rule's filter; null when none is left. */
function framesData(chunks: readonly FrameChunk[], f: ForwardFilter) {
  const channels = f.channels?.length ? new Set(f.channels) : null;
  const ids = f.frame_ids?.length ? new Set(f.frame_ids) : null;
  const frames: {
    ts: number;
    channel: number;
    id: number;
    ext: boolean;
    fd: boolean;
    brs: boolean;
    rtr: boolean;
    err: boolean;
    data: string;
  }[] = [];
  for (const c of chunks)
    forEachFrame(c.data, null, (ts, channel, id, fl, _len, data) => {
      if (channels && !channels.has(channel)) return true;
      if (ids && !ids.has(id)) return true;
      frames.push({
        ts,
        channel,
        id,
        ext: (fl & FLAG_EXT) !== 0,
        fd: (fl & FLAG_FD) !== 0,
        brs: (fl & FLAG_BRS) !== 0,
        rtr: (fl & FLAG_RTR) !== 0,
        err: (fl & FLAG_ERR) !== 0,
        data: hex(data),
      });
      return true;
    });
  return frames.length ? { frames } : null;
}

/** Decoded samples as a message's data (times in µs), narrowed by the rule's filter. */
function signalsData(e: DecodedBatch, f: ForwardFilter) {
  const channels = f.channels?.length ? new Set(f.channels) : null;
  const names = f.signals?.length ? new Set(f.signals) : null;
  const signals = e.series
    .filter((s) => (!channels || channels.has(s.channel)) && (!names || names.has(s.signal) || names.has(`${s.message}.${s.signal}`)))
    .map((s) => ({
      channel: s.channel,
      message: s.message,
      signal: s.signal,
      unit: s.unit,
      ts: Array.from(s.ts),
      values: Array.from(s.values),
    }));
  return signals.length ? { signals } : null;
}

/**
 * Forwarding: captures what rules select from the events emitted after ingest's commit into an
 * in-memory buffer written to the durable outbox every `pollMs`, and delivers each rule's outbox in
 * order per device, with retries, back-off and dead letters (docs/decisions/0126-forwarding-delivery.md).
 */
export class ForwardEngine {
  private readonly repo: ForwardRepository;
  private readonly now: () => number;
  private readonly owner: string;
  private base: number;
  private maxAttempts: number;
  private readonly pollMs: number;
  private readonly maxPending: number;
  private tenants = new Map<string, Promise<TenantRules>>();
  private buffer: NewMessage[] = [];
  /** Per rule: pending count as last read, and when. */
  private pending = new Map<string, { n: number; at: number }>();
  private senders = new Map<string, { key: string; sender: Promise<Sender> }>();
  private buckets = new Map<string, { tokens: number; at: number; rate: number; rateAt: number }>();
  private delivering = new Set<string>();
  /** Rules whose lease this copy took (released on close). */
  private held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private tick: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly o: EngineOptions) {
    this.repo = o.repo;
    this.now = o.now ?? Date.now;
    this.owner = o.owner ?? randomUUID();
    this.base = o.baseDelayMs ?? 1000;
    this.maxAttempts = o.maxAttempts ?? 8;
    this.pollMs = o.pollMs ?? 100;
    this.maxPending = o.maxPending ?? MAX_PENDING;
  }

  /** Sets the retry schedule (tests shorten it). */
  tune(o: { baseDelayMs?: number; maxAttempts?: number }) {
    if (o.baseDelayMs !== undefined) this.base = o.baseDelayMs;
    if (o.maxAttempts !== undefined) this.maxAttempts = o.maxAttempts;
  }

  /** A rule of the tenant changed: its selection is read again, its client reopened. */
  invalidate(tenantId: string, ruleId?: string) {
    this.tenants.delete(tenantId);
    this.idle = false;
    if (ruleId) this.dropSender(ruleId);
  }

  private rulesOf(tenantId: string): Promise<TenantRules> {
    const hit = this.tenants.get(tenantId);
    if (hit) return hit;
    const p = this.load(tenantId);
    this.tenants.set(tenantId, p);
    p.then(
      (r) => {
        setTimeout(() => {
          if (this.tenants.get(tenantId) === p) this.tenants.delete(tenantId);
        }, RULES_TTL_MS).unref();
        return r;
      },
      () => this.tenants.delete(tenantId),
    );
    return p;
  }

  private async load(tenantId: string): Promise<TenantRules> {
    const rows = await this.repo.capturing(tenantId);
    const third = new Map<string, string | null>();
    if (!rows.length) return { at: this.now(), rules: [], third };
    const devices = await this.repo.devices(tenantId);
    for (const d of devices) third.set(d.id, d.third_things_id);
    const rules = rows.map((r): CompiledRule => {
      let set: Set<string> | null = null;
      if (r.device_scope === 'group')
        set = new Set(devices.filter((d) => r.group_id && d.group_ids?.includes(r.group_id)).map((d) => d.id));
      else if (r.device_scope === 'labels') {
        const want = new Set(r.label_ids);
        set = new Set(devices.filter((d) => d.label_ids?.some((l) => want.has(l))).map((d) => d.id));
      }
      return { id: r.id, kinds: new Set(r.data_kinds), filter: (r.filter ?? {}) as ForwardFilter, devices: set };
    });
    return { at: this.now(), rules, third };
  }

  /** Queues one message per rule that selects the device and the kind; `data(rule)` null skips the rule. */
  private async capture(tenantId: string, thingsId: string | null, kind: string, data: (r: CompiledRule) => unknown | null) {
    if (this.closed) return;
    const t = await this.rulesOf(tenantId);
    const ts = this.now();
    for (const r of t.rules) {
      if (!r.kinds.has(kind)) continue;
      if (r.devices && (!thingsId || !r.devices.has(thingsId))) continue;
      const d = data(r);
      if (d === null) continue;
      this.buffer.push({
        ruleId: r.id,
        tenantId,
        thingsId,
        kind,
        payload: { ts, third_things_id: thingsId ? (t.third.get(thingsId) ?? null) : null, data: d },
      });
    }
  }

  private guard(p: Promise<void>) {
    p.catch((err) => this.o.log.error({ err }, 'forwarding capture failed'));
  }

  /** A committed group of a device (`signals.frames`). */
  onFrames(e: { tenantId: string; thingsId: string; chunks: readonly FrameChunk[] }) {
    this.guard(this.capture(e.tenantId, e.thingsId, 'frames', (r) => framesData(e.chunks, r.filter)));
  }

  /** Decoded samples stored (`signals.decoded`). */
  onSignals(e: DecodedBatch) {
    this.guard(this.capture(e.tenantId, e.thingsId, 'signals', (r) => signalsData(e, r.filter)));
  }

  onAlert(tenantId: string, event: { things_id: string }) {
    this.guard(this.capture(tenantId, event.things_id, 'alerts', () => event));
  }

  onStatus(tenantId: string, thingsId: string, online: boolean) {
    this.guard(this.capture(tenantId, thingsId, 'status', () => ({ online })));
  }

  /** Whether any capture or delivery is queued or running (tests wait on it). */
  get busy() {
    return this.buffer.length > 0 || this.delivering.size > 0 || this.tick !== null;
  }

  /** Writes the buffer to the outbox, bounded per rule. */
  async flush(): Promise<void> {
    if (!this.buffer.length) return;
    const list = this.buffer;
    this.buffer = [];
    const byRule = new Map<string, NewMessage[]>();
    for (const m of list) byRule.set(m.ruleId, [...(byRule.get(m.ruleId) ?? []), m]);
    const keep: NewMessage[] = [];
    const now = this.now();
    for (const [ruleId, msgs] of byRule) {
      let p = this.pending.get(ruleId);
      if (!p || now - p.at > 1000) {
        p = { n: await this.repo.pendingUpTo(ruleId, this.maxPending), at: now };
        this.pending.set(ruleId, p);
      }
      const room = Math.max(0, this.maxPending - p.n);
      keep.push(...msgs.slice(0, room));
      p.n += Math.min(room, msgs.length);
      if (msgs.length > room) {
        await this.repo.addDropped(ruleId, msgs.length - room);
        this.o.log.warn({ ruleId, dropped: msgs.length - room }, 'forwarding queue full: messages dropped');
      }
    }
    try {
      await this.repo.enqueue(keep, new Date(now));
    } catch (err) {
      // A rule deleted a moment ago takes its messages with it; the others go in without them.
      if ((err as { code?: string }).code !== '23503') throw err;
      for (const m of keep) await this.repo.enqueue([m], new Date(now)).catch(() => {});
    }
  }

  private dropSender(ruleId: string) {
    const s = this.senders.get(ruleId);
    if (!s) return;
    this.senders.delete(ruleId);
    s.sender.then((x) => x.close()).catch(() => {});
  }

  private sender(ruleId: string, key: string, destination: ForwardDestination): Promise<Sender> {
    const hit = this.senders.get(ruleId);
    if (hit && hit.key === key) return hit.sender;
    if (hit) this.dropSender(ruleId);
    const sender = openSender(destination, this.o.egress).then(closesAfterSend);
    this.senders.set(ruleId, { key, sender });
    sender.catch(() => {
      if (this.senders.get(ruleId)?.sender === sender) this.senders.delete(ruleId);
    });
    return sender;
  }

  /** Messages the tenant's `push_tps` lets through now (Infinity without a limit). */
  private async allowance(tenantId: string): Promise<number> {
    const now = this.now();
    let b = this.buckets.get(tenantId);
    if (!b || now - b.rateAt > 5000) {
      const rate = (await this.o.pushTps(tenantId).catch(() => null)) ?? 0;
      b = b ? { ...b, rate, rateAt: now } : { tokens: rate, at: now, rate, rateAt: now };
      this.buckets.set(tenantId, b);
    }
    if (!b.rate) return Number.POSITIVE_INFINITY;
    b.tokens = Math.min(b.rate, b.tokens + ((now - b.at) / 1000) * b.rate);
    b.at = now;
    return Math.floor(b.tokens);
  }

  private spend(tenantId: string, n: number) {
    const b = this.buckets.get(tenantId);
    if (b?.rate) b.tokens -= n;
  }

  /** One delivery round of a rule: its oldest messages, in order per device; false when nothing was sendable. */
  private async round(rule: DeliverableRule): Promise<boolean> {
    const rows = await this.repo.head(rule.id, ROUND);
    if (!rows.length) return false;
    const now = this.now();
    const blocked = new Set<string>();
    const seen = new Set<string>();
    let batch: OutboxRow[] = [];
    for (const r of rows) {
      const dev = r.things_id ?? '';
      if (!seen.has(dev)) {
        seen.add(dev);
        if (new Date(r.next_at).getTime() > now) blocked.add(dev);
      }
      if (!blocked.has(dev)) batch.push(r);
    }
    const allowed = await this.allowance(rule.tenant_id);
    if (batch.length > allowed) batch = batch.slice(0, allowed);
    if (!batch.length) return false;
    this.spend(rule.tenant_id, batch.length);
    let messages: ForwardMessage[] = batch.map((r) => ({
      id: r.id,
      rule_id: rule.id,
      tenant_id: rule.tenant_id,
      things_id: r.things_id,
      third_things_id: r.payload.third_things_id ?? null,
      kind: r.kind,
      ts: r.payload.ts,
      data: r.payload.data,
    }));
    if (rule.transform) {
      const t = await this.transform(rule, batch, messages);
      batch = t.batch;
      messages = t.messages;
      if (!batch.length) return t.any;
    }
    try {
      const parsed = ForwardDestinationSchema.parse(rule.destination);
      const sender = await this.sender(rule.id, String(new Date(rule.updated_at).getTime()), parsed);
      await sender.send(messages);
    } catch (e) {
      this.dropSender(rule.id);
      const error = errorText(e);
      const at = this.now();
      const retry: { id: string; attempts: number; at: Date }[] = [];
      const dead: { id: string; attempts: number }[] = [];
      for (const r of batch) {
        const attempts = r.attempts + 1;
        if (attempts >= this.maxAttempts) dead.push({ id: r.id, attempts });
        else retry.push({ id: r.id, attempts, at: new Date(at + Math.min(MAX_DELAY_MS, this.base * 2 ** (attempts - 1))) });
      }
      await this.repo.failed(rule.id, retry, dead, error, new Date(at));
      this.o.log.warn({ ruleId: rule.id, messages: batch.length, dead: dead.length, error }, 'forwarding failed');
      return false;
    }
    const at = this.now();
    let sum = 0;
    for (const r of batch) sum += at - new Date(r.created_at).getTime();
    await this.repo.delivered(
      rule.id,
      batch.map((r) => r.id),
      sum,
      at - new Date(batch[batch.length - 1].created_at).getTime(),
      new Date(at),
    );
    if (this.o.counted) {
      const per = new Map<string, number>();
      for (const r of batch) if (r.things_id) per.set(r.things_id, (per.get(r.things_id) ?? 0) + 1);
      for (const [thingsId, n] of per) this.o.counted(rule.tenant_id, thingsId, n);
    }
    const p = this.pending.get(rule.id);
    if (p) p.n = Math.max(0, p.n - batch.length);
    return true;
  }

  /**
   * Applies the rule's transform plugin to a round's messages (decision 0160): a message's `data`
   * becomes the expression's result; nothing or `false` drops the message (counted as filtered); a
   * failing or runaway evaluation dead-letters the message with the plugin's error, so a replay after
   * the plugin is fixed transforms it again. Answers what is left to send.
   */
  private async transform(rule: DeliverableRule, batch: OutboxRow[], messages: ForwardMessage[]) {
    const keptRows: OutboxRow[] = [];
    const kept: ForwardMessage[] = [];
    const filtered: string[] = [];
    const dead: { id: string; attempts: number; error: string }[] = [];
    let compiled: ReturnType<typeof compilePlugin> | null = null;
    let compileError: string | null = null;
    try {
      compiled = compilePlugin(rule.transform as string);
    } catch (e) {
      compileError = errorOf(e);
    }
    // The round's messages go to a plugin thread in one message; a runaway evaluation ends alone there.
    const outs = compiled ? await compiled.runEach(messages, rule.tenant_id) : [];
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i];
      if (!compiled) {
        dead.push({ id: r.id, attempts: r.attempts + 1, error: compileError ?? 'plugin.bad-expression' });
        continue;
      }
      const out = outs[i];
      if (out instanceof Error) dead.push({ id: r.id, attempts: r.attempts + 1, error: errorOf(out) });
      else if (!out.kept) filtered.push(r.id);
      else {
        keptRows.push(r);
        kept.push({ ...messages[i], data: out.output });
      }
    }
    if (filtered.length) await this.repo.filtered(rule.id, filtered);
    const at = new Date(this.now());
    const byError = new Map<string, { id: string; attempts: number }[]>();
    for (const d of dead) byError.set(d.error, [...(byError.get(d.error) ?? []), d]);
    for (const [error, list] of byError) await this.repo.failed(rule.id, [], list, error, at);
    if (dead.length) this.o.log.warn({ ruleId: rule.id, dead: dead.length, error: dead[0].error }, 'forwarding transform failed');
    const p = this.pending.get(rule.id);
    if (p) p.n = Math.max(0, p.n - filtered.length - dead.length);
    return { batch: keptRows, messages: kept, any: filtered.length + dead.length > 0 };
  }

  /** Delivers a rule while it has sendable messages (up to a second), if this copy holds its lease. */
  private async deliverRule(rule: DeliverableRule) {
    if (this.delivering.has(rule.id)) return;
    this.delivering.add(rule.id);
    try {
      const now = this.now();
      if (!(await this.repo.lease(rule.id, this.owner, new Date(now), new Date(now + LEASE_MS)))) return;
      this.held.add(rule.id);
      const end = this.now() + 1000;
      while (!this.closed && this.now() < end && (await this.round(rule))) {}
    } catch (err) {
      this.o.log.error({ err, ruleId: rule.id }, 'forwarding delivery failed');
    } finally {
      this.delivering.delete(rule.id);
    }
  }

  /** One pass: flush the buffer, start delivering every rule with messages. */
  async runOnce(): Promise<void> {
    const flushed = this.buffer.length > 0;
    await this.flush();
    const rules = await this.repo.deliverable();
    this.lastPoll = Date.now();
    this.idle = !flushed && rules.length === 0;
    await Promise.all(rules.map((r) => this.deliverRule(r)));
  }

  /** When the last pass found nothing to send: the outbox is then asked only every IDLE_POLL_MS. */
  private idle = false;
  private lastPoll = 0;

  /**
   * A pass of the loop: while idle (nothing captured here, no rule with messages) the outbox is read
   * once a second instead of every `pollMs`, so an idle server does not spend ten statements a
   * second on it; a message captured on this copy is flushed and sent at the next `pollMs`.
   */
  private async loopOnce(): Promise<void> {
    if (this.idle && !this.buffer.length && Date.now() - this.lastPoll < IDLE_POLL_MS) return;
    await this.runOnce();
  }

  start() {
    if (this.timer || this.closed) return;
    const loop = () => {
      this.timer = setTimeout(() => {
        this.tick = this.loopOnce()
          .catch((err) => this.o.log.error({ err }, 'forwarding loop failed'))
          .finally(() => {
            this.tick = null;
            if (!this.closed) loop();
          });
      }, this.pollMs);
      this.timer.unref();
    };
    loop();
  }

  /**
   * Resolves when the buffer is written and no rule has sendable messages left (tests); throws when
   * that has not happened within `ms` (a destination that keeps failing never drains: wait for its
   * counters instead).
   */
  async drain(ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      if (this.tick) await this.tick;
      await this.runOnce();
      const rules = await this.repo.deliverable();
      let sendable = false;
      for (const r of rules) {
        const head = await this.repo.head(r.id, ROUND);
        if (head.some((h) => new Date(h.next_at).getTime() <= this.now())) sendable = true;
      }
      if (!sendable && !this.buffer.length) return;
      if (Date.now() > end) throw new Error(`forwarding did not drain within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.tick) await this.tick.catch(() => {});
    await this.flush().catch((err) => this.o.log.error({ err }, 'forwarding buffer not written'));
    for (const id of [...this.senders.keys()]) this.dropSender(id);
    for (const id of this.held) await this.repo.release(id, this.owner).catch(() => {});
    this.held.clear();
  }

  /** Opens the destination and sends one test message. */
  static async test(
    destination: ForwardDestination,
    tenantId: string,
    egress: Egress,
  ): Promise<{ ok: boolean; latency_ms: number; error?: string }> {
    const t0 = Date.now();
    let sender: Sender | null = null;
    try {
      sender = await openSender(destination, egress);
      await sender.send([
        {
          id: `test-${randomUUID()}`,
          rule_id: '',
          tenant_id: tenantId,
          things_id: null,
          third_things_id: null,
          kind: 'test',
          ts: t0,
          data: { test: true },
        },
      ]);
      return { ok: true, latency_ms: Date.now() - t0 };
    } catch (e) {
      return { ok: false, latency_ms: Date.now() - t0, error: errorText(e) };
    } finally {
      await sender?.close().catch(() => {});
    }
  }
}
