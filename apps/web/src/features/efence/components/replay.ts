import type { GpsPoint } from '@loggerhead/contract/schemas/gps.ts';

/** Replay speeds offered (spec: 0.5×–16×). */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4, 8, 16] as const;
/** At 1× one second of replay covers this many seconds of track, so an hour plays in a minute. */
export const REPLAY_BASE_RATE = 60;

/** Where the device was at `ts`: interpolated between the two fixes around it, clamped to the ends. */
export function positionAt(points: GpsPoint[], ts: number): { lat: number; lon: number; index: number } | null {
  if (points.length === 0) return null;
  const first = points[0] as GpsPoint;
  const last = points[points.length - 1] as GpsPoint;
  if (ts <= first.ts) return { lat: first.lat, lon: first.lon, index: 0 };
  if (ts >= last.ts) return { lat: last.lat, lon: last.lon, index: points.length - 1 };
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((points[mid] as GpsPoint).ts <= ts) lo = mid;
    else hi = mid;
  }
  const a = points[lo] as GpsPoint;
  const b = points[hi] as GpsPoint;
  const f = b.ts === a.ts ? 0 : (ts - a.ts) / (b.ts - a.ts);
  return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f, index: lo };
}

/** Track time after `elapsedMs` of real time at `speed`. */
export function advance(ts: number, elapsedMs: number, speed: number): number {
  return ts + elapsedMs * speed * REPLAY_BASE_RATE;
}

/** A duration as h:mm:ss. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
