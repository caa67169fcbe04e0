import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';
import { EXPORT_FORMATS } from './data.ts';

/**
 * Download templates and clean tasks (spec §7 /data-mgmt; docs/decisions/0161-templates-and-clean-tasks.md).
 * A template is a saved export (devices, channels, ids, format, optional export plugin, range); running
 * it starts the same export per device. A clean task deletes a device's data older than N days.
 */

/** Devices one template exports at most (one export each per run). */
export const MAX_TEMPLATE_DEVICES = 50;
/** Rows one run of a clean task deletes at most (spec §9: delete history limited to 1 million rows). */
export const CLEAN_TASK_MAX_ROWS = 1_000_000;

export const DownloadTemplateInputSchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    things_ids: z.array(UuidSchema).min(1).max(MAX_TEMPLATE_DEVICES),
    format: z.enum(EXPORT_FORMATS),
    channels: z.array(z.number().int().min(0).max(255)).max(64).optional(),
    ids: z.array(z.number().int().min(0).max(0x1fffffff)).max(64).optional(),
    plugin_id: UuidSchema.nullable().optional(),
    /** A fixed range (ms) … */
    begin_time: z.number().int().min(0).nullable().optional(),
    end_time: z.number().int().min(0).nullable().optional(),
    /** … or the last so many hours before the run. */
    last_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 366)
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    const fixed = v.begin_time != null && v.end_time != null;
    if (!fixed && !v.last_hours)
      ctx.addIssue({ code: 'custom', path: ['last_hours'], message: 'a range is required: begin_time and end_time, or last_hours' });
    if (fixed && (v.end_time as number) <= (v.begin_time as number))
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'end_time must be after begin_time' });
  });
export type DownloadTemplateInput = z.infer<typeof DownloadTemplateInputSchema>;

export const DownloadTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  things_ids: z.array(z.string()),
  format: z.enum(EXPORT_FORMATS),
  channels: z.array(z.number().int()),
  ids: z.array(z.number().int()),
  plugin_id: z.string().nullable(),
  begin_time: z.number().int().nullable(),
  end_time: z.number().int().nullable(),
  last_hours: z.number().int().nullable(),
  last_run_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type DownloadTemplate = z.infer<typeof DownloadTemplateSchema>;
export const DownloadTemplatePageSchema = pageOf(DownloadTemplateSchema);
export const DataServiceQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
});

/** A run may set the range for this once (ms); otherwise the template's. */
export const DownloadTemplateRunSchema = z.object({
  begin_time: z.number().int().min(0).optional(),
  end_time: z.number().int().min(0).optional(),
});
/** The exports a run started, one per device: follow each with the device's download routes. */
export const DownloadTemplateRunResultSchema = z.object({
  begin_time: z.number().int(),
  end_time: z.number().int(),
  downloads: z.array(z.object({ things_id: z.string(), id: z.string() })),
});

export const CleanTaskInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  things_id: UuidSchema,
  /** Data older than this many days is deleted. */
  keep_days: z.number().int().min(1).max(3650),
});
export type CleanTaskInput = z.infer<typeof CleanTaskInputSchema>;

export const CleanTaskSchema = z.object({
  id: z.string(),
  name: z.string(),
  things_id: z.string(),
  things_name: z.string().nullable(),
  keep_days: z.number().int(),
  /** 1 enabled (run daily), 0 disabled. */
  status: z.number().int(),
  last_run_at: z.number().int().nullable(),
  /** Rows (frames and GPS fixes) the last run deleted. */
  last_deleted: z.number().int().nullable(),
  /** The last run stopped at the row limit: older data is left for the next run. */
  last_limited: z.boolean(),
  last_error: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type CleanTask = z.infer<typeof CleanTaskSchema>;
export const CleanTaskPageSchema = pageOf(CleanTaskSchema);
export const CleanTaskRunResultSchema = z.object({
  frames: z.number().int(),
  /** Decoded signal samples. */
  samples: z.number().int(),
  gps: z.number().int(),
  /** Digital-twin events. */
  events: z.number().int(),
  /** Reported values of model properties (their history). */
  properties: z.number().int(),
  /** Rows deleted in all. */
  deleted: z.number().int(),
  /** true when the run stopped at `CLEAN_TASK_MAX_ROWS`. */
  limited: z.boolean(),
  /** Everything before this (ms) was meant to go. */
  cutoff: z.number().int(),
});
