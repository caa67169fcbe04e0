import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';
import { ValueTypeSchema } from './models.ts';

/**
 * Mapping rules (spec §7 /mapping-mgmt `mapping-rule-infos`): how a device's raw uplink — the keys of
 * its free-form JSON telemetry, or the names of its decoded CAN signals — lands on the status
 * properties of its info model, renamed, scaled and offset. Applied at ingest to the twin's reported state.
 */

/** `json`: keys of free-form `up/telemetry` (a dotted key reaches into nested objects); `can`: decoded signal names. */
export const MAPPING_SOURCES = ['json', 'can'] as const;
export type MappingSource = (typeof MAPPING_SOURCES)[number];

// ---- entities: the raw shapes rules map from

/** One raw key of an entity: a JSON telemetry key (dotted for nested objects) or a CAN signal name. */
export const EntityFieldSchema = z.object({
  key: z.string().trim().min(1).max(128),
  name: z.string().max(64).default(''),
  data_type: ValueTypeSchema.default(1),
  unit: z.string().max(32).default(''),
});
export type EntityField = z.infer<typeof EntityFieldSchema>;

/**
 * An entity (spec §7 /mapping-mgmt entities): the raw uplink of a kind of device as it comes — its keys
 * or signal names with their types and units — that mapping rules take their source keys from.
 */
export const MappingEntityInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).default(''),
  source: z.enum(MAPPING_SOURCES).default('json'),
  fields: z.array(EntityFieldSchema).min(1).max(500),
});
export type MappingEntityInput = z.input<typeof MappingEntityInputSchema>;

export const MappingEntitySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.enum(MAPPING_SOURCES),
  fields: z.array(EntityFieldSchema),
  /** Mapping rules that take their keys from it. */
  rules_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type MappingEntity = z.infer<typeof MappingEntitySchema>;

/** Spec §1: entities list 100 to a page by default. */
export const MappingEntityQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
  keyword: z.string().max(64).optional(),
});
export const MappingEntityPageSchema = pageOf(MappingEntitySchema);

// ---- mapping rules

export const MappingItemSchema = z.object({
  /** The raw key or signal name. */
  source_key: z.string().trim().min(1).max(128),
  /** `block.identifier` of a status property of the rule's model. */
  target: z.string().min(3).max(130),
  /** reported = raw × scale + offset (numbers only; a rename keeps 1 and 0). */
  scale: z.number().finite().default(1),
  offset: z.number().finite().default(0),
  /** The raw value's unit, for people reading the rule. */
  unit: z.string().max(32).default(''),
});
export type MappingItem = z.infer<typeof MappingItemSchema>;

export const MappingRuleInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).default(''),
  info_model_id: UuidSchema,
  source: z.enum(MAPPING_SOURCES).default('json'),
  /** The entity its source keys come from (then every key must be one of the entity's, of the same source). */
  entity_id: UuidSchema.nullable().default(null),
  /** 1 applied at ingest, 0 kept but not applied. */
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  mappings: z.array(MappingItemSchema).min(1).max(200),
});
export type MappingRuleInput = z.input<typeof MappingRuleInputSchema>;

export const MappingRuleSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string(),
  info_model_id: z.string(),
  source: z.enum(MAPPING_SOURCES),
  entity_id: z.string().nullable(),
  status: z.number().int(),
  mappings: z.array(MappingItemSchema),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type MappingRule = z.infer<typeof MappingRuleSchema>;

export const MappingRuleQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  keyword: z.string().max(64).optional(),
  info_model_id: UuidSchema.optional(),
});
export const MappingRulePageSchema = pageOf(MappingRuleSchema);
