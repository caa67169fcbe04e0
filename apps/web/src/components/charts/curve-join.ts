/** One curve as the server answers it (column-wise), the parts the chart needs. */
export interface CurveColumns {
  t: number[];
  min: number[];
  max: number[];
  avg: number[];
  bucket_ms: number;
}

/**
 * uPlot wants one shared x column. Curves of different signals have their own times, so the
 * x column is the sorted union of all times and each curve gets `null` where it has no point
 * (drawn across with spanGaps). Bucketed curves are placed at the bucket middle.
 */
export function joinCurves(curves: readonly CurveColumns[]): {
  x: number[];
  ys: (number | null)[][];
  /** Per curve: bucket minima and maxima on the same x column, null for a raw curve (nothing to spread). */
  bands: ({ low: (number | null)[]; high: (number | null)[] } | null)[];
} {
  const times = curves.map((c) => (c.bucket_ms > 0 ? c.t.map((t) => t + c.bucket_ms / 2) : c.t));
  const all = new Set<number>();
  for (const ts of times) for (const t of ts) all.add(t);
  const x = [...all].sort((a, b) => a - b);
  const index = new Map<number, number>();
  for (let i = 0; i < x.length; i++) index.set(x[i], i);
  const ys = curves.map((c, k) => {
    const y: (number | null)[] = new Array(x.length).fill(null);
    times[k].forEach((t, i) => {
      y[index.get(t) as number] = c.avg[i];
    });
    return y;
  });
  const bands = curves.map((c, k) => {
    if (c.bucket_ms <= 0) return null;
    const low: (number | null)[] = new Array(x.length).fill(null);
    const high: (number | null)[] = new Array(x.length).fill(null);
    times[k].forEach((t, i) => {
      const j = index.get(t) as number;
      low[j] = c.min[i];
      high[j] = c.max[i];
    });
    return { low, high };
  });
  return { x, ys, bands };
}

/** Time-ordered samples of one signal inside a sliding window (the live curve). */
export interface LiveSeries {
  t: number[];
  v: number[];
}

/**
 * Adds newly fetched points to a live series, skipping those already held (polls overlap by
 * design so that nothing committed late is missed), and drops what fell out of the window.
 */
export function appendWindow(series: LiveSeries, t: readonly number[], v: readonly number[], windowStart: number): LiveSeries {
  const last = series.t.length ? series.t[series.t.length - 1] : Number.NEGATIVE_INFINITY;
  const nt = series.t.slice();
  const nv = series.v.slice();
  for (let i = 0; i < t.length; i++) {
    if (t[i] <= last) continue;
    nt.push(t[i]);
    nv.push(v[i]);
  }
  let cut = 0;
  while (cut < nt.length && nt[cut] < windowStart) cut++;
  return { t: nt.slice(cut), v: nv.slice(cut) };
}

/** Zoom about the middle of a range: factor 2 doubles the span, 0.5 halves it. */
export function zoomRange([a, b]: [number, number], factor: number): [number, number] {
  const mid = (a + b) / 2;
  const half = ((b - a) * factor) / 2;
  return [mid - half, mid + half];
}

/** Pan by a fraction of the span (negative: back in time). */
export function panRange([a, b]: [number, number], fraction: number): [number, number] {
  const d = (b - a) * fraction;
  return [a + d, b + d];
}

/** Smallest, largest and mean value of a curve (the mean weighted by each bucket's sample count); null when empty. */
export function curveStats(c: {
  min: number[];
  max: number[];
  avg: number[];
  count: number[];
}): { min: number; max: number; avg: number } | null {
  if (!c.avg.length) return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < c.avg.length; i++) {
    min = Math.min(min, c.min[i]);
    max = Math.max(max, c.max[i]);
    const k = c.count[i] || 1;
    sum += c.avg[i] * k;
    n += k;
  }
  return { min, max, avg: sum / n };
}
