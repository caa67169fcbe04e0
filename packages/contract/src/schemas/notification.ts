import { z } from 'zod';

/** One message sent out (codes, notices, alerts): spec §7 notification push-log. */
export const PushLogSchema = z.object({
  id: z.string(),
  tenant_id: z.string().nullable(),
  channel: z.string(),
  destination: z.string(),
  purpose: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  /** queued | sent | failed | logged (no provider configured) */
  status: z.string(),
  error: z.string().nullable(),
  created_at: z.number().int(),
  sent_at: z.number().int().nullable(),
});
export type PushLog = z.infer<typeof PushLogSchema>;

/** Spec §9: notification log page 1 size 10. */
export const PushLogQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  destination: z.string().max(254).optional(),
  purpose: z.string().max(32).optional(),
});
