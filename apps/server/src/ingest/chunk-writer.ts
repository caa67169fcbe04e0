import { EventEmitter } from 'node:events';
import type { BatchInfo } from '@loggerhead/can/protocol/batch.ts';
import type { RawSql } from '../db/client.ts';
import { chunksRepository, type DayUsage } from './chunks.repository.ts';

/**
 * One batch of a device's frames as the device protocol encodes it and `frame_chunks` stores it.
 * The writer's `committed` event hands over the freshly committed ones (a re-sent batch is not
 * handed over again): the one shape every consumer of committed frames reads (decoded signals,
 * trigger rules, live hub, cluster fan-out).
 */
export interface FrameChunk {
  tenantId: string;
  thingsId: string;
  /** From `checkBatch`: times, count, the batch's distinct ids (lets a consumer skip a batch). */
  info: BatchInfo;
  data: Uint8Array;
}

/** Where committed chunks are heard (the chunk writer); consumers take this to attach themselves. */
export interface CommittedChunks {
  on(event: 'committed', listener: (chunks: FrameChunk[]) => void): unknown;
  off(event: 'committed', listener: (chunks: FrameChunk[]) => void): unknown;
}

export interface WriterStats {
  chunks: number;
  frames: number;
  bytes: number;
  duplicates: number;
  flushes: number;
}

const DAY_US = 86_400_000_000;
export const dayOf = (us: number) => Math.floor(us / DAY_US);
export const partitionName = (day: number) => `frame_chunks_p${new Date(day * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '')}`;

/** A batch's identity in the store: a re-sent batch has the same. */
const batchKey = (c: FrameChunk) => `${c.thingsId}/${c.info.timeStart}/${c.info.session}/${c.info.seq}`;

/**
 * The chunks without repeats of a batch (a quick re-send lands in the same group commit): the
 * first is kept. Keys are built only for a device with more than one batch in the group.
 */
