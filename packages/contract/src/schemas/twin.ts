import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';
import { I18nSchema, ValueTypeSchema } from './models.ts';

/**
 * A device's digital twin (spec §3 digital_twin_things_status, §7 digital-twin-things): the reported
 * state (last value per property, `block.identifier`), the desired state set from the console or the
 * API, their difference (delta) and the device's acknowledgement.
 */

/** A status property of the device's model, as the twin lists it. */
export const TwinPropertySchema = z.object({
  path: z.string(),
  block: z.string(),
  identifier: z.string(),
  name: z.string(),
  data_type: ValueTypeSchema,
  read_only: z.boolean(),
  description: z.string(),
  i18n: I18nSchema,
});
export type TwinProperty = z.infer<typeof TwinPropertySchema>;

export const ReportedValueSchema = z.object({ value: z.unknown(), ts: z.number().int() });

export const TwinSchema = z.object({
  things_id: z.string(),
  info_model_id: z.string(),
  properties: z.array(TwinPropertySchema),
  reported: z.record(z.string(), ReportedValueSchema),
  desired: z.record(z.string(), z.unknown()),
  /** Desired values the device does not report yet. */
  delta: z.record(z.string(), z.unknown()),
  desired_version: z.number().int(),
  desired_at: z.number().int().nullable(),
  acked_version: z.number().int(),
  ack_code: z.number().int().nullable(),
  ack_message: z.string().nullable(),
  acked_at: z.number().int().nullable(),
  reported_at: z.number().int().nullable(),
});
export type Twin = z.infer<typeof TwinSchema>;

/** `PUT …/digital-twin/desired`: values by `block.identifier`; null takes a desired value away. */
export const TwinDesiredInputSchema = z.object({
  desired: z
    .record(z.string().max(130), z.unknown())
    .refine((d) => Object.keys(d).length > 0 && Object.keys(d).length <= 200, '1-200 values'),
});

/** `GET …/digital-twin/history`: one property's reported values in a time range, newest `limit`. */
export const PropertyHistoryQuerySchema = z.object({
  /** `block.identifier` */
  property: z.string().min(3).max(130),
  /** ms since the epoch; default: 24 hours before `end_time` */
  start_time: z.coerce.number().int().min(0).optional(),
  /** ms since the epoch; default: now */
  end_time: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});
/** Oldest first; `truncated` when the range held more than `limit` values (the newest are given). */
export const PropertyHistorySchema = z.object({
  property: z.string(),
  list: z.array(z.object({ ts: z.number().int(), value: z.unknown() })),
  truncated: z.boolean(),
});
export type PropertyHistory = z.infer<typeof PropertyHistorySchema>;

export const ModelEventSchema = z.object({
  id: z.string(),
  block: z.string(),
  event: z.string(),
  event_type: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  ts: z.number().int(),
});
export const ModelEventQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
});
export const ModelEventPageSchema = pageOf(ModelEventSchema);

// ---- twin rules

export const TWIN_RULE_OPS = ['=', '!=', '>', '>=', '<', '<=', 'contains'] as const;
export const TwinConditionSchema = z.object({
  /** `block.identifier` of a status property. */
  field: z.string().min(3).max(130),
  op: z.enum(TWIN_RULE_OPS),
  value: z.string().max(256),
  value_type: ValueTypeSchema,
  /** How this condition joins the ones before it (the first one's is ignored). */
  join: z.enum(['and', 'or']).default('and'),
});
export type TwinCondition = z.infer<typeof TwinConditionSchema>;

export const TwinActionSchema = z.discriminatedUnion('type', [
  /** Sets desired values of the device (pushed to it as any desired change). */
  z.object({ id: z.string().max(64).optional(), type: z.literal('desired'), values: z.record(z.string(), z.unknown()) }),
  /** Writes an event `twin_rule` (block `rules`) to the device's model event log. */
  z.object({ id: z.string().max(64).optional(), type: z.literal('event'), message: z.string().max(256).default('') }),
]);
export type TwinAction = z.infer<typeof TwinActionSchema>;

export const TwinRuleInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  shadow_type: z.literal('reported').default('reported'),
  trigger_condition: z.array(TwinConditionSchema).min(1).max(20),
  trigger_filter: z.object({ info_model_id: UuidSchema.optional(), things_ids: z.array(UuidSchema).max(1000).optional() }).default({}),
  actions: z.array(TwinActionSchema).max(20).default([]),
});
export type TwinRuleInput = z.input<typeof TwinRuleInputSchema>;

export const TwinRuleSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  status: z.number().int(),
  shadow_type: z.string(),
  trigger_condition: z.array(TwinConditionSchema),
  trigger_filter: z.object({ info_model_id: z.string().optional(), things_ids: z.array(z.string()).optional() }),
  actions: z.array(TwinActionSchema),
  fires: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type TwinRule = z.infer<typeof TwinRuleSchema>;

export const TwinRuleQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  keyword: z.string().max(64).optional(),
});
export const TwinRulePageSchema = pageOf(TwinRuleSchema);

export const TwinRuleFireSchema = z.object({
  id: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  things_id: z.string(),
  values: z.record(z.string(), z.unknown()),
  actions: z.array(z.unknown()),
  fired_at: z.number().int(),
});
export const TwinRuleFireQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  rule_id: UuidSchema.optional(),
  things_id: UuidSchema.optional(),
});
export const TwinRuleFirePageSchema = pageOf(TwinRuleFireSchema);
/** The spec's "tree save": the rule (created when it has no id, else updated), then one action added or updated. */
export const TwinRuleTreeSaveSchema = z.object({
  id: UuidSchema.optional(),
  rule: TwinRuleInputSchema.omit({ actions: true }),
  action: TwinActionSchema.optional(),
});
