import { z } from 'zod';
import { UuidSchema } from './common.ts';

/**
 * User behaviour (spec §7 /out-wrapper user behaviour, §6 behaviour tracking): the console posts
 * what was clicked in the header — platform, module, action — and the server adds the tenant and
 * the user from the session. The system manager reads a summary.
 */
const Name = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/);

export const BehaviourEventSchema = z.object({
  platform: Name,
  module: Name,
  action: Name,
});
export type BehaviourEvent = z.infer<typeof BehaviourEventSchema>;

/** Most events one post carries: the console sends what it gathered since its last post. */
export const MAX_BEHAVIOUR_EVENTS = 50;
export const BehaviourBatchSchema = z.object({ events: z.array(BehaviourEventSchema).min(1).max(MAX_BEHAVIOUR_EVENTS) });
export type BehaviourBatch = z.infer<typeof BehaviourBatchSchema>;
export const BehaviourAcceptedSchema = z.object({ accepted: z.number().int() });

/** A period of at most a year (ms since the epoch); by module, action and tenant. */
export const BehaviourSummaryQuerySchema = z
  .object({
    start_time: z.coerce.number().int().min(0),
    end_time: z.coerce.number().int().min(0),
    tenant_id: UuidSchema.optional(),
    module: z.string().max(64).optional(),
  })
  .refine((q) => q.end_time > q.start_time && q.end_time - q.start_time <= 366 * 86_400_000, {
    message: 'The period must end after it starts and last at most a year',
    path: ['end_time'],
  });

export const BehaviourSummaryRowSchema = z.object({
  platform: z.string(),
  module: z.string(),
  action: z.string(),
  tenant_id: z.string(),
  tenant_name: z.string().nullable(),
  /** Clicks in the period. */
  count: z.number().int(),
  /** Distinct users who clicked. */
  users: z.number().int(),
  last_at: z.number().int(),
});
export type BehaviourSummaryRow = z.infer<typeof BehaviourSummaryRowSchema>;

/** At most 1000 rows, most clicked first; `total` clicks of the period in all. */
export const MAX_BEHAVIOUR_SUMMARY_ROWS = 1000;
export const BehaviourSummarySchema = z.object({
  total: z.number().int(),
  rows: z.array(BehaviourSummaryRowSchema),
});
export type BehaviourSummary = z.infer<typeof BehaviourSummarySchema>;
