import { z } from 'zod';

/**
 * Device commands (spec §7 "issue async message"): the envelope that goes to the device, what a
 * console sends to issue one, the honest state of each command, and the device's responses.
 */

/** Where a command is: see the `device_commands` migration for the meaning of each state. */
export const COMMAND_STATES = ['queued', 'sent', 'delivered', 'answered', 'failed', 'timeout', 'expired', 'cancelled'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
/** States after which nothing changes any more. */
export const FINAL_COMMAND_STATES: readonly CommandState[] = ['answered', 'failed', 'timeout', 'expired', 'cancelled'];

/** Operations the logger understands (spec §7 plus remote-operation additions). */
export const Operations = {
  sendCan: 'common_fn.send_can',
  stopCan: 'common_fn.stop_can',
  getConfig: 'common_fn.get_config',
  setConfig: 'common_fn.set_config',
  recallFileList: 'common_fn.recallFileList',
  recallFile: 'common_fn.recallFile',
  recallFileDel: 'common_fn.recallFileDel',
  firmwareUpgrade: 'common_fn.firmware_upgrade',
  udsRequest: 'uds.request',
} as const;

/** Spec §7/§9 time-outs: recall list/delete 100000 ms, config 10000 ms, others the 30 s default. */
export const COMMAND_TIMEOUTS_MS: Record<string, number> = {
  [Operations.recallFileList]: 100_000,
  [Operations.recallFileDel]: 100_000,
  [Operations.getConfig]: 10_000,
  [Operations.setConfig]: 10_000,
};
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
/** A command queued for an offline device is dropped (state expired) after this, unless the caller says otherwise. */
export const DEFAULT_COMMAND_EXPIRY_MS = 24 * 3600 * 1000;

export function commandTimeout(operation: string): number {
  return COMMAND_TIMEOUTS_MS[operation] ?? DEFAULT_COMMAND_TIMEOUT_MS;
}

/** Spec §3 device message envelope; message_type 0 = command. `expires_at` (ms) lets a device drop a stale one. */
export const CommandEnvelopeSchema = z.object({
  correlation_id: z.string(),
  description: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  info_model_id: z.string(),
  message_type: z.literal(0),
  payload: z.object({ operation_name: z.string(), operation_params: z.record(z.string(), z.unknown()) }),
  tenant_id: z.string(),
  things_id: z.string(),
  things_type: z.number().int(),
  third_things_id: z.string(),
  expires_at: z.number().int(),
});
export type CommandEnvelope = z.infer<typeof CommandEnvelopeSchema>;

const HEX_RE = /^[0-9a-fA-F]*$/;
/** Spec §5: classic CAN 0-8 bytes; CAN FD 0-8, 12, 16, 20, 24, 32, 48, 64. */
export const CAN_FD_LENGTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64];
/** Spec §9 "command list 100". */
export const MAX_CAN_COMMAND_FRAMES = 100;

const canId = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^(0x)?[0-9a-fA-F]{1,8}$/, 'id must be hexadecimal')
    .transform((s) => Number.parseInt(s.replace(/^0x/i, ''), 16)),
]);

export const CanCommandFrameSchema = z
  .object({
    channel: z.number().int().min(0).max(15).default(0),
    id: canId,
    ext: z.boolean().default(false),
    fd: z.boolean().default(false),
    brs: z.boolean().default(false),
    data: z
      .string()
      .regex(HEX_RE, 'data must be hexadecimal')
      .refine((s) => s.length % 2 === 0, 'data must have an even number of hex characters'),
  })
  .superRefine((f, ctx) => {
    const max = f.ext ? 0x1fffffff : 0x7ff;
    if (f.id > max) ctx.addIssue({ code: 'custom', path: ['id'], message: `id must be at most 0x${max.toString(16).toUpperCase()}` });
    const len = f.data.length / 2;
    if (!f.fd && len > 8) ctx.addIssue({ code: 'custom', path: ['data'], message: 'a CAN frame carries 0-8 bytes' });
    if (f.fd && !CAN_FD_LENGTHS.includes(len))
      ctx.addIssue({ code: 'custom', path: ['data'], message: 'a CAN FD frame carries 0-8, 12, 16, 20, 24, 32, 48 or 64 bytes' });
    if (f.brs && !f.fd) ctx.addIssue({ code: 'custom', path: ['brs'], message: 'bit-rate switch needs a CAN FD frame' });
  });
