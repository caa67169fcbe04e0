import { z } from 'zod';
import { CommandSchema } from './command.ts';

/** Spec §9: batch recall at most 50 (and at most the package's max_batch_recall_size). */
export const MAX_BATCH_RECALL = 50;

/** Spec §3 recall file entry: name, size, time. */
export const RecallFileEntrySchema = z.object({ name: z.string(), size: z.number().int(), time: z.number().int().nullable() });
export type RecallFileEntry = z.infer<typeof RecallFileEntrySchema>;

export const RecallListRequestSchema = z.object({
  page_size: z.number().int().min(1).max(1000).default(100),
  current_page: z.number().int().min(1).default(1),
  filter: z
    .object({ starttime: z.number().int().min(0).optional(), endtime: z.number().int().min(0).optional() })
    .refine((f) => f.starttime === undefined || f.endtime === undefined || f.starttime <= f.endtime, {
      message: 'endtime must not be before starttime',
      path: ['endtime'],
    })
    .default({}),
});

export const RecallListResultSchema = z.object({
  command: CommandSchema,
  /** null until the device answered; a code of the error registry (`recall.*`) otherwise when it did not. */
  code: z.string().nullable(),
  total: z.number().int().nullable(),
  list: z.array(RecallFileEntrySchema),
});

export const RecallFileRequestSchema = z.object({
  filename: z.string().min(1).max(255),
  /** Size from the list: 0 refuses (spec §5). */
  size: z.number().int().min(0).optional(),
  time: z.number().int().optional(),
});
export const RecallBatchRequestSchema = z.object({
  files: z.array(RecallFileRequestSchema).min(1).max(MAX_BATCH_RECALL),
});
export const RecallDeleteRequestSchema = z.object({
  filter: z.object({ name: z.string().min(1).max(255) }),
  size: z.number().int().min(0).optional(),
});

export const RECALL_STATES = ['sending', 'device', 'fetching', 'done', 'failed', 'cancelled', 'timeout'] as const;
export const RecallTaskSchema = z.object({
  id: z.string(),
  things_id: z.string(),
  batch_id: z.string().nullable(),
  filename: z.string(),
  state: z.enum(RECALL_STATES),
  code: z.string().nullable(),
  message: z.string().nullable(),
  size: z.number().int().nullable(),
  received: z.number().int(),
  /** 0-100 */
  process_rate: z.number(),
  correlation_id: z.string().nullable(),
  /** Download URL once done (spec: "URL obtained"). */
  url: z.string().nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
export type RecallTask = z.infer<typeof RecallTaskSchema>;

export const RecalledFileSchema = z.object({
  name: z.string(),
  things_id: z.string(),
  filename: z.string(),
  size: z.number().int(),
  time: z.number().int().nullable(),
  sha256: z.string(),
  stored_at: z.number().int(),
});
