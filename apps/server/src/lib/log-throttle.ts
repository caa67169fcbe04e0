/**
 * Lets a repeated log line through once per `ms` (10 s unless given). A line per event would flood
 * the log exactly when it matters most, e.g. while a queue is full: the caller logs when `due()` says
 * so, with its running count of what happened meanwhile.
 */
export class LogThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ms = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when a line may be written now; it then counts as written, and the next is due `ms` later. */
  due(): boolean {
    const t = this.now();
    if (t - this.lastAt < this.ms) return false;
    this.lastAt = t;
    return true;
  }
}
