import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Edge-computing rules (spec §7 /alert-mgmt "edge-computing rules and issuance history"): a rule
 * authored in the console runs on the device, before upload, on one numeric status property of an
 * info model; it is issued to devices (or a group) as a command and each device's acceptance is kept.
 */

/** `filter`: upload the property only when it moved by more than `threshold` since the last upload. `aggregate`: upload `function` of its values over `window_s` seconds instead of each value. */
export const EDGE_RULE_KINDS = ['filter', 'aggregate'] as const;
export type EdgeRuleKind = (typeof EDGE_RULE_KINDS)[number];
export const EDGE_AGGREGATES = ['mean', 'min', 'max'] as const;
export type EdgeAggregate = (typeof EDGE_AGGREGATES)[number];

/** The operation a rule travels in (docs/device-protocol.md). */
export const EDGE_RULE_OPERATION = 'edge.set_rule';
/** A device answers a rule within this unless the issuer says otherwise. */
export const EDGE_RULE_TIMEOUT_MS = 10_000;

const EdgeRuleFields = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(256).default(''),
  /** The info model whose devices run it; `field` is one of its numeric status properties. */
  info_model_id: UuidSchema,
  kind: z.enum(EDGE_RULE_KINDS),
  /** `block.identifier` of a numeric status property. */
  field: z.string().min(3).max(130),
  threshold: z.number().positive().max(1e12).nullable().optional(),
  function: z.enum(EDGE_AGGREGATES).nullable().optional(),
  window_s: z.number().int().min(1).max(86_400).nullable().optional(),
});

export const EdgeRuleInputSchema = EdgeRuleFields.superRefine((v, ctx) => {
  if (v.kind === 'filter' && (v.threshold === undefined || v.threshold === null))
    ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'a filter needs a threshold' });
  if (v.kind === 'aggregate') {
    if (!v.function) ctx.addIssue({ code: 'custom', path: ['function'], message: 'an aggregate needs a function' });
    if (!v.window_s) ctx.addIssue({ code: 'custom', path: ['window_s'], message: 'an aggregate needs a window' });
  }
});
export type EdgeRuleInput = z.input<typeof EdgeRuleInputSchema>;

export const EdgeRuleSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string(),
  info_model_id: z.string(),
  kind: z.enum(EDGE_RULE_KINDS),
  field: z.string(),
  threshold: z.number().nullable(),
  function: z.enum(EDGE_AGGREGATES).nullable(),
  window_s: z.number().int().nullable(),
  /** Counted up on each change; a device keeps the newest version of each rule. */
  version: z.number().int(),
  /** Devices it was issued to (each device once, its latest issuance). */
  issued: z.number().int(),
  accepted: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type EdgeRule = z.infer<typeof EdgeRuleSchema>;

export const EdgeRuleQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  keyword: z.string().max(64).optional(),
});
export const EdgeRulePageSchema = pageOf(EdgeRuleSchema);

/** What the device receives in `operation_params` of `edge.set_rule`. */
export interface EdgeRuleOnDevice {
  id: string;
  version: number;
  name: string;
  kind: EdgeRuleKind;
  field: string;
  threshold?: number;
  function?: EdgeAggregate;
  window_s?: number;
}

/** Issue to devices, to the members of a group (of the rule's model), or both. */
export const EdgeIssueSchema = z
  .object({
    things_ids: z.array(UuidSchema).max(1000).default([]),
    group_id: UuidSchema.optional(),
    /** How long each device has to answer, 1-60 s (10 s by default). */
    timeout_ms: z.number().int().min(1000).max(60_000).optional(),
  })
  .refine((v) => v.things_ids.length > 0 || v.group_id, { message: 'things_ids or group_id', path: ['things_ids'] });
export type EdgeIssue = z.input<typeof EdgeIssueSchema>;

/** Where an issuance is: sent and waiting (`issued`), taken by the device, refused by it, or unanswered. */
export const EDGE_ISSUANCE_STATES = ['issued', 'accepted', 'rejected', 'timeout', 'cancelled'] as const;
export type EdgeIssuanceState = (typeof EDGE_ISSUANCE_STATES)[number];

export const EdgeIssuanceSchema = z.object({
  id: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  rule_version: z.number().int(),
  things_id: z.string(),
  things_name: z.string(),
  third_things_id: z.string(),
  group_id: z.string().nullable(),
  correlation_id: z.string(),
  state: z.enum(EDGE_ISSUANCE_STATES),
  /** The command's own state (queued, sent, delivered, answered…): `issued` splits into these. */
  command_state: z.string(),
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  issued_at: z.number().int(),
  answered_at: z.number().int().nullable(),
});
export type EdgeIssuance = z.infer<typeof EdgeIssuanceSchema>;

export const EdgeIssueResultSchema = z.object({ issued: z.number().int(), list: z.array(EdgeIssuanceSchema) });

export const EdgeIssuanceQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(1000).default(20),
  rule_id: UuidSchema.optional(),
  things_id: UuidSchema.optional(),
  state: z.enum(EDGE_ISSUANCE_STATES).optional(),
});
export const EdgeIssuancePageSchema = pageOf(EdgeIssuanceSchema);
