import { z } from 'zod';
import type { CodesOf } from '../errors.ts';
import { pageOf, UuidSchema } from './common.ts';

/**
 * Trigger rules (spec §3 trigger rule, §5 validation, §9 limits) and alert events (spec §3 alert
 * event, §7 alert-mgmt / alert-data-mgmt). A rule watches one device: raw CAN frames of one id on
 * one channel, one DBC signal of such a frame, or the device's GPS position against an e-fence.
 */

/** Spec §5: rule name 1-50 characters, unique in the tenant. */
export const RULE_NAME_MAX = 50;
/** Spec §9: at most 20 trigger rules per user (the package's `rule_capacity`). */
export const RULES_PER_USER = 20;
export const STANDARD_ID_MAX = 0x7ff;
export const EXTENDED_ID_MAX = 0x1fffffff;
/** Spec §9 alert frequency: e-mail / SMS / voice at most once per 30 minutes per rule and device. */
export const NOTIFY_MIN_INTERVAL_S = 1800;
/** Spec §9 alert frequency: a command at most once per minute per rule and device. */
export const COMMAND_MIN_INTERVAL_S = 60;
export const MAX_CONDITIONS = 8;
export const MAX_RECIPIENTS = 10;
/** Spec §5: CAN FD payloads go up to 64 bytes. */
export const MAX_PAYLOAD_BYTES = 64;

export type AlertCode = CodesOf<'alert'> | CodesOf<'fence'>;