export type CanCommandFrame = z.infer<typeof CanCommandFrameSchema>;

export const SendCanParamsSchema = z
  .object({
    frames: z.array(CanCommandFrameSchema).min(1).max(MAX_CAN_COMMAND_FRAMES),
    mode: z.enum(['once', 'periodic']).default('once'),
    /** Period of a periodic send, ms. */
    period_ms: z.number().int().min(1).max(86_400_000).optional(),
    /** Repetitions of a periodic send; absent = until `common_fn.stop_can`. */
    count: z.number().int().min(1).max(1_000_000).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.mode === 'periodic' && p.period_ms === undefined)
      ctx.addIssue({ code: 'custom', path: ['period_ms'], message: 'a periodic send needs period_ms' });
  });
export type SendCanParams = z.infer<typeof SendCanParamsSchema>;

export const CommandIssueSchema = z.object({
  operation_name: z.string().min(1).max(128),
  operation_params: z.record(z.string(), z.unknown()).default({}),
  description: z.string().max(256).optional(),
  headers: z.record(z.string(), z.string().max(256)).optional(),
  /** Overrides the operation's default time-out, ms. */
  timeout_ms: z.number().int().min(100).max(3_600_000).optional(),
  /** How long a command for an offline device waits before it expires, ms. */
  expires_in_ms: z
    .number()
    .int()
    .min(1000)
    .max(30 * 86_400_000)
    .optional(),
});
export type CommandIssue = z.infer<typeof CommandIssueSchema>;

export const CommandSchema = z.object({
  id: z.string(),
  correlation_id: z.string(),
  things_id: z.string(),
  operation_name: z.string(),
  operation_params: z.record(z.string(), z.unknown()),
  description: z.string().nullable(),
  state: z.enum(COMMAND_STATES),
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  result: z.unknown().nullable(),
  progress: z.number().int().nullable(),
  timeout_ms: z.number().int(),
  created_at: z.number().int(),
  sent_at: z.number().int().nullable(),
  delivered_at: z.number().int().nullable(),
  answered_at: z.number().int().nullable(),
  deadline_at: z.number().int(),
});
export type Command = z.infer<typeof CommandSchema>;

export const CommandPageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(CommandSchema),
});

export const CommandListQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  correlation_id: z.string().max(64).optional(),
  operation_name: z.string().max(128).optional(),
  state: z.enum(COMMAND_STATES).optional(),
});

/** Spec §7 "get message response": message_ids (comma-separated correlation ids), start_date (ms), offset (responses to skip). */
export const ResponseQuerySchema = z.object({
  message_ids: z.string().max(4000).optional(),
  start_date: z.coerce.number().int().min(0).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
});

export const CommandResponseSchema = z.object({
  id: z.number().int(),
  correlation_id: z.string(),
  things_id: z.string(),
  code: z.number().int(),
  message: z.string().nullable(),
  payload: z.unknown().nullable(),
  partial: z.boolean(),
  received_at: z.number().int(),
});
export type CommandResponseRecord = z.infer<typeof CommandResponseSchema>;

export const CommandResponseListSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  list: z.array(CommandResponseSchema),
});

/**
 * Spec §7 device test: one message sent to a device at once (never queued for later), and what it
 * answered, as received, within `timeout_ms`.
 */
