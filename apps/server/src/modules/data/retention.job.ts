import { PACKAGE_DEFAULTS } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import { type ChunkWriter, dayOf } from '../../ingest/chunk-writer.ts';
import { quickDeleteRepository } from './quick-delete.repository.ts';
import { removeRecalledFiles } from './quick-delete.service.ts';
import { retentionRepository } from './retention.repository.ts';

/** Spec §3 package default maximum_data_retention_days. */
export const DEFAULT_RETENTION_DAYS: number = PACKAGE_DEFAULTS.maximum_data_retention_days;

const DAY_MS = 86_400_000;
/**
 * An export file is kept this long after its task ended: the console fetches it the moment it is
 * done, so a day is ample for a retry, and exports never fill the disk.
 */
export const EXPORT_KEEP_MS = DAY_MS;
const DAY_US = DAY_MS * 1000;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Drops whole daily partitions older than `retentionDays`, with their usage rows, instead of
 * deleting rows. Partitions are shared by every tenant: give the longest retention of all.
 */
export async function dropExpiredPartitions(
  raw: RawSql,
  writer: ChunkWriter | null,
  retentionDays = DEFAULT_RETENTION_DAYS,
  now = Date.now(),
) {
  const cutoffDay = dayOf(now * 1000) - retentionDays;
  const repo = retentionRepository(raw);
  const dropped: number[] = [];
  for (const name of await repo.framePartitions()) {
    const m = /^frame_chunks_p(\d{4})(\d{2})(\d{2})$/.exec(name);
    if (!m) continue;
    const day = Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS);
    if (day >= cutoffDay) continue;
    await repo.dropPartition(name);
    dropped.push(day);
  }
  await repo.deleteUsageBefore(dateOf(cutoffDay));
  writer?.forgetPartitions(dropped);
  return dropped.length;
}

export interface RetentionDeps {
  raw: RawSql;
  writer: ChunkWriter | null;
  /** Decoded signals: `purgeBefore(tenantId, beforeMs)` gives their bytes back to the capacity. */
  signals?: { purgeBefore(tenantId: string, beforeMs: number): Promise<number> };
  /** Files: recalled SD-card files (`recall/`) and export files (`files/`) under the data directory. */
  files?: { store: FileStore; usage: { add(tenantId: string, thingsId: string, bytes: number): Promise<void> } };
}

/**
 * Export tasks that ended (or, left by a stopped server, started) more than EXPORT_KEEP_MS ago go,
 * rows and files: a download is taken at once, the task is no history.
 */
export async function sweepExports(raw: RawSql, files: FileStore, now = Date.now()) {
  const store = files.under('files');
  const gone = await retentionRepository(raw).deleteEndedExports(now - EXPORT_KEEP_MS);
  for (const file of gone) if (file) await store.remove(file);
  return gone.length;
}

/**
 * Retention by package (spec §3 maximum_data_retention_days; null = kept for ever), or the tenant's
 * shorter max_reserves_duration when its reclaim_policy is 1: a tenant's raw frames, decoded
 * signals, GPS fixes and model data (twin events, property history) older than its days go. Whole
 * partitions (shared by all tenants) are dropped once older than the longest retention of any
 * tenant; inside the remaining ones, a tenant with a shorter retention has its chunks deleted day
 * by whole day, with the per-day usage rows, so that the capacity follows. Recalled files stored
 * longer ago than the tenant's days go too (rows, files, and their bytes off the capacity), and
 * export files a day after their export ended.
 */
export async function sweepRetention(deps: RetentionDeps, now = Date.now()) {
  const { raw } = deps;
  // The package's days, shortened by the tenant's own choice (tenant-spec reclaim_policy 1:
  // data older than max_reserves_duration days goes, within what the package allows).
  const repo = retentionRepository(raw);
  const tenants = await repo.tenantDays(DEFAULT_RETENTION_DAYS);
  const today = dayOf(now * 1000);
  const unlimited = tenants.some((t) => t.days === null);
  const longest = tenants.reduce((m, t) => Math.max(m, t.days ?? 0), 0);
  const partitions = unlimited || !tenants.length ? 0 : await dropExpiredPartitions(raw, deps.writer, longest, now);

  let frames = 0;
  let recalled = 0;
  const files = quickDeleteRepository(raw);
  for (const t of tenants) {
    if (t.days === null) continue;
    const cutoffDay = today - t.days;
    if (t.days < longest || unlimited) {
      frames += await repo.deleteTenantChunks(t.id, cutoffDay * DAY_US, dateOf(cutoffDay));
    }
    const beforeMs = cutoffDay * DAY_MS;
    await repo.deleteTenantGps(t.id, beforeMs);
    await repo.deleteTenantModelData(t.id, beforeMs);
    await deps.signals?.purgeBefore(t.id, beforeMs);
    if (deps.files) {
      const gone = await files.deleteFilesStoredBefore(t.id, beforeMs);
      recalled += gone.length;
      await removeRecalledFiles({ files: deps.files.store, usage: deps.files.usage }, t.id, gone);
    }
  }
  const exports = deps.files ? await sweepExports(raw, deps.files.store, now) : 0;
  return { partitions, chunks: frames, recalled, exports };
}
