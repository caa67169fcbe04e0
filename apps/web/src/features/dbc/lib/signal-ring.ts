/**
 * The samples of one live curve: time-ordered, at most `capacity` of them (the oldest go first).
 * Samples come from the WebSocket push; the window's older part may be seeded once from the curve
 * endpoint, so a curve opened mid-drive is not empty.
 */
export class SignalRing {
  t: number[] = [];
  v: number[] = [];
  /** The newest value is a bucket mean from the seed, not a decoded sample. */
  approx = false;

  constructor(readonly capacity: number) {}

  get size() {
    return this.t.length;
  }

  lastValue(): number | null {
    return this.v.length ? this.v[this.v.length - 1] : null;
  }

  /** Pushed samples; those not newer than the newest held are skipped (no duplicates, no reordering). */
  push(t: readonly number[], v: readonly number[]): number {
    let last = this.t.length ? this.t[this.t.length - 1] : Number.NEGATIVE_INFINITY;
    let added = 0;
    for (let i = 0; i < t.length; i++) {
      if (!(t[i] > last)) continue;
      this.t.push(t[i]);
      this.v.push(v[i]);
      last = t[i];
      added++;
    }
    if (added) this.approx = false;
    this.trim();
    return added;
  }

  /** Older points (from a curve query) placed before the first held sample. */
  seed(t: readonly number[], v: readonly number[], approx: boolean) {
    const first = this.t.length ? this.t[0] : Number.POSITIVE_INFINITY;
    let n = 0;
    while (n < t.length && t[n] < first) n++;
    if (!n) return;
    if (!this.t.length) this.approx = approx;
    this.t = [...t.slice(0, n), ...this.t];
    this.v = [...v.slice(0, n), ...this.v];
    this.trim();
  }

  /** Samples at or after `from` (views into copies; the ring may change after). */
  since(from: number): { t: number[]; v: number[] } {
    let lo = 0;
    let hi = this.t.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.t[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return { t: this.t.slice(lo), v: this.v.slice(lo) };
  }

  clear() {
    this.t = [];
    this.v = [];
    this.approx = false;
  }

  private trim() {
    // Cut in steps, not per sample: a quarter of slack keeps pushes O(1) amortised.
    if (this.t.length <= this.capacity * 1.25) return;
    const cut = this.t.length - this.capacity;
    this.t.splice(0, cut);
    this.v.splice(0, cut);
  }
}

/** At most `max` points of a time-ordered series for drawing: the same thinning as the server's pushes. */
export { thinSeries as thinForChart } from '@loggerhead/can/series/thin.ts';
