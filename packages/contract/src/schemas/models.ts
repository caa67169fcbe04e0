import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Info models and their function blocks (spec §3, §7 /mapping-mgmt). A function block's json_schema
 * holds events, status (the properties a device reports), operations (commands) and configuration;
 * an info model is a device type made of function blocks (decision 0123).
 */

/** Spec §3 value type codes: int/long/float/double 1, string 2, array 4, object 5, boolean 7. */
export const VALUE_TYPES = { number: 1, string: 2, array: 4, object: 5, boolean: 7 } as const;
export const ValueTypeSchema = z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(5), z.literal(7)]);
export type ValueType = z.infer<typeof ValueTypeSchema>;

/** Whether `v` is a value of type `t` (a number for 1, a string for 2 …). */
export function isValueOfType(t: ValueType, v: unknown): boolean {
  switch (t) {
    case 1:
      return typeof v === 'number' && Number.isFinite(v);
    case 2:
      return typeof v === 'string';
    case 4:
      return Array.isArray(v);
    case 5:
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 7:
      return typeof v === 'boolean';
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const IdentifierSchema = z.string().regex(IDENT, 'letters, digits and _; not starting with a digit; at most 64');

/** Spec §3: i18n en_US / zh_CN of a name. */
export const I18nSchema = z.object({ en_US: z.string().max(128).optional(), zh_CN: z.string().max(128).optional() });

export const FnPropertySchema = z
  .object({
    identifier: IdentifierSchema,
    name: z.string().trim().min(1).max(64),
    data_type: ValueTypeSchema,
    read_only: z.boolean().default(false),
    required: z.boolean().default(false),
    default_value: z.unknown().optional(),
    description: z.string().max(256).default(''),
    i18n: I18nSchema.default({}),
  })
  .superRefine((p, ctx) => {
    if (p.default_value !== undefined && p.default_value !== null && !isValueOfType(p.data_type, p.default_value))
      ctx.addIssue({ code: 'custom', path: ['default_value'], message: `default_value is not of data_type ${p.data_type}` });
  });
export type FnProperty = z.infer<typeof FnPropertySchema>;

export const FN_EVENT_TYPES = ['data', 'log', 'status'] as const;
export const FnEventSchema = z.object({
  identifier: IdentifierSchema,
  name: z.string().trim().min(1).max(64),
  type: z.enum(FN_EVENT_TYPES),
  description: z.string().max(256).default(''),
  properties: z.array(FnPropertySchema).max(100).default([]),
  i18n: I18nSchema.default({}),
});
export type FnEvent = z.infer<typeof FnEventSchema>;

export const FnOperationSchema = z.object({
  identifier: IdentifierSchema,
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).default(''),
  params: z.array(FnPropertySchema).max(100).default([]),
  i18n: I18nSchema.default({}),
});
export type FnOperation = z.infer<typeof FnOperationSchema>;

function uniqueIdentifiers(list: { identifier: string }[], path: string, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  list.forEach((x, i) => {
    if (seen.has(x.identifier))
      ctx.addIssue({ code: 'custom', path: [path, i, 'identifier'], message: `identifier ${x.identifier} given twice` });
    seen.add(x.identifier);
  });
}

/** A function block's json_schema; identifiers are unique within each section. */
export const FnJsonSchemaSchema = z
  .object({
    events: z.array(FnEventSchema).max(100).default([]),
    status: z.array(FnPropertySchema).max(200).default([]),
    operations: z.array(FnOperationSchema).max(100).default([]),
    configuration: z.array(FnPropertySchema).max(200).default([]),
  })
  .superRefine((s, ctx) => {
    uniqueIdentifiers(s.events, 'events', ctx);
    uniqueIdentifiers(s.status, 'status', ctx);
    uniqueIdentifiers(s.operations, 'operations', ctx);
    uniqueIdentifiers(s.configuration, 'configuration', ctx);
    s.operations.forEach((o, i) => {
      uniqueIdentifiers(o.params, `operations.${i}.params`, ctx);
    });
    s.events.forEach((e, i) => {
      uniqueIdentifiers(e.properties, `events.${i}.properties`, ctx);
    });
  });
export type FnJsonSchema = z.infer<typeof FnJsonSchemaSchema>;

/** What "json-schema initialisation" answers: an empty schema of every section. */
export const EMPTY_FN_JSON_SCHEMA: FnJsonSchema = { events: [], status: [], operations: [], configuration: [] };

/** Spec §3 function block: id, name, display_name, description, json_schema. */
export const FunctionBlockSchema = z.object({
  id: z.string(),
  tenant_id: z.string().nullable(),
  public: z.boolean(),
  name: z.string(),
  display_name: z.string(),
  description: z.string(),
  json_schema: FnJsonSchemaSchema,
  /** Info models that use it (of the caller's tenant, and public ones). */
  models_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type FunctionBlock = z.infer<typeof FunctionBlockSchema>;

export const FunctionBlockInputSchema = z.object({
  name: IdentifierSchema,
  display_name: z.string().trim().min(1).max(64),
  description: z.string().max(256).default(''),
  json_schema: FnJsonSchemaSchema.default(EMPTY_FN_JSON_SCHEMA),
});
export type FunctionBlockInput = z.input<typeof FunctionBlockInputSchema>;

/** Spec §9: function blocks 20 per page, public ones 10. */
export const FunctionBlockQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  keyword: z.string().max(64).optional(),
});
export const PublicFunctionBlockQuerySchema = FunctionBlockQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(10),
});
export const FunctionBlockPageSchema = pageOf(FunctionBlockSchema);

