import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Things-forward rules (spec §7 /alert-mgmt): a rule selects devices and data of a tenant and
 * delivers them to a destination the tenant runs (docs/decisions/0126-forwarding-delivery.md).
 */

/** What a rule forwards: raw frames, decoded signals, alert events, online/offline changes. */
export const FORWARD_DATA_KINDS = ['frames', 'signals', 'alerts', 'status'] as const;
export type ForwardDataKind = (typeof FORWARD_DATA_KINDS)[number];

export const FORWARD_DESTINATION_KINDS = ['http', 'mqtt', 'amqp', 'nats', 'redis', 'postgres', 'kafka'] as const;
export type ForwardDestinationKind = (typeof FORWARD_DESTINATION_KINDS)[number];

/** 1 enabled, 0 disabled (nothing captured), 2 paused (captured and queued, not delivered). */
export const ForwardStatus = { disabled: 0, enabled: 1, paused: 2 } as const;

/** What a read shows instead of a stored secret; sent back unchanged on an update, it keeps the secret. */
export const SECRET_MASK = '******';

/** Topic, subject, key and routing-key templates: `{tenant_id}`, `{things_id}`, `{third_things_id}`, `{kind}`, `{rule_id}`. */
const template = z.string().trim().min(1).max(256);
const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .max(1024)
    .refine(
      (s) => {
        try {
          return protocols.includes(new URL(s).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a ${protocols.join(' or ')} URL` },
    );
const secret = z.string().max(512).optional();
const timeoutMs = z.number().int().min(100).max(60_000).default(10_000);

export const HttpDestinationSchema = z.object({
  kind: z.literal('http'),
  url: url(['http:', 'https:']),
  /** Extra request headers (authorisation tokens …), sent as given. */
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/), z.string().max(1024)).default({}),
  /** HMAC-SHA256 key: the body's signature goes in `X-Loggerhead-Signature: sha256=<hex>`. */
  secret,
  timeout_ms: timeoutMs,
});
export const MqttDestinationSchema = z.object({
  kind: z.literal('mqtt'),
  url: url(['mqtt:', 'mqtts:', 'ws:', 'wss:']),
  topic: template.default('loggerhead/{tenant_id}/{things_id}/{kind}'),
  qos: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(1),
  username: z.string().max(256).optional(),
  password: secret,
  client_id: z.string().max(128).optional(),
});
export const AmqpDestinationSchema = z.object({
  kind: z.literal('amqp'),
  url: url(['amqp:', 'amqps:']),
  /** Empty: the default exchange (the routing key is then a queue name). */
  exchange: z.string().max(255).default(''),
  routing_key: template.default('loggerhead.{things_id}.{kind}'),
  password: secret,
});
export const NatsDestinationSchema = z.object({
  kind: z.literal('nats'),
  url: url(['nats:', 'tls:']),
  /** A JetStream subject: a stream must capture it (publishing waits for the stream's ack). */
  subject: template.default('loggerhead.{things_id}.{kind}'),
  username: z.string().max(256).optional(),
  password: secret,
  token: secret,
});
export const RedisDestinationSchema = z.object({
  kind: z.literal('redis'),
  url: url(['redis:', 'rediss:']),
  stream: template.default('loggerhead:{things_id}'),
  /** Approximate stream length kept (`XADD MAXLEN ~`); none: unbounded. */
  maxlen: z.number().int().min(1).max(100_000_000).optional(),
  password: secret,
});
export const PostgresDestinationSchema = z.object({
  kind: z.literal('postgres'),
  url: url(['postgres:', 'postgresql:']),
  /**
   * The user's table (optionally `schema.table`), with columns `message_id text, rule_id text,
   * things_id text, kind text, ts timestamptz, payload jsonb`.
   */
  table: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}(\.[A-Za-z_][A-Za-z0-9_]{0,62})?$/, 'a table name: letters, digits, underscore'),
  password: secret,
  /**
   * How long one round's insert may take, waiting for locks included (the session's
   * `statement_timeout`); a longer one fails the round, which is retried later.
   */
  timeout_ms: z.number().int().min(100).max(300_000).default(30_000),
});
export const KafkaDestinationSchema = z.object({
  kind: z.literal('kafka'),
  brokers: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'host:port'),
    )
    .min(1)
    .max(16),
  topic: template,
  client_id: z.string().max(128).default('loggerhead'),
  ssl: z.boolean().default(false),
  username: z.string().max(256).optional(),
  password: secret,
});

export const ForwardDestinationSchema = z.discriminatedUnion('kind', [
  HttpDestinationSchema,
  MqttDestinationSchema,
  AmqpDestinationSchema,
  NatsDestinationSchema,
  RedisDestinationSchema,
  PostgresDestinationSchema,
  KafkaDestinationSchema,
]);
export type ForwardDestination = z.infer<typeof ForwardDestinationSchema>;
export type ForwardDestinationInput = z.input<typeof ForwardDestinationSchema>;

/** Narrows what a rule forwards: CAN channels and frame ids (frames, signals), signal names (signals). */
export const ForwardFilterSchema = z.object({
  channels: z.array(z.number().int().min(0).max(255)).max(256).optional(),
  frame_ids: z.array(z.number().int().min(0).max(0x1fffffff)).max(1000).optional(),
  signals: z.array(z.string().trim().min(1).max(128)).max(1000).optional(),
});
export type ForwardFilter = z.infer<typeof ForwardFilterSchema>;

export const ForwardRuleInputSchema = z
  .object({
    name: z.string().trim().min(1).max(50),
    description: z.string().max(256).nullable().optional(),
    /** `all` devices of the tenant, the members of `group_id`, or devices carrying any of `label_ids`. */
    device_scope: z.enum(['all', 'group', 'labels']).default('all'),
    group_id: UuidSchema.nullable().optional(),
    label_ids: z.array(UuidSchema).max(100).default([]),
    data_kinds: z.array(z.enum(FORWARD_DATA_KINDS)).min(1).max(FORWARD_DATA_KINDS.length),
    filter: ForwardFilterSchema.default({}),
    destination: ForwardDestinationSchema,
    /** A transform plugin (decision 0160) applied to each message before delivery; none: sent as captured. */
    transform_plugin_id: UuidSchema.nullable().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.device_scope === 'group' && !r.group_id) ctx.addIssue({ code: 'custom', path: ['group_id'], message: 'a group is required' });
    if (r.device_scope === 'labels' && !r.label_ids.length)
      ctx.addIssue({ code: 'custom', path: ['label_ids'], message: 'at least one label is required' });
  });
export type ForwardRuleInput = z.input<typeof ForwardRuleInputSchema>;

export const ForwardCountersSchema = z.object({
  delivered: z.number().int(),
  /** Messages the rule's transform plugin dropped (its result was nothing or false). */
  filtered: z.number().int(),
  failed: z.number().int(),
  dead_lettered: z.number().int(),
  dropped: z.number().int(),
  /** Messages waiting in the outbox. */
  pending: z.number().int(),
  /** Messages in the dead-letter list now. */
  dead_letters: z.number().int(),
  /** Mean time from capture to the destination's acknowledgement, ms; null before the first delivery. */
  latency_ms: z.number().nullable(),
  last_latency_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.number().int().nullable(),
  last_delivered_at: z.number().int().nullable(),
  /** The queue is at its bound: new messages are dropped (counted in `dropped`). */
  backlog_alarm: z.boolean(),
});

export const ForwardRuleSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.number().int(),
  device_scope: z.enum(['all', 'group', 'labels']),
  group_id: z.string().nullable(),
  label_ids: z.array(z.string()),
  data_kinds: z.array(z.enum(FORWARD_DATA_KINDS)),
  filter: ForwardFilterSchema,
  /** Secrets shown as `SECRET_MASK`. */
  destination: z.record(z.string(), z.unknown()),
  transform_plugin_id: z.string().nullable(),
  counters: ForwardCountersSchema,
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type ForwardRule = z.infer<typeof ForwardRuleSchema>;

export const ForwardRuleQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
});
export const ForwardRulePageSchema = pageOf(ForwardRuleSchema);

/** `:status` is 1 or `enable`, 0 or `disable`, 2 or `pause`. */
export const ForwardStatusParamSchema = z.object({
  tenant_id: UuidSchema,
  id: UuidSchema,
  status: z.enum(['0', '1', '2', 'enable', 'disable', 'pause']).transform((s) => {
    if (s === '1' || s === 'enable') return ForwardStatus.enabled;
    if (s === '2' || s === 'pause') return ForwardStatus.paused;
    return ForwardStatus.disabled;
  }),
});

/** Test a destination before saving (`rule_id`: fill masked secrets from that rule). */
export const ForwardTestSchema = z.object({
  destination: ForwardDestinationSchema,
  rule_id: UuidSchema.optional(),
});
export const ForwardTestResultSchema = z.object({
  ok: z.boolean(),
  latency_ms: z.number().int(),
  error: z.string().optional(),
});

export const ForwardDeadLetterSchema = z.object({
  id: z.string(),
  rule_id: z.string(),
  things_id: z.string().nullable(),
  kind: z.string(),
  payload: z.unknown(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  created_at: z.number().int(),
  failed_at: z.number().int(),
});
export const ForwardDeadLetterPageSchema = pageOf(ForwardDeadLetterSchema);
/** Which dead letters to replay or discard: `ids`, or all of the rule's when absent. */
export const ForwardDeadLetterPickSchema = z.object({
  ids: z
    .array(z.string().regex(/^\d{1,19}$/))
    .max(10_000)
    .optional(),
});
export const ForwardDeadLetterResultSchema = z.object({ count: z.number().int() });