export const RULE_LEVELS = ['ordinary', 'urgent'] as const;
export const RULE_DATA_TYPES = ['raw', 'signal', 'fence'] as const;
export const CONDITION_OPS = ['>', '>=', '<', '<=', '==', '!=', 'in', 'out', 'change', 'mask'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

const HEX_BYTES = /^([0-9a-fA-F]{2})*$/;

/**
 * One condition. `source` says what is read from a matching frame:
 * - `data`: `length` bytes (1-8) of the payload from `start_byte`, as an unsigned or signed integer,
 *   Intel (little-endian) or Motorola (big-endian) byte order;
 * - `length`: the payload length (the requested length for a remote frame);
 * - `signal`: a DBC signal's physical value (`message`, `signal` of the DBC bound to the channel).
 * `op` compares with `value`, checks `min..max` (`in`, or `out` of it), fires on any `change`, or
 * for `mask` compares payload bytes from `start_byte`: `(byte & mask) == (pattern & mask)`.
 */
export const ConditionSchema = z
  .object({
    source: z.enum(['data', 'length', 'signal']).default('data'),
    start_byte: z.number().int().min(0).max(63).default(0),
    length: z.number().int().min(1).max(8).default(1),
    byte_order: z.enum(['intel', 'motorola']).default('intel'),
    signed: z.boolean().default(false),
    message: z.string().min(1).max(128).optional(),
    signal: z.string().min(1).max(128).optional(),
    op: z.enum(CONDITION_OPS),
    value: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    mask: z.string().max(128).regex(HEX_BYTES, 'hex bytes').optional(),
    pattern: z.string().max(128).regex(HEX_BYTES, 'hex bytes').optional(),
  })
  .superRefine((c, ctx) => {
    const need = (field: 'value' | 'min' | 'max' | 'mask' | 'pattern' | 'message' | 'signal') => {
      if (c[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required for ${c.op}` });
    };
    if (['>', '>=', '<', '<=', '==', '!='].includes(c.op)) need('value');
    if (c.op === 'in' || c.op === 'out') {
      need('min');
      need('max');
      if (c.min !== undefined && c.max !== undefined && c.min > c.max)
        ctx.addIssue({ code: 'custom', path: ['max'], message: 'max < min' });
    }
    if (c.op === 'mask') {
      if (c.source !== 'data') ctx.addIssue({ code: 'custom', path: ['source'], message: 'mask works on payload bytes (source data)' });
      need('mask');
      need('pattern');
      if (c.mask !== undefined && c.pattern !== undefined) {
        if (c.mask.length !== c.pattern.length)
          ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'mask and pattern differ in length' });
        if (c.mask.length === 0) ctx.addIssue({ code: 'custom', path: ['mask'], message: 'mask is empty' });
        if (c.start_byte + c.mask.length / 2 > MAX_PAYLOAD_BYTES)
          ctx.addIssue({ code: 'custom', path: ['mask'], message: 'mask goes past 64 bytes' });
      }
    }
    if (c.source === 'signal') {
      need('message');
      need('signal');
    }
    if (c.source === 'data' && c.op !== 'mask' && c.start_byte + c.length > MAX_PAYLOAD_BYTES)
      ctx.addIssue({ code: 'custom', path: ['length'], message: 'bytes go past 64' });
  });
export type Condition = z.output<typeof ConditionSchema>;

/** A command sent to the device on its `down/cmd` topic (spec §3 device message envelope payload). */
export const RuleCommandSchema = z.object({
  operation_name: z.string().min(1).max(64),
  operation_params: z.record(z.string(), z.unknown()).default({}),
});

/** What a rule does when it fires (or, as `recover_action`, when its condition clears). */
export const RuleActionsSchema = z.object({
  email: z.array(z.email()).max(MAX_RECIPIENTS).default([]),
  sms: z
    .array(z.string().regex(/^\+?[0-9]{2,20}$/, 'phone number'))
    .max(MAX_RECIPIENTS)
    .default([]),
  voice: z
    .array(z.string().regex(/^\+?[0-9]{2,20}$/, 'phone number'))
    .max(MAX_RECIPIENTS)
    .default([]),
  command: RuleCommandSchema.nullable().default(null),
});
export type RuleActions = z.output<typeof RuleActionsSchema>;

/** Spec §9 frequency: intervals may be longer than the minimums, never shorter. */
export const RuleFrequencySchema = z.object({
  notify_interval_s: z.number().int().min(NOTIFY_MIN_INTERVAL_S).max(604800).default(NOTIFY_MIN_INTERVAL_S),
  command_interval_s: z.number().int().min(COMMAND_MIN_INTERVAL_S).max(604800).default(COMMAND_MIN_INTERVAL_S),
});

/** A frame id as a number or a hex string (`0x1A0` or `1A0`). */
const FrameId = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{1,8}$/, 'hex frame id')
    .transform((s) => Number.parseInt(s.replace(/^0x/i, ''), 16)),
]);

const RuleFields = z.object({
  /** Stored and returned as typed: the web shows it as text. */
  name: z
    .string()
    .min(1)
    .max(RULE_NAME_MAX)
    .refine((s) => s.trim().length > 0, 'name is blank'),
  things_id: z.uuid(),
  data_type: z.enum(RULE_DATA_TYPES).default('raw'),
  channel: z.number().int().min(0).max(15).nullable().default(null),
  frame_format: z.enum(['standard', 'extended']).default('standard'),
  frame_type: z.enum(['data', 'remote']).default('data'),
  frame_id: FrameId.nullable().default(null),
  conditions: z.array(ConditionSchema).max(MAX_CONDITIONS).default([]),
  condition_join: z.enum(['and', 'or']).default('and'),
  /** 1 enabled, 0 disabled. */
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  level: z.enum(RULE_LEVELS).default('ordinary'),
  share: z.boolean().default(false),
  description: z.string().max(500).default(''),
  alert_description: z.string().max(500).default(''),
  actions: RuleActionsSchema.default({ email: [], sms: [], voice: [], command: null }),
  frequency: RuleFrequencySchema.default({ notify_interval_s: NOTIFY_MIN_INTERVAL_S, command_interval_s: COMMAND_MIN_INTERVAL_S }),
  recover_action: RuleActionsSchema.default({ email: [], sms: [], voice: [], command: null }),
  fence_id: z.uuid().nullable().default(null),
  /** Fence rules: fire on entering (`in`) or on leaving (`out`). */
  fence_rule: z.enum(['in', 'out']).nullable().default(null),
});

/** Checks that need several fields; the service adds those that need the database. */
function refineRule(r: z.output<typeof RuleFields>, ctx: z.RefinementCtx) {
  if (r.data_type === 'fence') {
    if (!r.fence_id) ctx.addIssue({ code: 'custom', path: ['fence_id'], message: 'a fence rule needs fence_id' });
    if (!r.fence_rule) ctx.addIssue({ code: 'custom', path: ['fence_rule'], message: 'a fence rule needs fence_rule in or out' });
    return;
  }
  if (r.channel === null) ctx.addIssue({ code: 'custom', path: ['channel'], message: 'channel is required' });
  const signals = r.conditions.filter((c) => c.source === 'signal').length;
  if (r.data_type === 'raw') {
    if (signals) ctx.addIssue({ code: 'custom', path: ['conditions'], message: 'a raw frame rule has no signal condition' });
    if (r.frame_id === null) ctx.addIssue({ code: 'custom', path: ['frame_id'], message: 'frame_id is required' });
  }
  if (r.data_type === 'signal' && signals !== 1)
    ctx.addIssue({ code: 'custom', path: ['conditions'], message: 'a DBC signal rule has exactly one signal condition' });
  if (r.frame_id !== null) {
    const max = r.frame_format === 'extended' ? EXTENDED_ID_MAX : STANDARD_ID_MAX;
    if (r.frame_id > max)
      ctx.addIssue({
        code: 'custom',
        path: ['frame_id'],
        message: `frame id must be 0x0-0x${max.toString(16).toUpperCase()} for ${r.frame_format}`,
      });
  }
  if (r.conditions.length === 0) ctx.addIssue({ code: 'custom', path: ['conditions'], message: 'at least one condition' });
}

export const TriggerRuleInputSchema = RuleFields.superRefine(refineRule);
export type TriggerRuleInput = z.input<typeof TriggerRuleInputSchema>;
export type TriggerRuleValues = z.output<typeof TriggerRuleInputSchema>;

export const TriggerRuleSchema = RuleFields.extend({
  id: z.string(),
  tenant_id: z.string(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  things_name: z.string().nullable(),
  frame_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TriggerRule = z.infer<typeof TriggerRuleSchema>;
export const TriggerRulePageSchema = pageOf(TriggerRuleSchema);

export const TriggerRuleQuerySchema = z.object({
  things_id: z.uuid().optional(),
  name: z.string().max(RULE_NAME_MAX).optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  data_type: z.enum(RULE_DATA_TYPES).optional(),
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const RuleStatusParamSchema = z.object({
  tenant_id: UuidSchema,
  id: UuidSchema,
  status: z.enum(['0', '1', 'enable', 'disable']).transform((s) => (s === '1' || s === 'enable' ? 1 : 0)),
});

/** Export file: the rules as they would be created again (no ids). */
export const TriggerRuleExportSchema = z.object({
  version: z.literal(1),
  exported_at: z.string(),
  rules: z.array(RuleFields),
});
export const TriggerRuleExportQuerySchema = z.object({
  things_id: z.uuid().optional(),
  /** Comma-separated rule ids; all visible rules when absent. */
  ids: z.string().max(4000).optional(),
});

/** Import: rules of an export file, optionally all re-targeted to one device. */
export const TriggerRuleImportSchema = z.object({
  things_id: z.uuid().optional(),
  rules: z.array(z.record(z.string(), z.unknown())).min(1).max(100),
});
export const TriggerRuleImportResultSchema = z.object({
  imported: z.number().int(),
  failed: z.number().int(),
  results: z.array(
    z.object({
      index: z.number().int(),
      name: z.string().nullable(),
      ok: z.boolean(),
      id: z.string().optional(),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});
export type TriggerRuleImportResult = z.infer<typeof TriggerRuleImportResultSchema>;

/** 0 unhandled, 1 being handled, 2 handled, 3 ignored. */
export const HANDLER_STATUSES = [0, 1, 2, 3] as const;

export const AlertEventSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  rule_id: z.string().nullable(),
  rule_name: z.string(),
  things_id: z.string(),
  things_name: z.string().nullable(),
  level: z.enum(RULE_LEVELS),
  /** `trigger` (CAN frames or signal) or `fence`. */
  source_type: z.enum(['trigger', 'fence']),
  event_data: z.record(z.string(), z.unknown()),
  handler: z.string().nullable(),
  handler_status: z.number().int(),
  handler_description: z.string().nullable(),
  handled_at: z.string().nullable(),
  created_at: z.string(),
  recovered_at: z.string().nullable(),
});
export type AlertEvent = z.infer<typeof AlertEventSchema>;
export const AlertEventPageSchema = pageOf(AlertEventSchema);

export const AlertEventQuerySchema = z.object({
  begin_time: z.coerce.number().int().min(0).optional(),
  end_time: z.coerce.number().int().min(0).optional(),
  things_id: z.uuid().optional(),
  rule_id: z.uuid().optional(),
  level: z.enum(RULE_LEVELS).optional(),
  handler_status: z.coerce.number().int().min(0).max(3).optional(),
  source_type: z.enum(['trigger', 'fence']).optional(),
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
});
export type AlertEventQuery = z.infer<typeof AlertEventQuerySchema>;

export const AlertEventHandleSchema = z.object({
  /** Who handles it; the caller's name when absent. */
  handler: z.string().min(1).max(64).optional(),
  handler_status: z.number().int().min(0).max(3),
  handler_description: z.string().max(500).default(''),
});
export type AlertEventHandle = z.input<typeof AlertEventHandleSchema>;
