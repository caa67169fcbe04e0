import { z } from 'zod';
import { PageQuerySchema, pageOf } from './common.ts';

/**
 * Announcements (spec §7 /out-web/notice). A `notice` shows between startTime
 * and endTime. An `upgrade` notice announces a maintenance window
 * (startTime–endTime, e.g. 2023-01-06 09:00–14:00 for v1.3.1) with a change
 * list; it shows from its creation until the window ends, and a user who hides
 * it for good hides every upgrade notice of that version.
 */
export const NOTICE_KINDS = ['notice', 'upgrade'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NOTICE_TITLE_MAX = 200;
export const NOTICE_CONTENT_MAX = 20_000;

/** A point in time as epoch milliseconds or an ISO 8601 string with offset. */
export const TimeInputSchema = z.union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })]);
export type TimeInput = z.infer<typeof TimeInputSchema>;

/** Parses a TimeInput (or its query-string form); null when absent or invalid. */
export function parseTimeInput(v: string | number | null | undefined): Date | null {
  if (v === null || v === undefined || v === '') return null;
  const d = typeof v === 'number' || /^\d+$/.test(v) ? new Date(Number(v)) : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

const Flag = z.union([z.boolean(), z.literal(0), z.literal(1)]);

export const NoticeSchema = z
  .object({
    id: z.string(),
    kind: z.enum(NOTICE_KINDS),
    title: z.string(),
    content: z.string(),
    /** null: every platform. */
    platform: z.number().int().nullable(),
    version: z.string().nullable(),
    startTime: z.string().nullable(),
    endTime: z.string().nullable(),
    isShow: z.boolean(),
    /** Upgrade notices: what changes with this version. */
    changes: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Notice' });
export type Notice = z.infer<typeof NoticeSchema>;

const NoticeFields = z.object({
  kind: z.enum(NOTICE_KINDS).default('notice'),
  title: z.string().trim().min(1).max(NOTICE_TITLE_MAX),
  content: z.string().max(NOTICE_CONTENT_MAX).default(''),
  platform: z.number().int().min(0).max(99).nullable().default(null),
  version: z.string().trim().min(1).max(32).nullable().default(null),
  startTime: TimeInputSchema.nullable().default(null),
  endTime: TimeInputSchema.nullable().default(null),
  isShow: Flag.default(true),
  changes: z.array(z.string().max(500)).max(100).default([]),
});

export const NoticeCreateSchema = NoticeFields;
export type NoticeCreate = z.infer<typeof NoticeCreateSchema>;

/** Every field optional; the service checks the merged notice as a whole. */
export const NoticeUpdateSchema = z.object({
  kind: z.enum(NOTICE_KINDS).optional(),
  title: NoticeFields.shape.title.optional(),
  content: z.string().max(NOTICE_CONTENT_MAX).optional(),
  platform: z.number().int().min(0).max(99).nullable().optional(),
  version: z.string().trim().min(1).max(32).nullable().optional(),
  startTime: TimeInputSchema.nullable().optional(),
  endTime: TimeInputSchema.nullable().optional(),
  isShow: Flag.optional(),
  changes: z.array(z.string().max(500)).max(100).optional(),
});
export type NoticeUpdate = z.infer<typeof NoticeUpdateSchema>;

export const NoticeListQuerySchema = PageQuerySchema.extend({
  kind: z.enum(NOTICE_KINDS).optional(),
  platform: z.coerce.number().int().min(0).max(99).optional(),
});
export const NoticePageSchema = pageOf(NoticeSchema);

export const NoticeUserStateSchema = z.object({ noLongerShow: Flag });
export const NoticeUserStateResultSchema = z.object({ noticeId: z.string(), userId: z.string(), noLongerShow: z.boolean() });

/** Spec §7: the user's notice query takes currentTime (epoch ms or ISO) and platform. */
export const NoticeUserQuerySchema = z.object({
  currentTime: z.string().max(40).optional(),
  platform: z.coerce.number().int().min(0).max(99).optional(),
});
export const UserNoticeListSchema = z.array(NoticeSchema);
