import { z } from 'zod';
import { COMMAND_STATES, CommandIssueSchema } from './command.ts';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * The organisation of a tenant's devices (spec §1, §3, §7): the label registry that device labels
 * refer to, and device groups with their group commands.
 */

/** Spec §3 label: id, label, description, label_value; `things_count` devices carry it. */
export const LabelSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  label_value: z.string().nullable(),
  things_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Label = z.infer<typeof LabelSchema>;

export const LabelInputSchema = z.object({
  label: z.string().trim().min(1).max(64),
  description: z.string().max(256).nullable().optional(),
  label_value: z.string().max(256).nullable().optional(),
});
export type LabelInput = z.infer<typeof LabelInputSchema>;

export const LabelQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(10000).default(20),
  keyword: z.string().max(64).optional(),
});
export const LabelPageSchema = pageOf(LabelSchema);

/** Spec §9: batch labels come 10000 at most; `ids` (comma-separated) picks some. */
export const MAX_BATCH_LABELS = 10_000;
export const LabelBatchQuerySchema = z.object({ ids: z.string().max(40_000).optional() });

/** `DELETE …/labels/{ids}`: one id or several, comma-separated. */
export const LabelIdsParamsSchema = z.object({
  tenant_id: UuidSchema,
  ids: z
    .string()
    .max(3700)
    .transform((s) => s.split(',').map((x) => x.trim()))
    .pipe(z.array(UuidSchema).min(1).max(100)),
});
export const LabelDeleteResultSchema = z.object({ deleted: z.number().int(), things_updated: z.number().int() });

/** Spec §9: groups list 100 per page. */
export const GroupSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  things_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Group = z.infer<typeof GroupSchema>;

export const GroupInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).nullable().optional(),
});
export type GroupInput = z.infer<typeof GroupInputSchema>;

export const GroupQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
  keyword: z.string().max(64).optional(),
  /** Groups this device is in. */
  things_id: UuidSchema.optional(),
});
export const GroupPageSchema = pageOf(GroupSchema);

export const GroupMemberSchema = z.object({
  things_id: z.string(),
  third_things_id: z.string(),
  name: z.string(),
  is_online: z.boolean(),
  bound_at: z.number().int(),
});
export const GroupMemberPageSchema = pageOf(GroupMemberSchema);

/** Most devices one bind or unbind call names. */
export const MAX_GROUP_BIND = 1000;
export const GroupBindSchema = z.object({ things_ids: z.array(UuidSchema).min(1).max(MAX_GROUP_BIND) });
export const GroupBindResultSchema = z.object({ things_count: z.number().int(), changed: z.number().int() });

/** Spec §7 group command: a description and a payload (operation_name, operation_params) for every member. */
export const GroupCommandIssueSchema = z.object({
  ...CommandIssueSchema.pick({ description: true, timeout_ms: true, expires_in_ms: true }).shape,
  payload: CommandIssueSchema.pick({ operation_name: true, operation_params: true }),
});
export type GroupCommandIssue = z.infer<typeof GroupCommandIssueSchema>;

/** One member's command of a group command: the state is the device command's own. */
export const GroupCommandItemSchema = z.object({
  things_id: z.string(),
  third_things_id: z.string(),
  name: z.string(),
  correlation_id: z.string(),
  state: z.enum(COMMAND_STATES),
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  answered_at: z.number().int().nullable(),
});

export const GroupCommandSchema = z.object({
  id: z.string(),
  group_id: z.string(),
  description: z.string().nullable(),
  operation_name: z.string(),
  operation_params: z.record(z.string(), z.unknown()),
  created_at: z.number().int(),
  /** Members' commands by state, e.g. `{answered: 3}`. */
  states: z.record(z.string(), z.number().int()),
  items: z.array(GroupCommandItemSchema),
});
export type GroupCommand = z.infer<typeof GroupCommandSchema>;
export const GroupCommandPageSchema = pageOf(GroupCommandSchema.omit({ items: true }));
