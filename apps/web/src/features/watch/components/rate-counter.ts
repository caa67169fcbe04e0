/**
 * Frames per second across the fleet, from the live hub's batched messages: frames are
 * added as they arrive and turned into rates once per tick, averaged over the last few
 * ticks so that the 100 ms batching of the hub does not make the figure jump.
 */
export class RateCounter {
  private pending = new Map<string, number>();
  private history: { ms: number; counts: Map<string, number> }[] = [];

  constructor(private readonly window = 3) {}

  add(id: string, frames: number): void {
    if (frames > 0) this.pending.set(id, (this.pending.get(id) ?? 0) + frames);
  }

  /** Closes the current period of `elapsedMs`; returns frames/s in total and per device. */
  tick(elapsedMs: number): { total: number; per: Map<string, number> } {
    this.history.push({ ms: Math.max(1, elapsedMs), counts: this.pending });
    this.pending = new Map();
    if (this.history.length > this.window) this.history.shift();
    const ms = this.history.reduce((s, h) => s + h.ms, 0);
    const sums = new Map<string, number>();
    for (const h of this.history) for (const [id, n] of h.counts) sums.set(id, (sums.get(id) ?? 0) + n);
    const per = new Map<string, number>();
    let total = 0;
    for (const [id, n] of sums) {
      const r = (n * 1000) / ms;
      per.set(id, r);
      total += r;
    }
    return { total, per };
  }
}
