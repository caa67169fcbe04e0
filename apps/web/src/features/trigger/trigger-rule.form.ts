import type { Condition, ConditionOp, TriggerRule, TriggerRuleInput } from '@loggerhead/contract/schemas/alert.ts';
import { parseFrameId } from './trigger-rule.logic.ts';

/** Spec §9 alert frequency minimums, in minutes as the form shows them. */
export const NOTIFY_MIN_MINUTES = 30;
export const COMMAND_MIN_MINUTES = 1;
export const MAX_CONDITIONS = 8;

export interface ConditionForm {
  source: 'data' | 'length' | 'signal';
  op: ConditionOp;
  start_byte?: number;
  length?: number;
  byte_order?: 'intel' | 'motorola';
  signed?: boolean;
  message?: string;
  signal?: string;
  value?: number;
  min?: number;
  max?: number;
  mask?: string;
  pattern?: string;
}

export interface ActionsForm {
  email: string[];
  sms: string[];
  voice: string[];
  command_name?: string;
  /** JSON object text. */
  command_params?: string;
}

export interface RuleForm {
  name: string;
  data_type: 'raw' | 'signal' | 'fence';
  channel?: number;
  frame_format: 'standard' | 'extended';
  frame_type: 'data' | 'remote';
  frame_id?: string;
  conditions: ConditionForm[];
  condition_join: 'and' | 'or';
  enabled: boolean;
  level: 'ordinary' | 'urgent';
  share: boolean;
  description?: string;
  alert_description?: string;
  actions: ActionsForm;
  recover: ActionsForm;
  notify_minutes: number;
  command_minutes: number;
  fence_id?: string;
  fence_rule?: 'in' | 'out';
}

const emptyActions = (): ActionsForm => ({ email: [], sms: [], voice: [] });

export function newRuleForm(): RuleForm {
  return {
    name: '',
    data_type: 'raw',
    channel: 0,
    frame_format: 'standard',
    frame_type: 'data',
    conditions: [{ source: 'data', op: '>', start_byte: 0, length: 1, byte_order: 'intel', signed: false }],
    condition_join: 'and',
    enabled: true,
    level: 'ordinary',
    share: false,
    actions: emptyActions(),
    recover: emptyActions(),
    notify_minutes: NOTIFY_MIN_MINUTES,
    command_minutes: COMMAND_MIN_MINUTES,
  };
}

function actionsToForm(a: TriggerRule['actions']): ActionsForm {
  return {
    email: a.email,
    sms: a.sms,
    voice: a.voice,
    command_name: a.command?.operation_name,
    command_params: a.command ? JSON.stringify(a.command.operation_params) : undefined,
  };
}

/** Command parameters as typed: a JSON object, or null when the text is not one. */
export function parseParams(text: string | undefined): Record<string, unknown> | null {
  if (!text?.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function actionsFromForm(a: ActionsForm): NonNullable<TriggerRuleInput['actions']> {
  const name = a.command_name?.trim();
  return {
    email: a.email ?? [],
    sms: a.sms ?? [],
    voice: a.voice ?? [],
    command: name ? { operation_name: name, operation_params: parseParams(a.command_params) ?? {} } : null,
  };
}

export function ruleToForm(r: TriggerRule): RuleForm {
  return {
    name: r.name,
    data_type: r.data_type,
    channel: r.channel ?? undefined,
    frame_format: r.frame_format,
    frame_type: r.frame_type,
    frame_id: r.frame_id === null ? undefined : r.frame_id.toString(16).toUpperCase(),
    conditions: r.conditions.map((c) => ({ ...c })),
    condition_join: r.condition_join,
    enabled: r.status === 1,
    level: r.level,
    share: r.share,
    description: r.description,
    alert_description: r.alert_description,
    actions: actionsToForm(r.actions),
    recover: actionsToForm(r.recover_action),
    notify_minutes: Math.round(r.frequency.notify_interval_s / 60),
    command_minutes: Math.round(r.frequency.command_interval_s / 60),
    fence_id: r.fence_id ?? undefined,
    fence_rule: r.fence_rule ?? undefined,
  };
}

/** Only the fields each condition kind uses are sent (the server checks the rest). */
function conditionFromForm(c: ConditionForm): Condition {
  const out: Partial<Condition> & Pick<Condition, 'source' | 'op'> = { source: c.source, op: c.op };
  if (c.source === 'data') {
    out.start_byte = c.start_byte ?? 0;
    out.length = c.length ?? 1;
    out.byte_order = c.byte_order ?? 'intel';
    out.signed = c.signed ?? false;
  }
  if (c.source === 'signal') {
    out.message = c.message?.trim();
    out.signal = c.signal?.trim();
  }
  if (['>', '>=', '<', '<=', '==', '!='].includes(c.op)) out.value = c.value;
  if (c.op === 'in' || c.op === 'out') {
    out.min = c.min;
    out.max = c.max;
  }
  if (c.op === 'mask') {
    out.mask = c.mask?.replace(/\s+/g, '');
    out.pattern = c.pattern?.replace(/\s+/g, '');
  }
  return out as Condition;
}

export function formToInput(f: RuleForm, thingsId: string): TriggerRuleInput {
  const fence = f.data_type === 'fence';
  return {
    name: f.name,
    things_id: thingsId,
    data_type: f.data_type,
    channel: fence ? null : (f.channel ?? null),
    frame_format: f.frame_format,
    frame_type: f.frame_type,
    frame_id: fence || !f.frame_id ? null : parseFrameId(f.frame_id, f.frame_format),
    conditions: fence ? [] : f.conditions.map(conditionFromForm),
    condition_join: f.condition_join,
    status: f.enabled ? 1 : 0,
    level: f.level,
    share: f.share,
    description: f.description ?? '',
    alert_description: f.alert_description ?? '',
    actions: actionsFromForm(f.actions),
    recover_action: actionsFromForm(f.recover),
    frequency: { notify_interval_s: f.notify_minutes * 60, command_interval_s: f.command_minutes * 60 },
    fence_id: fence ? (f.fence_id ?? null) : null,
    fence_rule: fence ? (f.fence_rule ?? null) : null,
  };
}

/** Spec §5: a rule checks at most one DBC signal. */
export function signalConditionCount(conditions: ConditionForm[] | undefined): number {
  return (conditions ?? []).filter((c) => c?.source === 'signal').length;
}
