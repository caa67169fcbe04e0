import { LEVELS, type Level } from './rollup.ts';

/**
 * Pixel buckets of a curve (pure). The range [begin, end) is cut into `width` equal buckets; each
 * keeps the min, max, sum and count of what falls in it, so a curve never has more points than
 * the chart has pixels and a one-sample spike still shows.
 */

/** The coarsest stored resolution no coarser than a bucket: roll-ups when a bucket spans a whole cell. */
export function chooseLevel(rangeUs: number, width: number): Level | 'raw' {
  const bucket = rangeUs / width;
  let best: Level | 'raw' = 'raw';
  for (const l of LEVELS) if (bucket >= l * 1_000_000) best = l;
  return best;
}

/** Wire name of a level: `raw`, `1s`, `10s`, `1m`, `10m`. */
export function levelName(level: Level | 'raw'): 'raw' | '1s' | '10s' | '1m' | '10m' {
  return level === 'raw' ? 'raw' : level < 60 ? (`${level}s` as '1s' | '10s') : (`${level / 60}m` as '1m' | '10m');
}

export interface BucketResult {
  t: number[];
  min: number[];
  max: number[];
  avg: number[];
  count: number[];
}

export class Bucketer {
  readonly bucketUs: number;
  private readonly min: Float64Array;
  private readonly max: Float64Array;
  private readonly sum: Float64Array;
  private readonly count: Float64Array;

  constructor(
    readonly begin: number,
    readonly end: number,
    readonly width: number,
  ) {
    this.bucketUs = (end - begin) / width;
    this.min = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
    this.max = new Float64Array(width).fill(Number.NEGATIVE_INFINITY);
    this.sum = new Float64Array(width);
    this.count = new Float64Array(width);
  }

  private index(t: number): number {
    const k = Math.floor((t - this.begin) / this.bucketUs);
    return k < 0 ? 0 : k >= this.width ? this.width - 1 : k;
  }

  /** One raw sample; ignored outside [begin, end). */
  sample(t: number, v: number) {
    if (t < this.begin || t >= this.end) return;
    const k = this.index(t);
    if (v < this.min[k]) this.min[k] = v;
    if (v > this.max[k]) this.max[k] = v;
    this.sum[k] += v;
    this.count[k]++;
  }

  /**
   * A roll-up cell [t, t + cellUs). Cells overlapping the range edges count in the first or last
   * bucket, so a range not aligned to cells shows no gap at its ends.
   */
  cell(t: number, cellUs: number, min: number, max: number, sum: number, count: number) {
    if (count === 0 || t >= this.end || t + cellUs <= this.begin) return;
    const k = this.index(t);
    if (min < this.min[k]) this.min[k] = min;
    if (max > this.max[k]) this.max[k] = max;
    this.sum[k] += sum;
    this.count[k] += count;
  }

  /** Non-empty buckets; `t` is each bucket's start in ms. */
  result(): BucketResult {
    const out: BucketResult = { t: [], min: [], max: [], avg: [], count: [] };
    for (let k = 0; k < this.width; k++) {
      const c = this.count[k];
      if (c === 0) continue;
      out.t.push((this.begin + k * this.bucketUs) / 1000);
      out.min.push(this.min[k]);
      out.max.push(this.max[k]);
      out.avg.push(this.sum[k] / c);
      out.count.push(c);
    }
    return out;
  }
}
