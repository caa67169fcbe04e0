import type { CanFrame } from '@loggerhead/can';
import type { Database } from '../../db/client.ts';
import type { CommittedChunks, FrameChunk } from '../../ingest/chunk-writer.ts';
import type { EventBus } from '../../lib/events.ts';
import { backfillService } from './backfill.service.ts';
import { busStatsService } from './bus-stats.service.ts';
import { DecoderCache } from './decoder-cache.ts';
import type { DecodedBatch } from './signals.events.ts';
import { type DemandPrefetch, type DemandSource, SignalIngest } from './signals.ingest.ts';
import { signalsRepository } from './signals.repository.ts';
import { signalsQueryService } from './signals.service.ts';

export interface SignalsDeps {
  database: Database;
  events: EventBus;
  usage?: { add(tenantId: string, thingsId: string, bytes: number): Promise<void> };
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** This server copy's id (`ctx.jobs.owner`): the back-fills it runs name it. */
  owner?: string;
}

/**
 * Decoded signals, as the shared context carries them (`ctx.signals`):
 *
 *   ctx.signals.attach(ctx.ingest.writer)              // decode every committed frame batch
 *   ctx.signals.onChunks(committedChunks)              // the same, called directly
 *   await ctx.signals.onFrames(tenantId, thingsId, frames) // frames from elsewhere (log import)
 *   await ctx.signals.backfill.start(tenantId, thingsId, channel, range) // stored frames, in the background
 *   ctx.events.on('signals.decoded', (e) => …)         // real-time curves
 *   ctx.events.on('signals.frames', (e) => …)          // every committed group, decoded once (trigger rules)
 *   ctx.signals.demandFrom((tenantId, thingsId) => …)  // frames to decode besides the stored signals
 *   ctx.signals.invalidate(thingsId)                   // bindings changed
 *   await ctx.signals.clearChannel(tenantId, thingsId, channel) // unbind: data and capacity gone
 *   await ctx.signals.clearDevice(tenantId, thingsId)   // quick delete of a device's data
 *   await ctx.signals.clearRange(tenantId, thingsId, fromMs, toMs) // quick delete of a time range
 *   await ctx.signals.purgeBefore(tenantId, beforeMs)   // retention
 */
export function createSignals(deps: SignalsDeps) {
  const raw = deps.database.raw;
  const repo = signalsRepository(raw);
  const cache = new DecoderCache(repo);
  const ingest = new SignalIngest({ raw, repo, cache, events: deps.events, usage: deps.usage, log: deps.log });
  const backfill = backfillService({ raw, ingest, log: deps.log, owner: deps.owner });
  return {
    repo,
    /** The app's one decoder cache (the decode stage's; trigger rules compile against it too). */
    decoders: cache,
    query: signalsQueryService(raw, repo),
    bus: busStatsService(raw, repo, cache),

    /** Subscribes to a chunk writer's `committed` event; returns the unsubscribe function. */
    attach(writer: CommittedChunks) {
      const listener = (chunks: FrameChunk[]) => ingest.onChunks(chunks);
      writer.on('committed', listener);
      return () => {
        writer.off('committed', listener);
      };
    },
    onChunks: (chunks: FrameChunk[]) => ingest.onChunks(chunks),
    onFrames: (tenantId: string, thingsId: string, frames: readonly CanFrame[]) => ingest.onFrames(tenantId, thingsId, frames),
    /** Frames to decode besides the stored signals, by device (the rule engine's demand). */
    demandFrom: (source: DemandSource | null, prefetch?: DemandPrefetch) => ingest.demandFrom(source, prefetch ?? null),
    /** Resolves when the committed groups queued so far are decoded, published and stored. */
    decodeIdle: () => ingest.idle(),
    /** Resolves when queued batches are decoded and stored, and no back-fill runs. */
    idle: async () => {
      await ingest.idle();
      await backfill.idle();
    },
    /** Decoding of a channel's stored frames when parsing starts (an option, default off). */
    backfill,
    /** Live samples of one device; returns the unsubscribe function. */
    subscribe(thingsId: string, listener: (e: DecodedBatch) => void) {
      return deps.events.on('signals.decoded', (e) => {
        if (e.thingsId === thingsId) listener(e);
      });
    },
    invalidate: (thingsId?: string) => cache.invalidate(thingsId),

    /**
     * Unbind: deletes a channel's decoded data, gives its bytes back to the tenant's capacity, removes
     * the channel's saved real-time curves (its dashboard) from every user of the tenant, tells listeners.
     */
    async clearChannel(tenantId: string, thingsId: string, channel: number): Promise<number> {
      cache.invalidate(thingsId);
      const bytes = await repo.deleteChannel(tenantId, thingsId, channel);
      if (bytes && deps.usage) await deps.usage.add(tenantId, thingsId, -bytes);
      await repo.dropChannelCurves(tenantId, thingsId, channel);
      deps.events.emit('signals.channel-cleared', { tenantId, thingsId, channel });
      return bytes;
    },

    /** Quick delete of a device's data: every decoded signal goes, its bytes leave the capacity. */
    async clearDevice(tenantId: string, thingsId: string): Promise<number> {
      cache.invalidate(thingsId);
      const bytes = await repo.deleteDevice(tenantId, thingsId);
      if (bytes && deps.usage) await deps.usage.add(tenantId, thingsId, -bytes);
      return bytes;
    },

    /** Quick delete of a time range [fromMs, toMs) of a device; its bytes leave the capacity. */
    async clearRange(tenantId: string, thingsId: string, fromMs: number, toMs: number): Promise<number> {
      cache.invalidate(thingsId);
      const bytes = await repo.deleteRange(tenantId, thingsId, fromMs * 1000, toMs * 1000);
      if (bytes && deps.usage) await deps.usage.add(tenantId, thingsId, -bytes);
      return bytes;
    },

    /**
     * Clean task: deletes a device's raw chunks whose last sample is older than `beforeUs`, oldest
     * first, at most `maxSamples` samples, with the roll-up blocks that close before the same bound;
     * their bytes leave the capacity.
     */
    async cleanBefore(
      tenantId: string,
      thingsId: string,
      beforeUs: number,
      maxSamples: number,
    ): Promise<{ samples: number; bytes: number; limited: boolean }> {
      cache.invalidate(thingsId);
      const { bound, limited } = await repo.samplesBound(tenantId, thingsId, beforeUs, Math.max(0, maxSamples));
      let samples = 0;
      let bytes = 0;
      for (const p of await repo.purgeBefore(tenantId, bound, thingsId)) {
        samples += p.samples;
        bytes += p.bytes;
        if (p.bytes && deps.usage) await deps.usage.add(tenantId, p.things_id, -p.bytes);
      }
      return { samples, bytes, limited };
    },

    /** Retention (package maximum_data_retention_days): drops decoded data older than `beforeMs`. */
    async purgeBefore(tenantId: string, beforeMs: number, thingsId: string | null = null): Promise<number> {
      let total = 0;
      for (const p of await repo.purgeBefore(tenantId, beforeMs * 1000, thingsId)) {
        total += p.bytes;
        if (p.bytes && deps.usage) await deps.usage.add(tenantId, p.things_id, -p.bytes);
      }
      return total;
    },
  };
}

export type Signals = ReturnType<typeof createSignals>;
