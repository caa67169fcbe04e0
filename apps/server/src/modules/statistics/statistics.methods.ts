import type { StatisticsMethod, StatisticsParams, StatisticsPeriod } from '@loggerhead/contract';

/**
 * The statistics methods, pure: an accumulator is fed one window's samples in time order (ms,
 * value) and gives the window's value. No I/O, no clock.
 */
export interface Accumulator {
  add(t: number, v: number): void;
  /** The window's value (null where there is none: no sample for min/max/mean/percentile). */
  result(windowEnd: number): number | null;
  readonly samples: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const EARTH_KM = 6371.0088;

/** Great-circle distance in km between two fixes (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The p-th percentile of sorted values, linear between the two nearest ranks. */
export function percentileOf(sorted: Float64Array, p: number): number | null {
  if (!sorted.length) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/**
 * Time above a threshold, in ms: each sample holds its value until the next sample of the
 * window, at most `maxGapMs` (a device that stopped sending is not counted as running), and never
 * past the window's end.
 */
class TimeAbove implements Accumulator {
  samples = 0;
  private prevT = 0;
  private prevV = 0;
  private total = 0;
  constructor(
    private readonly threshold: number,
    private readonly maxGapMs: number,
    private readonly scale: number,
  ) {}
  add(t: number, v: number) {
    if (this.samples > 0 && this.prevV > this.threshold) this.total += Math.min(t - this.prevT, this.maxGapMs);
    this.prevT = t;
    this.prevV = v;
    this.samples++;
  }
  result(windowEnd: number) {
    let total = this.total;
    if (this.samples > 0 && this.prevV > this.threshold) total += Math.min(windowEnd - this.prevT, this.maxGapMs);
    return total / this.scale;
  }
}

class Simple implements Accumulator {
  samples = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;
  private sum = 0;
  constructor(private readonly method: 'count' | 'min' | 'max' | 'mean' | 'sum') {}
  add(_t: number, v: number) {
    this.samples++;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    this.sum += v;
  }
  result() {
    switch (this.method) {
      case 'count':
        return this.samples;
      case 'sum':
        return this.sum;
      case 'min':
        return this.samples ? this.min : null;
      case 'max':
        return this.samples ? this.max : null;
      case 'mean':
        return this.samples ? this.sum / this.samples : null;
    }
  }
}

class Percentile implements Accumulator {
  samples = 0;
  private values = new Float64Array(1024);
  constructor(private readonly p: number) {}
  add(_t: number, v: number) {
    if (this.samples === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.samples++] = v;
  }
  result() {
    return percentileOf(this.values.subarray(0, this.samples).sort(), this.p);
  }
}

/** Distance travelled, km: the sum of the great-circle steps between consecutive fixes. */
export class Distance {
  samples = 0;
  private lat = 0;
  private lon = 0;
  private km = 0;
  add(lat: number, lon: number) {
    if (this.samples > 0) this.km += haversineKm(this.lat, this.lon, lat, lon);
    this.lat = lat;
    this.lon = lon;
    this.samples++;
  }
  result() {
    return this.km;
  }
}

export function accumulator(method: Exclude<StatisticsMethod, 'distance'>, params: StatisticsParams): Accumulator {
  const maxGapMs = (params.max_gap_s ?? 60) * 1000;
  switch (method) {
    case 'percentile':
      return new Percentile(params.percentile ?? 50);
    case 'time_above':
      return new TimeAbove(params.threshold ?? 0, maxGapMs, 1000);
    case 'operating_hours':
      return new TimeAbove(params.threshold ?? 0, maxGapMs, HOUR);
    default:
      return new Simple(method);
  }
}

/** The length of a window, ms. */
export const periodMs = (p: StatisticsPeriod) => (p === 'hour' ? HOUR : DAY);

/** The start of the window holding `t` (ms): local hours and days at `utcOffsetMin` minutes east of UTC. */
export function windowStart(t: number, period: StatisticsPeriod, utcOffsetMin: number): number {
  const len = periodMs(period);
  const shift = utcOffsetMin * 60_000;
  return Math.floor((t + shift) / len) * len - shift;
}
