import { DownloadStatus } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

const UNFINISHED = [DownloadStatus.initialising, DownloadStatus.querying, DownloadStatus.organising, DownloadStatus.generating];

/** What the data-job bound reads: a tenant's unfinished exports, counted under a per-tenant lock. */
export const dataJobsRepository = {
  /** Holds the tenant's data-job lock until the transaction ends (two starts cannot both pass the check). */
  async lockTenant(tx: RawSql, tenantId: string): Promise<void> {
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`data-jobs:${tenantId}`]);
  },
  /** The tenant's exports not finished yet, of every server copy. */
  async exportsRunning(sql: RawSql, tenantId: string): Promise<number> {
    const { rows } = await sql.query<{ n: number }>(
      `select count(*)::int as n from download_tasks where tenant_id = $1 and status in (${UNFINISHED.join(',')})`,
      [tenantId],
    );
    return Number(rows[0].n);
  },
};
