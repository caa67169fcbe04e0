import { type CompiledMessage, compileDbc, type DbcDecoder, parseDbc } from '@loggerhead/can';
import type { SignalsRepository, StartedBinding } from './signals.repository.ts';

/** What to decode on one bound channel: per message index, the signal indexes kept. */
export interface ChannelPlan {
  channel: number;
  decoder: DbcDecoder;
  /** `keep[messageIndex]`: indexes into the message's signals, or undefined to skip the message. */
  keep: (number[] | undefined)[];
}

/** How long a device's bindings are trusted before being read again (other server copies change them). */
const PLAN_TTL_MS = 5_000;
const MAX_DECODERS = 64;

/** Where the cache reads DBC files and a device's started bindings. */
export interface DecoderSource {
  dbcContent(dbcId: string): Promise<string | null>;
  startedBindings?: SignalsRepository['startedBindings'];
  startedBindingsOf?: SignalsRepository['startedBindingsOf'];
}

/**
 * Compiled decoders per DBC version and decode plans per device, so that the ingest reads the
 * bindings once per device every few seconds and parses a DBC once per change. The app has one:
 * the decode stage and the trigger rules on DBC signals compile each DBC version once, here.
 */
export class DecoderCache {
  private decoders = new Map<string, { version: number; decoder: DbcDecoder }>();
  private plans = new Map<string, { at: number; plans: Map<number, ChannelPlan> }>();

  constructor(private readonly repo: DecoderSource) {}

  async decoder(dbcId: string, version: number): Promise<DbcDecoder | null> {
    const hit = this.decoders.get(dbcId);
    if (hit && hit.version === version) return hit.decoder;
    const text = await this.repo.dbcContent(dbcId);
    if (text === null) return null;
    const parsed = parseDbc(text);
    if (!parsed.ok) return null;
    const decoder = compileDbc(parsed.dbc);
    if (this.decoders.size >= MAX_DECODERS) this.decoders.delete(this.decoders.keys().next().value as string);
    this.decoders.set(dbcId, { version, decoder });
    return decoder;
  }

  /** Started channels of a device, or an empty map. */
  async plansFor(tenantId: string, thingsId: string): Promise<Map<number, ChannelPlan>> {
    const hit = this.plans.get(thingsId);
    if (hit && Date.now() - hit.at < PLAN_TTL_MS) return hit.plans;
    return this.plan(thingsId, (await this.repo.startedBindings?.(tenantId, thingsId)) ?? []);
  }

  /**
   * Reads the bindings of every device of a batch group that is due in one statement: a fleet's
   * group holds batches of hundreds of devices, and their reads one at a time every few seconds were
   * most of the database's work.
   */
  async prefetch(devices: Iterable<{ tenantId: string; thingsId: string }>): Promise<void> {
    if (!this.repo.startedBindingsOf) return;
    const now = Date.now();
    const due = new Map<string, { tenantId: string; thingsId: string }>();
    for (const d of devices) {
      const hit = this.plans.get(d.thingsId);
      if (!(hit && now - hit.at < PLAN_TTL_MS)) due.set(d.thingsId, d);
    }
    if (due.size < 2) return;
    const by = new Map<string, StartedBinding[]>();
    for (const r of await this.repo.startedBindingsOf([...due.values()])) by.get(r.things_id)?.push(r) ?? by.set(r.things_id, [r]);
    for (const thingsId of due.keys()) await this.plan(thingsId, by.get(thingsId) ?? []);
  }

  private async plan(thingsId: string, bindings: StartedBinding[]): Promise<Map<number, ChannelPlan>> {
    const plans = new Map<number, ChannelPlan>();
    for (const b of bindings) {
      const decoder = await this.decoder(b.dbc_id, Number(b.dbc_version));
      if (decoder) plans.set(Number(b.channel), { channel: Number(b.channel), decoder, keep: keepList(decoder.messages, b) });
    }
    this.plans.set(thingsId, { at: Date.now(), plans });
    return plans;
  }

  /** Bindings or files changed: read them again on the next batch. */
  invalidate(thingsId?: string) {
    if (thingsId) this.plans.delete(thingsId);
    else this.plans.clear();
  }
}

function keepList(messages: CompiledMessage[], b: StartedBinding): (number[] | undefined)[] {
  if (!b.signals) return messages.map((m) => m.names.map((_, i) => i));
  const wanted = new Map<string, Set<string>>();
  for (const s of b.signals) {
    const set = wanted.get(s.message) ?? new Set();
    set.add(s.signal);
    wanted.set(s.message, set);
  }
  return messages.map((m) => {
    const set = wanted.get(m.name);
    if (!set) return undefined;
    const keep = m.names.flatMap((n, i) => (set.has(n) ? [i] : []));
    return keep.length ? keep : undefined;
  });
}
