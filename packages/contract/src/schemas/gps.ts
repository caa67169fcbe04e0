import { z } from 'zod';

/** GPS track of a device (spec §2 GPS track tab, §9: history up to 200000 points, real-time 5000). */
export const GPS_HISTORY_MAX = 200_000;
export const GPS_LIVE_MAX = 5000;
/** Points drawn by default: a map polyline needs no more to keep the shape. */
export const GPS_DEFAULT_MAX_POINTS = 5000;

export const GpsPointSchema = z.object({
  /** ms since the Unix epoch. */
  ts: z.number(),
  lat: z.number(),
  lon: z.number(),
  alt: z.number().nullable(),
  speed: z.number().nullable(),
  heading: z.number().nullable(),
  sats: z.number().nullable(),
});
export type GpsPoint = z.infer<typeof GpsPointSchema>;

export const GpsStopSchema = z.object({
  begin_time: z.number(),
  end_time: z.number(),
  duration_s: z.number(),
  lat: z.number(),
  lon: z.number(),
});
export type GpsStop = z.infer<typeof GpsStopSchema>;

export const GpsTrackQuerySchema = z.object({
  begin_time: z.coerce.number().int().min(0),
  end_time: z.coerce.number().int().min(0),
  /** Points returned after shape-keeping thinning (Douglas-Peucker ranking). */
  max_points: z.coerce.number().int().min(2).max(GPS_HISTORY_MAX).default(GPS_DEFAULT_MAX_POINTS),
  /** A stop is speed ~0 (below `stop_speed` km/h) for at least this many minutes. */
  stop_minutes: z.coerce.number().min(0.5).max(1440).default(3),
  stop_speed: z.coerce.number().min(0).max(20).default(1),
});
export type GpsTrackQuery = z.infer<typeof GpsTrackQuerySchema>;

export const GpsTrackSchema = z.object({
  things_id: z.string(),
  begin_time: z.number(),
  end_time: z.number(),
  /** Fixes in the range (at most GPS_HISTORY_MAX are read). */
  total: z.number().int(),
  /** True when the range held more than GPS_HISTORY_MAX fixes: the first ones are used. */
  truncated: z.boolean(),
  /** Haversine length of the whole track (every fix, not only the drawn ones), metres. */
  distance_m: z.number(),
  stops: z.array(GpsStopSchema),
  points: z.array(GpsPointSchema),
});
export type GpsTrack = z.infer<typeof GpsTrackSchema>;

export const GpsLiveQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(GPS_LIVE_MAX).default(1),
});
export const GpsLiveSchema = z.object({ things_id: z.string(), points: z.array(GpsPointSchema) });
