import { z } from 'zod';
import { PageQuerySchema, pageOf } from './common.ts';

/**
 * Data transform and export plugins (spec §7 /data-mgmt), defined as data: a JSONata expression,
 * never code (docs/decisions/0160-plugins-as-jsonata.md).
 * - A transform plugin is evaluated on a forwarded message (`id, rule_id, tenant_id, things_id,
 *   third_things_id, kind, ts, data`); its result becomes the message's `data`. A result of
 *   `undefined` (nothing) or `false` drops the message.
 * - An export plugin is evaluated on each row of a CSV export (`ts_us, time, channel, id, ext, fd,
 *   brs, esi, rtr, err, dir, dlc, data`); a string result is written as the line, any other value
 *   as its JSON, nothing skips the row.
 */
export const PLUGIN_TYPES = ['transform', 'export'] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

/** Longest expression a plugin holds, in characters. */
export const MAX_PLUGIN_EXPRESSION = 4096;
/** Longest one evaluation may run, ms (a plugin that loops is stopped with plugin.timeout). */
export const PLUGIN_TIMEOUT_MS = 100;
/** Deepest nesting of an evaluation (recursion), and longest sequence it may build. */
export const PLUGIN_MAX_DEPTH = 200;
export const PLUGIN_MAX_SEQUENCE = 100_000;
/** Largest result of one evaluation, as JSON characters. */
export const MAX_PLUGIN_OUTPUT = 1_000_000;

export const PluginInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  type: z.enum(PLUGIN_TYPES),
  expression: z.string().trim().min(1).max(MAX_PLUGIN_EXPRESSION),
  description: z.string().max(256).nullable().optional(),
  /** Export plugins: the file's first line (a CSV header …); none: no header line. */
  header: z.string().max(1024).nullable().optional(),
  /** Export plugins: the file's extension, letters and digits (default `txt`). */
  file_extension: z
    .string()
    .regex(/^[A-Za-z0-9]{1,10}$/)
    .nullable()
    .optional(),
});
export type PluginInput = z.infer<typeof PluginInputSchema>;

export const PluginSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(PLUGIN_TYPES),
  expression: z.string(),
  description: z.string().nullable(),
  header: z.string().nullable(),
  file_extension: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Plugin = z.infer<typeof PluginSchema>;

export const PluginQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  type: z.enum(PLUGIN_TYPES).optional(),
  keyword: z.string().max(64).optional(),
});
export const PluginPageSchema = pageOf(PluginSchema);

/** A test run: an expression (saved or not) evaluated on one input. */
export const PluginTestSchema = z.object({
  expression: z.string().trim().min(1).max(MAX_PLUGIN_EXPRESSION),
  input: z.unknown(),
});
export const PluginTestResultSchema = z.object({
  /** false: a transform drops the message (the result is nothing or `false`); an export skips the row. */
  kept: z.boolean(),
  /** The result; absent when nothing was produced. */
  output: z.unknown().optional(),
  elapsed_ms: z.number(),
});
