/**
 * Thins a time-ordered series to at most `max` points for a browser: the index range is cut into
 * equal slices and each slice keeps its minimum and its maximum (in time order), so a spike never
 * disappears; the newest sample is always kept, so the latest value shown is exact.
 * Returns the input arrays untouched when they already fit.
 */
export function thinSeries(t: number[], v: number[], max: number): { t: number[]; v: number[] } {
  const n = t.length;
  if (n <= max) return { t, v };
  if (max < 3) return { t: t.slice(n - max), v: v.slice(n - max) };
  const slices = Math.floor((max - 1) / 2);
  const body = n - 1;
  const ot: number[] = [];
  const ov: number[] = [];
  for (let b = 0; b < slices; b++) {
    const lo = Math.floor((b * body) / slices);
    const hi = Math.floor(((b + 1) * body) / slices);
    if (hi <= lo) continue;
    let iMin = lo;
    let iMax = lo;
    for (let i = lo + 1; i < hi; i++) {
      if (v[i] < v[iMin]) iMin = i;
      if (v[i] > v[iMax]) iMax = i;
    }
    const first = Math.min(iMin, iMax);
    const second = Math.max(iMin, iMax);
    ot.push(t[first]);
    ov.push(v[first]);
    if (second !== first) {
      ot.push(t[second]);
      ov.push(v[second]);
    }
  }
  ot.push(t[n - 1]);
  ov.push(v[n - 1]);
  return { t: ot, v: ov };
}