/** Category of info models with its template: the function blocks a new model of it starts with. */
export const ModelCategorySchema = z.object({
  id: z.string(),
  tenant_id: z.string().nullable(),
  public: z.boolean(),
  name: z.string(),
  description: z.string(),
  template: z.object({ fn_block_ids: z.array(z.string()) }),
  created_at: z.number().int(),
});
export type ModelCategory = z.infer<typeof ModelCategorySchema>;
export const ModelCategoryInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).default(''),
  template: z.object({ fn_block_ids: z.array(UuidSchema).max(50).default([]) }).default({ fn_block_ids: [] }),
});
export type ModelCategoryInput = z.input<typeof ModelCategoryInputSchema>;

export const InfoModelFnBlockSchema = z.object({
  fn_block_id: z.string(),
  name: z.string(),
  display_name: z.string(),
  public: z.boolean(),
});

/** Spec §3 info model: id, name, display_name, description, category_id, thing_type, info_model_fn_blocks, things_number. */
export const InfoModelSchema = z.object({
  id: z.string(),
  tenant_id: z.string().nullable(),
  public: z.boolean(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  category_id: z.string().nullable(),
  /** 0 CAN logger, 1 plain IoT device (JSON telemetry). */
  thing_type: z.number().int(),
  can_channels: z.number().int(),
  info_model_fn_blocks: z.array(InfoModelFnBlockSchema),
  /** Devices of the caller's tenant of this model. */
  things_number: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type InfoModel = z.infer<typeof InfoModelSchema>;

export const InfoModelInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  display_name: z.string().max(64).nullable().optional(),
  description: z.string().max(256).nullable().optional(),
  category_id: UuidSchema.nullable().optional(),
  thing_type: z.number().int().min(0).max(1).default(1),
  can_channels: z.number().int().min(0).max(16).default(0),
  /** Function block ids in order; left out on create: the category's template. */
  info_model_fn_blocks: z.array(UuidSchema).max(50).optional(),
});
export type InfoModelInput = z.input<typeof InfoModelInputSchema>;

/** Spec §9: info models 100 per page. */
export const InfoModelQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
  keyword: z.string().max(64).optional(),
  category_id: UuidSchema.optional(),
});
export const InfoModelPageSchema = pageOf(InfoModelSchema);
/** Models by ids or names (comma-separated), the tenant's and public ones. */
export const InfoModelBatchQuerySchema = z.object({ ids: z.string().max(20_000).optional(), names: z.string().max(20_000).optional() });
export const InfoModelDeleteQuerySchema = z.object({
  force: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});
export const PublicToTenantSchema = z.object({ info_model_id: UuidSchema, name: z.string().trim().min(1).max(64).optional() });
