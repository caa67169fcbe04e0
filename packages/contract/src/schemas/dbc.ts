import { z } from 'zod';
import type { CodesOf } from '../errors.ts';

/**
 * DBC files, signal strategies and the binding of a device CAN channel to one of them
 * (spec §3 DBC file / signal strategy, §4 DBC parsing start / pause / unbind, §7 mapping-mgmt).
 */

/** Upload bound for a `.dbc` file; real files stay far below it. */
export const DBC_MAX_BYTES = 10 * 1024 * 1024;
/**
 * Messages and signals one DBC file may define (counted before it is parsed; 413
 * `mapping.dbc-too-many-messages` / `-signals`). A vehicle's or J1939's whole database holds a few
 * thousand messages and some ten thousand signals.
 */
export const DBC_MAX_MESSAGES = 10_000;
export const DBC_MAX_SIGNALS = 50_000;
/** Seconds a DBC file may take to be read (on a worker thread); past them 422 `mapping.dbc-timeout`. */
export const DBC_PARSE_SECONDS = 20;
/** Spec §3/§9: DBC protocol defaults to 2. */
export const DBC_DEFAULT_PROTOCOL = 2;
/** Spec §9: DBC file lists page by 100. */
export const DBC_PAGE_SIZE = 100;
/** Spec §3: signal strategy names get this prefix by default. */
export const STRATEGY_PREFIX = 'DBCSIG_';
/** Spec §5: strategy name letters, digits, underscore, not starting with a digit. */
export const STRATEGY_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Spec §5: a strategy holds 1-100 signals. */
export const STRATEGY_MAX_SIGNALS = 100;

export type MappingCode = CodesOf<'mapping'>;

export const DbcSignalInfoSchema = z.object({
  name: z.string(),
  start_bit: z.number().int(),
  length: z.number().int(),
  byte_order: z.enum(['intel', 'motorola']),
  signed: z.boolean(),
  value_type: z.enum(['integer', 'float32', 'float64']),
  factor: z.number(),
  offset: z.number(),
  min: z.number(),
  max: z.number(),
  unit: z.string(),
  multiplexer: z.string().nullable(),
  comment: z.string().nullable(),
  /** Raw value → label (VAL_), when the signal has a value table. */
  values: z.record(z.string(), z.string()).nullable(),
});
export type DbcSignalInfo = z.infer<typeof DbcSignalInfoSchema>;

export const DbcMessageInfoSchema = z.object({
  /** Arbitration id without the DBC's extended flag. */
  id: z.number().int(),
  ext: z.boolean(),
  name: z.string(),
  length: z.number().int(),
  fd: z.boolean(),
  transmitter: z.string(),
  /** GenMsgCycleTime (ms) when declared. */
  cycle_time: z.number().nullable(),
  comment: z.string().nullable(),
  signals: z.array(DbcSignalInfoSchema),
});
export type DbcMessageInfo = z.infer<typeof DbcMessageInfoSchema>;

export const DbcFileSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  protocol: z.number().int(),
  file_name: z.string(),
  size: z.number().int(),
  message_count: z.number().int(),
  signal_count: z.number().int(),
  /** Parser warnings (line, column, reason): the file loaded, these statements were skipped. */
  warnings: z.array(z.object({ line: z.number().int(), col: z.number().int(), reason: z.string() })),
  /** Device channels bound to it (directly or through a strategy). */
  bound_channels: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type DbcFile = z.infer<typeof DbcFileSchema>;

export const DbcFilePageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(DbcFileSchema),
});

export const DbcListQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(10000).default(DBC_PAGE_SIZE),
  keyword: z.string().max(64).optional(),
});
export type DbcListQuery = z.infer<typeof DbcListQuerySchema>;

/** Form fields sent beside the file (multipart) or alone (JSON, on update). */
export const DbcFieldsSchema = z.object({
  name: z.string().trim().min(1).max(128).optional(),
  protocol: z.coerce.number().int().min(0).max(255).optional(),
});
export type DbcFields = z.infer<typeof DbcFieldsSchema>;

export const DbcMessagesQuerySchema = z.object({
  keyword: z.string().max(128).optional(),
});

