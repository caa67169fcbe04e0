import { z } from 'zod';

/**
 * Decoded signals of a device (spec §2 DBC data: real-time and history curves, history data,
 * high-level functions). Times in the API are ms since the Unix epoch, as the spec's
 * begin_time / end_time; sample times keep µs precision as fractional ms.
 */

/** Widest curve a client may ask for, in pixels (points per curve never exceed it). */
export const CURVE_MAX_WIDTH = 10_000;
/** Spec §9 "curve max 10 items": signals per history table or export. */
export const MAX_SIGNALS_PER_QUERY = 10;
/** Spec §9: signal cycle (and bus statistics) sampled from at most 100000 rows. */
export const STATS_MAX_ROWS = 100_000;
/** Rows per CSV export of decoded data. */
export const SIGNAL_EXPORT_MAX_ROWS = 1_000_000;

const time = z.coerce.number().int().min(0);

/**
 * The user-config key a user's saved real-time curves of a device live under (the channel's
 * dashboard): a JSON list of `{name, signal, channel, shown}`. Unbinding a channel removes that
 * channel's entries from every user's list.
 */
export const liveCurvesConfigKey = (thingsId: string) => `dbc.curves.${thingsId.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** `Message.Signal` as the DBC names them. */
export const SIGNAL_REF_RE = /^[^.\s]+\.[^.\s]+$/;
const signalRef = z.string().max(257).regex(SIGNAL_REF_RE, 'Message.Signal');

export const SignalSeriesSchema = z.object({
  channel: z.number().int(),
  message: z.string(),
  signal: z.string(),
  unit: z.string(),
  first_time: z.number().nullable(),
  last_time: z.number().nullable(),
  samples: z.number().int(),
  bytes: z.number().int(),
});
export type SignalSeries = z.infer<typeof SignalSeriesSchema>;

export const SignalListQuerySchema = z.object({ channel: z.coerce.number().int().min(0).max(255).optional() });

export const CurveQuerySchema = z.object({
  signal: signalRef,
  channel: z.coerce.number().int().min(0).max(255).optional(),
  begin_time: time,
  end_time: time,
  width: z.coerce.number().int().min(1).max(CURVE_MAX_WIDTH).default(1000),
});
export type CurveQuery = z.infer<typeof CurveQuerySchema>;

/** Resolution a curve was answered from. */
export const CURVE_LEVELS = ['raw', '1s', '10s', '1m', '10m'] as const;
export type CurveLevel = (typeof CURVE_LEVELS)[number];

/**
 * A curve, column-wise (uPlot's layout). With `bucket_ms` 0 every point is one sample
 * (min = max = avg); otherwise point i covers [t[i], t[i] + bucket_ms) and carries the
 * min, max, mean and count of the samples in it. Empty buckets are left out.
 */
export const CurveSchema = z.object({
  channel: z.number().int(),
  message: z.string(),
  signal: z.string(),
  unit: z.string(),
  level: z.enum(CURVE_LEVELS),
  begin_time: z.number(),
  end_time: z.number(),
  width: z.number().int(),
  bucket_ms: z.number(),
  t: z.array(z.number()),
  min: z.array(z.number()),
  max: z.array(z.number()),
  avg: z.array(z.number()),
  count: z.array(z.number().int()),
});
export type Curve = z.infer<typeof CurveSchema>;

const signalList = z
  .string()
  .max(4096)
  .transform((s) => s.split(',').map((x) => x.trim()))
  .refine((a) => a.length >= 1 && a.length <= MAX_SIGNALS_PER_QUERY && a.every((x) => SIGNAL_REF_RE.test(x)), {
    message: `1-${MAX_SIGNALS_PER_QUERY} comma-separated Message.Signal names`,
  });

export const SignalDataQuerySchema = z.object({
  signals: signalList,
  channel: z.coerce.number().int().min(0).max(255).optional(),
  begin_time: time,
  end_time: time,
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(10_000).default(10),
});
export type SignalDataQuery = z.infer<typeof SignalDataQuerySchema>;

export const SignalRowSchema = z.object({
  /** ms since the epoch, µs kept as the fraction. */
  time: z.number(),
  channel: z.number().int(),
  message: z.string(),
  signal: z.string(),
  value: z.number(),
  unit: z.string(),
});
export type SignalRow = z.infer<typeof SignalRowSchema>;

export const SignalDataPageSchema = z.object({
  total: z.number().int(),
  current_page: z.number().int(),
  page_size: z.number().int(),
  list: z.array(SignalRowSchema),
});

export const SignalExportQuerySchema = SignalDataQuerySchema.omit({ current_page: true, page_size: true });

export const SignalPeriodQuerySchema = z.object({
  signal: signalRef,
  channel: z.coerce.number().int().min(0).max(255).optional(),
  begin_time: time,
  end_time: time,
});

/** Spec §4 high-level function: the period of a signal, from at most 100000 samples. */
export const SignalPeriodSchema = z.object({
  channel: z.number().int(),
  message: z.string(),
  signal: z.string(),
  samples: z.number().int(),
  /** Median interval between samples, ms; null below two samples. */
  period_ms: z.number().nullable(),
  mean_ms: z.number().nullable(),
  jitter_ms: z.number().nullable(),
  min_ms: z.number().nullable(),
  max_ms: z.number().nullable(),
  /** True when the 100000-sample bound cut the range short. */
  truncated: z.boolean(),
});
export type SignalPeriod = z.infer<typeof SignalPeriodSchema>;

export const BusStatsQuerySchema = z.object({
  channel: z.coerce.number().int().min(0).max(255).optional(),
  begin_time: time,
  end_time: time,
  /** Nominal bit rate of the bus, for the load figure. */
  bitrate: z.coerce.number().int().min(10_000).max(8_000_000).default(500_000),
});
export type BusStatsQuery = z.infer<typeof BusStatsQuerySchema>;

export const BusIdStatsSchema = z.object({
  channel: z.number().int(),
  id: z.number().int(),
  ext: z.boolean(),
  count: z.number().int(),
  /** Mean interval between frames of this id, ms (null below two frames). */
  cycle_ms: z.number().nullable(),
  /** Standard deviation of that interval, ms. */
  jitter_ms: z.number().nullable(),
  min_ms: z.number().nullable(),
  max_ms: z.number().nullable(),
  dlc: z.number().int(),
  /** Message name from the channel's DBC, when bound and known. */
  message: z.string().nullable(),
});
export type BusIdStats = z.infer<typeof BusIdStatsSchema>;

export const BusStatsSchema = z.object({
  frames: z.number().int(),
  /** True when the 100000-frame bound cut the range short. */
  truncated: z.boolean(),
  /** Time covered by the frames read, ms. */
  span_ms: z.number(),
  /** Estimated bus load in percent (frame bits incl. worst-case stuffing / bit rate). */
  bus_load: z.number().nullable(),
  bitrate: z.number().int(),
  ids: z.array(BusIdStatsSchema),
});
export type BusStats = z.infer<typeof BusStatsSchema>;
