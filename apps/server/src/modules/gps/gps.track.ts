import type { GpsPoint, GpsStop } from '@loggerhead/contract';
import { haversine } from '../../rules/geo.ts';

const RAD = Math.PI / 180;
const R = 6_371_008.8;

/** Length of a track in metres: the sum of great-circle steps between consecutive fixes. */
export function trackDistance(points: readonly GpsPoint[]): number {
  let d = 0;
  for (let i = 1; i < points.length; i++) d += haversine(points[i - 1].lat, points[i - 1].lon, points[i].lat, points[i].lon);
  return d;
}

/** A binary min-heap of (key, index, version) in parallel arrays. */
class MinHeap {
  key: number[] = [];
  idx: number[] = [];
  ver: number[] = [];
  get size() {
    return this.key.length;
  }
  private swap(i: number, j: number) {
    const { key, idx, ver } = this;
    const k = key[i];
    key[i] = key[j];
    key[j] = k;
    const x = idx[i];
    idx[i] = idx[j];
    idx[j] = x;
    const v = ver[i];
    ver[i] = ver[j];
    ver[j] = v;
  }
  push(k: number, i: number, v: number) {
    let c = this.key.length;
    this.key.push(k);
    this.idx.push(i);
    this.ver.push(v);
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (this.key[p] <= this.key[c]) break;
      this.swap(c, p);
      c = p;
    }
  }
  /** Removes the smallest; its index and version are left in `out`. */
  pop(out: { idx: number; ver: number }) {
    out.idx = this.idx[0];
    out.ver = this.ver[0];
    const last = this.key.length - 1;
    this.swap(0, last);
    this.key.pop();
    this.idx.pop();
    this.ver.pop();
    let i = 0;
    const n = this.key.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.key[l] < this.key[m]) m = l;
      if (r < n && this.key[r] < this.key[m]) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}

/**
 * Indexes of at most `max` points that keep the track's shape (Visvalingam-Whyatt, the area-based
 * sibling of Douglas-Peucker): the point whose triangle with its neighbours has the smallest area
 * goes first, its neighbours' areas are recomputed, until `max` remain. O(n log n) whatever the
 * track looks like (Douglas-Peucker degrades on long noisy tracks), no tolerance to guess, and the
 * ends and sharp corners stay.
 */
export function thinTrack(points: readonly { lat: number; lon: number }[], max: number): number[] {
  const n = points.length;
  if (n <= max) return points.map((_, i) => i);
  if (max < 2) return [0, n - 1].slice(0, Math.max(max, 0));
  // Metres on a local plane: good enough to rank a vehicle track's points.
  let midLat = 0;
  for (const p of points) midLat += p.lat;
  midLat /= n;
  const kx = Math.cos(midLat * RAD) * RAD * R;
  const ky = RAD * R;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = points[i].lon * kx;
    y[i] = points[i].lat * ky;
  }
  const prev = new Int32Array(n);
  const next = new Int32Array(n);
  const ver = new Uint32Array(n);
  const gone = new Uint8Array(n);
  const area = (i: number) => {
    const a = prev[i];
    const b = next[i];
    return Math.abs((x[a] - x[i]) * (y[b] - y[i]) - (x[b] - x[i]) * (y[a] - y[i]));
  };
  const heap = new MinHeap();
  for (let i = 0; i < n; i++) {
    prev[i] = i - 1;
    next[i] = i + 1;
  }
  for (let i = 1; i < n - 1; i++) heap.push(area(i), i, 0);
  let left = n;
  const top = { idx: 0, ver: 0 };
  while (left > max && heap.size) {
    heap.pop(top);
    const i = top.idx;
    if (gone[i] || top.ver !== ver[i]) continue;
    gone[i] = 1;
    left--;
    const a = prev[i];
    const b = next[i];
    next[a] = b;
    prev[b] = a;
    if (a > 0) heap.push(area(a), a, ++ver[a]);
    if (b < n - 1) heap.push(area(b), b, ++ver[b]);
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (!gone[i]) out.push(i);
  return out;
}

/**
 * Stops: runs of fixes with speed at or below `maxKmh` (from the fix, or from the movement since
 * the previous fix when the device sends no speed) lasting at least `minMinutes`.
 */
export function findStops(points: readonly GpsPoint[], minMinutes: number, maxKmh: number): GpsStop[] {
  const out: GpsStop[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start < 0) return;
    const a = points[start];
    const b = points[end];
    if (b.ts - a.ts >= minMinutes * 60_000) {
      out.push({ begin_time: a.ts, end_time: b.ts, duration_s: (b.ts - a.ts) / 1000, lat: a.lat, lon: a.lon });
    }
    start = -1;
  };
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    let kmh = p.speed;
    if (kmh === null) {
      if (i === 0) kmh = 0;
      else {
        const q = points[i - 1];
        const dt = (p.ts - q.ts) / 1000;
        kmh = dt > 0 ? (haversine(q.lat, q.lon, p.lat, p.lon) / dt) * 3.6 : 0;
      }
    }
    if (kmh <= maxKmh) {
      if (start < 0) start = i;
    } else close(i - 1);
  }
  close(points.length - 1);
  return out;
}
