import { type BehaviourBatch, type BehaviourSummary, MAX_BEHAVIOUR_SUMMARY_ROWS } from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import type { BehaviourRepository } from './behaviour.repository.ts';

/** How long clicks are kept: a little over the longest period the summary covers (a year). */
export const BEHAVIOUR_KEEP_DAYS = 400;

/**
 * User behaviour (spec §6, §7 /out-wrapper): what the console's header was clicked for. The tenant
 * and user are the session's, never the body's, so no one records clicks in another's name; in a
 * super-session the clicks are the tenant's, as everything else the system manager does there.
 */
export function behaviourService(repo: BehaviourRepository) {
  return {
    async record(auth: Auth, body: BehaviourBatch) {
      return { accepted: await repo.insert(auth.tenantId, auth.userId, body.events) };
    },

    /** Retention: drops clicks older than BEHAVIOUR_KEEP_DAYS (run hourly by the periodic work). */
    async purge(now = Date.now()): Promise<number> {
      return repo.purgeBefore(new Date(now - BEHAVIOUR_KEEP_DAYS * 86_400_000));
    },

    async summary(q: { start_time: number; end_time: number; tenant_id?: string; module?: string }): Promise<BehaviourSummary> {
      const { rows, total } = await repo.summary(
        { from: new Date(q.start_time), to: new Date(q.end_time), tenantId: q.tenant_id, module: q.module },
        MAX_BEHAVIOUR_SUMMARY_ROWS,
      );
      return { total, rows: rows.map((r) => ({ ...r, last_at: ms(r.last_at) ?? 0 })) };
    },
  };
}
