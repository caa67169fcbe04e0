import { z } from 'zod';
import { pageOf, UuidSchema } from './common.ts';

/**
 * Tenant flow and ranking (spec §7 /data-mgmt: tenant flow/ranking/usage): what the tenant's devices
 * sent, per hour or day of arrival, and its devices ranked by it (docs/decisions/0175-tenant-flow-and-ranking.md).
 * Usage (storage vs the package's quota) is `/data-mgmt/tenants/{tenant_id}/usage` (billing).
 */

/** A range reads at most one year (366 days, a leap year's). */
export const TRAFFIC_MAX_RANGE_MS = 366 * 86_400_000;

export const TrafficGranularity = z.enum(['hour', 'day']);
export type TrafficGranularity = z.infer<typeof TrafficGranularity>;

/** Counts of one period, one device or the tenant. */
export const TrafficCountsSchema = z.object({
  /** Uplink messages accepted from devices (frames, status, GPS, telemetry, responses…). */
  messages: z.number().int(),
  /** CAN frames those messages carried. */
  frames: z.number().int(),
  /** Payload bytes of those messages. */
  bytes: z.number().int(),
  /** Messages forwarding delivered out to destinations (things-forward rules). */
  forwarded: z.number().int(),
});
export type TrafficCounts = z.infer<typeof TrafficCountsSchema>;

/** An hour is counted in a range when it starts within [begin_time, end_time), ms. */
const RangeQuery = z.object({
  begin_time: z.coerce.number().int().min(0),
  end_time: z.coerce.number().int().min(0),
});

export const TenantFlowQuerySchema = RangeQuery.extend({
  granularity: TrafficGranularity.default('hour'),
  /** Minutes east of UTC where a day starts (480: days from 00:00 in UTC+8). */
  utc_offset: z.coerce.number().int().min(-720).max(840).default(0),
  /** One device's flow; absent: the whole tenant's. */
  things_id: UuidSchema.optional(),
});
export type TenantFlowQuery = z.infer<typeof TenantFlowQuerySchema>;

export const TenantFlowPeriodSchema = TrafficCountsSchema.extend({
  /** The period's start, ms (every period of the range, zero where nothing arrived). */
  period_start: z.number(),
});
export const TenantFlowSchema = z.object({
  granularity: TrafficGranularity,
  begin_time: z.number(),
  end_time: z.number(),
  list: z.array(TenantFlowPeriodSchema),
  total: TrafficCountsSchema,
});
export type TenantFlow = z.infer<typeof TenantFlowSchema>;

export const TRAFFIC_RANK_ORDERS = ['bytes', 'messages', 'frames', 'forwarded'] as const;

/** Spec §9 pagination: page 1, size 10, options 10 to 50. */
export const TenantRankingQuerySchema = RangeQuery.extend({
  order_by: z.enum(TRAFFIC_RANK_ORDERS).default('bytes'),
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(10),
});
export type TenantRankingQuery = z.infer<typeof TenantRankingQuerySchema>;

export const TenantRankingItemSchema = TrafficCountsSchema.extend({
  /** 1 for the device with the most traffic (by `order_by`). */
  rank: z.number().int(),
  things_id: UuidSchema,
  /** Null for a device deleted since. */
  name: z.string().nullable(),
  third_things_id: z.string().nullable(),
});
export type TenantRankingItem = z.infer<typeof TenantRankingItemSchema>;
export const TenantRankingPageSchema = pageOf(TenantRankingItemSchema);