function distinctBatches(chunks: FrameChunk[]): FrameChunk[] {
  const perDevice = new Map<string, number>();
  for (const c of chunks) perDevice.set(c.thingsId, (perDevice.get(c.thingsId) ?? 0) + 1);
  if (perDevice.size === chunks.length) return chunks;
  const seen = new Set<string>();
  return chunks.filter((c) => {
    if (perDevice.get(c.thingsId) === 1) return true;
    const k = batchKey(c);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const byDeviceDay = (a: DayUsage, b: DayUsage) => (a.thingsId < b.thingsId ? -1 : a.thingsId > b.thingsId ? 1 : a.day - b.day);

interface Pending {
  chunk: FrameChunk;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Group commit: batches arriving while a transaction runs are written together by the next one,
 * so one commit acknowledges many device batches. Each `write` resolves only once its chunk (or
 * an earlier identical one) is committed: the PUBACK waits on it.
 */
export class ChunkWriter extends EventEmitter<{ committed: [FrameChunk[]] }> {
  private queue: Pending[] = [];
  private queuedBytes = 0;
  private running: Promise<void> | null = null;
  private partitions = new Set<number>();
  private closed = false;
  readonly stats: WriterStats = { chunks: 0, frames: 0, bytes: 0, duplicates: 0, flushes: 0 };

  constructor(
    private readonly raw: RawSql,
    private readonly opts: {
      maxRows?: number;
      maxBytes?: number;
      /**
       * Group commits in flight at once. A database off the server's thread (a PostgreSQL server,
       * PGlite on its own thread) commits one group while this thread prepares the next (2); PGlite on
       * this thread runs one statement at a time here, so a second would only wait (1).
       */
      concurrency?: number;
      log?: { error: (o: object, m: string) => void };
    } = {},
  ) {
    super();
  }

  /** Bytes waiting for a commit (each device's send window bounds its share). */
  get backlogBytes() {
    return this.queuedBytes;
  }

  write(chunk: FrameChunk): Promise<void> {
    if (this.closed) return Promise.reject(new Error('writer closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ chunk, resolve, reject });
      this.queuedBytes += chunk.data.byteLength;
      if (!this.running) this.running = this.drain();
    });
  }

  private async drain(): Promise<void> {
    // Let the batches of the same socket read arrive before the first commit.
    await new Promise((r) => setImmediate(r));
    const concurrency = this.opts.concurrency ?? 1;
    const running = new Set<Promise<void>>();
    // Each group is handed over (acknowledged, `committed`) after the groups before it.
    let handed: Promise<void> = Promise.resolve();
    try {
      while (this.queue.length || running.size) {
        while (this.queue.length && running.size < concurrency) {
          const take = this.take();
          const before = handed;
          const group = this.flush(take.map((p) => p.chunk)).then(
            async (inserted) => {
              await before;
              for (const p of take) p.resolve();
              try {
                if (inserted.length) this.emit('committed', inserted);
              } catch (err) {
                // A consumer's fault: the chunks are stored and acknowledged all the same.
                this.opts.log?.error({ err }, 'committed chunks not handed on');
              }
            },
            async (e) => {
              await before;
              for (const p of take) p.reject(e);
            },
          );
          handed = group;
          running.add(group);
          void group.then(() => running.delete(group));
        }
        await Promise.race(running);
      }
    } finally {
      this.running = null;
    }
  }

  /** The next group from the head of the queue, within the row and byte limits. */
  private take(): Pending[] {
    const maxRows = this.opts.maxRows ?? 2000;
    const maxBytes = this.opts.maxBytes ?? 32 * 1024 * 1024;
    let n = 0;
    let bytes = 0;
    while (n < this.queue.length && n < maxRows && (n === 0 || bytes + this.queue[n].chunk.data.byteLength <= maxBytes)) {
      bytes += this.queue[n].chunk.data.byteLength;
      n++;
    }
    this.queuedBytes -= bytes;
    return this.queue.splice(0, n);
  }

  async ensurePartitions(days: Iterable<number>): Promise<void> {
    for (const day of days) {
      if (this.partitions.has(day)) continue;
      const name = partitionName(day);
      try {
        await chunksRepository.createPartition(this.raw, name, day);
      } catch (e) {
        // Another server copy created it at the same moment.
        const code = (e as { code?: string }).code;
        if (code !== '42P07' && code !== '23505') throw e;
      }
      this.partitions.add(day);
    }
  }

  /** Forget known partitions (after retention dropped some). */
  forgetPartitions(days: Iterable<number>) {
    for (const d of days) this.partitions.delete(d);
  }

  private async flush(chunks: FrameChunk[]): Promise<FrameChunk[]> {
    const unique = distinctBatches(chunks);
    const days = new Set<number>();
    for (const c of unique) days.add(dayOf(c.info.timeStart));
    await this.ensurePartitions(days);
    const inserted = await this.raw.transaction(async (tx) => {
      const { keys } = await chunksRepository.insert(tx, unique);
      // Keys come back only when some were stored before (re-sent after a lost PUBACK).
      const fresh = keys ? unique.filter((c) => keys.has(batchKey(c))) : unique;
      // Capacity per device and day, in the same transaction as the chunks.
      const usage = new Map<string, DayUsage>();
      for (const c of fresh) {
        const day = dayOf(c.info.timeStart);
        const first = usage.get(c.thingsId);
        // A device's batches on both sides of midnight: the other day under a key of its own.
        const key = !first || first.day === day ? c.thingsId : `${c.thingsId}/${day}`;
        let d = usage.get(key);
        if (!d) {
          d = { tenantId: c.tenantId, thingsId: c.thingsId, day, bytes: 0, frames: 0, chunks: 0 };
          usage.set(key, d);
        }
        d.bytes += c.data.byteLength;
        d.frames += c.info.count;
        d.chunks++;
      }
      // In one order (device, day), so that two group commits in flight at once lock the rows they
      // share in the same order and never deadlock.
      if (usage.size) await chunksRepository.addUsage(tx, [...usage.values()].sort(byDeviceDay));
      return fresh;
    });
    this.stats.flushes++;
    this.stats.duplicates += chunks.length - inserted.length;
    for (const c of inserted) {
      this.stats.chunks++;
      this.stats.frames += c.info.count;
      this.stats.bytes += c.data.byteLength;
    }
    return inserted;
  }

  /** Waits for everything queued to be committed. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running) await this.running;
  }
}
