import { z } from 'zod';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Statistics (spec §7 /data-mgmt: statistics methods, tasks, results, history): a task runs one
 * method over devices × signals × hourly or daily windows; each window's value is a stored result
 * (docs/decisions/0137-statistics-tasks.md).
 */

/** The methods a task can run. */
export const STATISTICS_METHODS = [
  'count',
  'min',
  'max',
  'mean',
  'sum',
  'percentile',
  'time_above',
  'operating_hours',
  'distance',
] as const;
export type StatisticsMethod = (typeof STATISTICS_METHODS)[number];

/** What a method gives: its unit (`signal`: the signal's own unit), whether it reads signals or GPS fixes, its parameters. */
export const STATISTICS_METHOD_INFO: Record<
  StatisticsMethod,
  { unit: 'signal' | 'count' | 's' | 'h' | 'km'; source: 'signal' | 'gps'; params: ('percentile' | 'threshold' | 'max_gap_s')[] }
> = {
  count: { unit: 'count', source: 'signal', params: [] },
  min: { unit: 'signal', source: 'signal', params: [] },
  max: { unit: 'signal', source: 'signal', params: [] },
  mean: { unit: 'signal', source: 'signal', params: [] },
  sum: { unit: 'signal', source: 'signal', params: [] },
  percentile: { unit: 'signal', source: 'signal', params: ['percentile'] },
  time_above: { unit: 's', source: 'signal', params: ['threshold', 'max_gap_s'] },
  operating_hours: { unit: 'h', source: 'signal', params: ['threshold', 'max_gap_s'] },
  distance: { unit: 'km', source: 'gps', params: [] },
};

/** The signal key of a distance result (it reads GPS fixes, not a signal). */
export const GPS_SIGNAL = 'gps';

export const StatisticsPeriod = z.enum(['hour', 'day']);
export type StatisticsPeriod = z.infer<typeof StatisticsPeriod>;

/** 1 enabled (computed on schedule), 0 disabled. */
export const StatisticsTaskStatus = { disabled: 0, enabled: 1 } as const;

export const StatisticsParamsSchema = z
  .object({
    /** `percentile`: which one, 0 … 100 (linear between the two nearest ranks). */
    percentile: z.number().min(0).max(100).optional(),
    /** `time_above`, `operating_hours`: counted while the value is above this (default 0). */
    threshold: z.number().finite().optional(),
    /** `time_above`, `operating_hours`: a sample holds until the next one, at most this long (default 60 s). */
    max_gap_s: z.number().int().min(1).max(86_400).optional(),
  })
  .strict();
export type StatisticsParams = z.infer<typeof StatisticsParamsSchema>;

export const StatisticsSignalSchema = z.object({
  message: z.string().trim().min(1).max(128),
  signal: z.string().trim().min(1).max(128),
  /** The CAN channel; absent: the signal on whichever channel carries it. */
  channel: z.number().int().min(0).max(255).optional(),
});

export const StatisticsTaskInputSchema = z.object({
  name: z.string().trim().min(1).max(64),
  method: z.enum(STATISTICS_METHODS),
  params: StatisticsParamsSchema.default({}),
  things_ids: z.array(UuidSchema).min(1).max(100),
  /** The signals to compute; none for `distance` (GPS fixes). */
  signals: z.array(StatisticsSignalSchema).max(20).default([]),
  period: StatisticsPeriod,
  /** Minutes east of UTC where a day starts (480: days from 00:00 in UTC+8). */
  utc_offset: z.number().int().min(-720).max(840).default(0),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});
export type StatisticsTaskInput = z.infer<typeof StatisticsTaskInputSchema>;

export const StatisticsTaskSchema = StatisticsTaskInputSchema.extend({
  id: UuidSchema,
  /** Windows before this time (ms) have been computed on schedule. */
  computed_until: z.number(),
  last_run_at: z.number().nullable(),
  last_error: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type StatisticsTask = z.infer<typeof StatisticsTaskSchema>;

export const StatisticsTaskQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  keyword: z.string().max(64).optional(),
});
export const StatisticsTaskPageSchema = pageOf(StatisticsTaskSchema);

/** Computes (again) the windows that start within [begin_time, end_time), ms. */
export const StatisticsRunSchema = z.object({
  begin_time: z.number().int().min(0),
  end_time: z.number().int().min(0),
});
export const StatisticsRunResultSchema = z.object({ windows: z.number().int(), results: z.number().int() });

export const StatisticsResultSchema = z.object({
  task_id: UuidSchema,
  things_id: UuidSchema,
  /** `MESSAGE.Signal`, or `gps` for distance. */
  signal: z.string(),
  /** The window's start and end, ms. */
  window_start: z.number(),
  window_end: z.number(),
  /** Null where the window had no sample to give one (min, max, mean, percentile). */
  value: z.number().nullable(),
  /** Samples (or GPS fixes) in the window. */
  samples: z.number().int(),
  unit: z.string(),
  computed_at: z.number(),
});
export type StatisticsResult = z.infer<typeof StatisticsResultSchema>;

export const StatisticsResultQuerySchema = z.object({
  task_id: UuidSchema,
  things_id: UuidSchema.optional(),
  signal: z.string().max(260).optional(),
  /** Windows starting within [begin_time, end_time), ms. */
  begin_time: z.coerce.number().int().min(0).optional(),
  end_time: z.coerce.number().int().min(0).optional(),
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(5000).default(100),
});
export const StatisticsResultPageSchema = pageOf(StatisticsResultSchema);
export const StatisticsResultCsvQuerySchema = StatisticsResultQuerySchema.omit({ current_page: true, page_size: true });

/** One computation of a task (scheduled or asked for): the statistics history. */
export const StatisticsRunLogSchema = z.object({
  id: UuidSchema,
  task_id: UuidSchema,
  task_name: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  range_start: z.number(),
  range_end: z.number(),
  windows: z.number().int(),
  results: z.number().int(),
  error: z.string().nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
});
export const StatisticsHistoryQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  task_id: UuidSchema.optional(),
});
export const StatisticsHistoryPageSchema = pageOf(StatisticsRunLogSchema);

export const StatisticsMethodInfoSchema = z.object({
  id: z.enum(STATISTICS_METHODS),
  unit: z.string(),
  source: z.enum(['signal', 'gps']),
  params: z.array(z.string()),
});