export const StrategySignalRefSchema = z.object({
  message: z.string().min(1).max(128),
  signal: z.string().min(1).max(128),
});
export type StrategySignalRef = z.infer<typeof StrategySignalRefSchema>;

const strategyName = z.string().trim().min(1).max(64).regex(STRATEGY_NAME_RE, 'letters, digits and underscore, not starting with a digit');

export const StrategyCreateSchema = z.object({
  /** Omitted: `DBCSIG_` followed by a unique suffix. */
  name: strategyName.optional(),
  nickname: z.string().max(64).nullable().optional(),
  description: z.string().max(512).nullable().optional(),
  dbc_id: z.string().min(1).max(64),
  signals: z.array(StrategySignalRefSchema).min(1).max(STRATEGY_MAX_SIGNALS),
  remark: z.string().max(512).nullable().optional(),
});
export type StrategyCreate = z.infer<typeof StrategyCreateSchema>;

export const StrategyUpdateSchema = StrategyCreateSchema.partial();
export type StrategyUpdate = z.infer<typeof StrategyUpdateSchema>;

export const StrategySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  nickname: z.string().nullable(),
  description: z.string().nullable(),
  dbc_id: z.string(),
  dbc_name: z.string(),
  signals: z.array(StrategySignalRefSchema),
  signal_count: z.number().int(),
  remark: z.string().nullable(),
  bound_channels: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type Strategy = z.infer<typeof StrategySchema>;

export const StrategyPageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(StrategySchema),
});

export const StrategyListQuerySchema = DbcListQuerySchema.extend({
  dbc_id: z.string().max(64).optional(),
});

/** Spec §4 DBC parsing states of a bound channel. */
export const PARSING_STATES = ['started', 'paused'] as const;
export type ParsingState = (typeof PARSING_STATES)[number];

/**
 * Back-fill, an option when parsing starts (default off): the channel's raw frames already stored
 * in [begin_time, end_time) (ms) are decoded in the background; frames that were decoded before
 * (an earlier started period) are skipped, frames arriving from now on are decoded on ingest.
 */
export const BackfillRangeSchema = z.object({
  begin_time: z.number().int().min(0),
  end_time: z.number().int().min(0),
});
export type BackfillRange = z.infer<typeof BackfillRangeSchema>;

export const BACKFILL_STATES = ['running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type BackfillState = (typeof BACKFILL_STATES)[number];

/** A back-fill task. Progress is raw frames read of the range (`done_frames` of `total_frames`). */
export const BackfillSchema = z.object({
  id: z.string(),
  things_id: z.string(),
  channel: z.number().int(),
  begin_time: z.number().int(),
  end_time: z.number().int(),
  /** `interrupted`: the server stopped while it ran (start parsing again with back-fill to redo it). */
  state: z.enum(BACKFILL_STATES),
  total_frames: z.number().int(),
  done_frames: z.number().int(),
  /** Decoded samples stored so far. */
  samples: z.number().int(),
  error: z.string().nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
export type Backfill = z.infer<typeof BackfillSchema>;

/** Bind a channel to a DBC file (all its signals) or to a strategy (its signals only). */
export const ChannelBindSchema = z
  .object({
    dbc_id: z.string().min(1).max(64).optional(),
    strategy_id: z.string().min(1).max(64).optional(),
    state: z.enum(PARSING_STATES).default('started'),
    backfill: BackfillRangeSchema.optional(),
  })
  .refine((b) => (b.dbc_id ? 1 : 0) + (b.strategy_id ? 1 : 0) === 1, { message: 'give dbc_id or strategy_id', path: ['dbc_id'] });
export type ChannelBind = z.infer<typeof ChannelBindSchema>;

export const ChannelStateSchema = z.object({ state: z.enum(PARSING_STATES), backfill: BackfillRangeSchema.optional() });
export type ChannelState = z.infer<typeof ChannelStateSchema>;

export const ChannelBindingSchema = z.object({
  things_id: z.string(),
  channel: z.number().int(),
  dbc_id: z.string(),
  dbc_name: z.string(),
  strategy_id: z.string().nullable(),
  strategy_name: z.string().nullable(),
  state: z.enum(PARSING_STATES),
  updated_at: z.number().int(),
});
export type ChannelBinding = z.infer<typeof ChannelBindingSchema>;
