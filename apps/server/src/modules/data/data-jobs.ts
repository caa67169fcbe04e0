import type { RawSql } from '../../db/client.ts';
import { ApiError } from '../../lib/errors.ts';
import { dataJobsRepository } from './data-jobs.repository.ts';

/** The package's `concurrent_data_jobs` of a tenant; null: no limit. */
export type DataJobLimit = (tenantId: string) => Promise<number | null>;

/** Log uploads being read in this server copy, per tenant, per database (one app, one count). */
const uploadsOf = new WeakMap<RawSql, Map<string, number>>();

/**
 * The package's bound on a tenant's data jobs running at once (decision 0205): its unfinished
 * exports (every server copy's, from the database) and the log uploads this copy is reading. Checked
 * before the work starts; one more is 429 `data.jobs-busy`, and nothing of it is stored.
 */
export function dataJobs(raw: RawSql, limit?: DataJobLimit) {
  let uploads = uploadsOf.get(raw);
  if (!uploads) {
    uploads = new Map();
    uploadsOf.set(raw, uploads);
  }
  const inFlight = uploads;
  const busy = (max: number, running: number) => new ApiError(429, 'data.jobs-busy', undefined, { details: { limit: max, running } });
  const exportsRunning = dataJobsRepository.exportsRunning;

  return {
    /** Runs `insert` (an export's row) when the tenant has room: under a per-tenant lock, so two starts cannot both pass. */
    async startExport(tenantId: string, insert: (tx: RawSql) => Promise<string>): Promise<string> {
      const max = limit ? await limit(tenantId) : null;
      if (max === null) return insert(raw);
      return raw.transaction(async (tx) => {
        await dataJobsRepository.lockTenant(tx, tenantId);
        const running = (await exportsRunning(tx, tenantId)) + (inFlight.get(tenantId) ?? 0);
        if (running >= max) throw busy(max, running);
        return insert(tx);
      });
    },

    /** Runs a log upload when the tenant has room, counted while it runs. */
    async upload<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
      // Counted first, so that two uploads arriving together cannot both pass the check.
      inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) + 1);
      try {
        const max = limit ? await limit(tenantId) : null;
        if (max !== null) {
          const running = (await exportsRunning(raw, tenantId)) + (inFlight.get(tenantId) ?? 1) - 1;
          if (running >= max) throw busy(max, running);
        }
        return await work();
      } finally {
        const n = (inFlight.get(tenantId) ?? 1) - 1;
        if (n > 0) inFlight.set(tenantId, n);
        else inFlight.delete(tenantId);
      }
    },
  };
}