export const DeviceTestSchema = z.object({
  operation_name: z.string().min(1).max(128).default('common_fn.get_config'),
  operation_params: z.record(z.string(), z.unknown()).default({}),
  timeout_ms: z.number().int().min(500).max(30_000).default(5_000),
});
export const DeviceTestResultSchema = z.object({
  /** The command as it ended: answered, failed, timeout, or expired when the device was offline. */
  command: CommandSchema,
  /** The envelope sent on `down/cmd`. */
  sent: z.record(z.string(), z.unknown()),
  /** The device's responses on `up/resp` for it, in order, as received. */
  responses: z.array(CommandResponseSchema),
  elapsed_ms: z.number().int(),
});

/**
 * Logger configuration (spec §9 ranges). Every field is optional: `set_config` changes only what
 * it names, `get_config` returns everything. The device validates the same ranges (spec: both sides).
 */
export const CONFIG_LIMITS = {
  timer_period_ms: [10, 86_400_000],
  record_time: [1, 8_640_000],
  pretrigger_frames: [10, 100_000],
  record_file_size_mb: [1, 512],
  storage_allocation_pct: [0, 100],
  timeout_ms: [500, 60_000],
  resumable_cache: [1, 100],
  remote_port: [1, 65_535],
  local_port: [0, 65_535],
  gps_record_period_s: [1, 1800],
} as const satisfies Record<string, readonly [number, number]>;
export type ConfigNumberField = keyof typeof CONFIG_LIMITS;
/** Spec §9: 64 time filters, 8 ID filters. */
export const MAX_TIME_FILTERS = 64;
export const MAX_ID_FILTERS = 8;
/** Spec §5: a config file import is at most 10 MB of JSON. */
export const MAX_CONFIG_FILE_BYTES = 10 * 1024 * 1024;

const limited = (f: ConfigNumberField) => {
  const [min, max] = CONFIG_LIMITS[f];
  return z.number().int().min(min, `${f} must be ${min}-${max}`).max(max, `${f} must be ${min}-${max}`);
};
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const TimeFilterSchema = z.object({
  begin: z.string().regex(HHMM, 'begin must be HH:MM'),
  end: z.string().regex(HHMM, 'end must be HH:MM'),
  enabled: z.boolean().default(true),
});
export const IdFilterSchema = z
  .object({
    channel: z.number().int().min(0).max(15),
    ext: z.boolean().default(false),
    id_from: z.number().int().min(0).max(0x1fffffff),
    id_to: z.number().int().min(0).max(0x1fffffff),
    action: z.enum(['accept', 'reject']).default('accept'),
  })
  .refine((f) => f.id_from <= f.id_to, { message: 'id_from must not exceed id_to', path: ['id_to'] })
  .refine((f) => f.ext || f.id_to <= 0x7ff, { message: 'standard ids are at most 0x7FF', path: ['id_to'] });

export const DeviceConfigSchema = z
  .object({
    timer_period_ms: limited('timer_period_ms'),
    record_time: limited('record_time'),
    pretrigger_frames: limited('pretrigger_frames'),
    record_file_size_mb: limited('record_file_size_mb'),
    storage_allocation_pct: limited('storage_allocation_pct'),
    timeout_ms: limited('timeout_ms'),
    resumable_cache: limited('resumable_cache'),
    remote_host: z.string().min(1).max(253),
    remote_port: limited('remote_port'),
    local_port: limited('local_port'),
    gps_record_period_s: limited('gps_record_period_s'),
    time_filters: z.array(TimeFilterSchema).max(MAX_TIME_FILTERS, `at most ${MAX_TIME_FILTERS} time filters`),
    id_filters: z.array(IdFilterSchema).max(MAX_ID_FILTERS, `at most ${MAX_ID_FILTERS} ID filters`),
  })
  .partial()
  .strict();
export type DeviceConfig = z.infer<typeof DeviceConfigSchema>;

export const DeviceConfigStateSchema = z.object({
  things_id: z.string(),
  config: DeviceConfigSchema,
  source: z.enum(['read', 'write']),
  updated_at: z.number().int(),
});

/** What a config read or write came to: the command (honest state) and, once answered, the config. */
export const ConfigResultSchema = z.object({
  command: CommandSchema,
  config: DeviceConfigSchema.nullable(),
});
