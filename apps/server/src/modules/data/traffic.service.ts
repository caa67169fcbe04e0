import {
  type TenantFlow,
  type TenantFlowQuery,
  type TenantRankingItem,
  type TenantRankingQuery,
  TRAFFIC_MAX_RANGE_MS,
  type TrafficCounts,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { trafficRepository } from '../../ingest/traffic.repository.ts';
import type { Auth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Hours kept (a little over the longest range one request reads). */
export const TRAFFIC_KEEP_MS = 400 * DAY_MS;

function checkRange(q: { begin_time: number; end_time: number }) {
  if (q.end_time <= q.begin_time) throw badRequest('data.bad-range', undefined, 'end_time');
  if (q.end_time - q.begin_time > TRAFFIC_MAX_RANGE_MS) throw badRequest('data.range-too-long', undefined, 'end_time');
}

const zero = (): TrafficCounts => ({ messages: 0, frames: 0, bytes: 0, forwarded: 0 });

/**
 * Tenant flow and ranking (spec §7 /data-mgmt; docs/decisions/0175-tenant-flow-and-ranking.md): read
 * from the per-hour counts the ingest keeps (`traffic_hourly`). The caller is already in the tenant
 * (`inTenant`: its own, or any for a system manager).
 */
export function trafficService(o: { raw: RawSql }) {
  const repo = trafficRepository(o.raw);
  return {
    async flow(auth: Auth, q: TenantFlowQuery): Promise<TenantFlow> {
      checkRange(q);
      const periodMs = q.granularity === 'day' ? DAY_MS : HOUR_MS;
      // Days start at 00:00 of the given offset; hours at the hour (every offset is whole minutes, hours stay whole).
      const origin = q.granularity === 'day' ? -q.utc_offset * 60_000 : 0;
      const first = Math.floor((q.begin_time - origin) / periodMs) * periodMs + origin;
      const rows = await repo.flow({
        tenantId: auth.tenantId,
        thingsId: q.things_id,
        begin: q.begin_time,
        end: q.end_time,
        periodMs,
        originMs: origin,
      });
      const byStart = new Map(rows.map((r) => [r.period_start, r]));
      const list: TenantFlow['list'] = [];
      const total = zero();
      for (let p = first; p < q.end_time; p += periodMs) {
        const r = byStart.get(p);
        const c = r ? { messages: r.messages, frames: r.frames, bytes: r.bytes, forwarded: r.forwarded } : zero();
        list.push({ period_start: p, ...c });
        total.messages += c.messages;
        total.frames += c.frames;
        total.bytes += c.bytes;
        total.forwarded += c.forwarded;
      }
      return { granularity: q.granularity, begin_time: q.begin_time, end_time: q.end_time, list, total };
    },

    async ranking(auth: Auth, q: TenantRankingQuery) {
      checkRange(q);
      const offset = (q.current_page - 1) * q.page_size;
      const { rows, total } = await repo.ranking({
        tenantId: auth.tenantId,
        begin: q.begin_time,
        end: q.end_time,
        orderBy: q.order_by,
        offset,
        limit: q.page_size,
      });
      const list: TenantRankingItem[] = rows.map((r, i) => ({ rank: offset + i + 1, ...r }));
      return { total, current_page: q.current_page, page_size: q.page_size, list };
    },

    /** Drops hours older than what a range can read. */
    prune: (now = Date.now()) => repo.prune(now - TRAFFIC_KEEP_MS),
  };
}
