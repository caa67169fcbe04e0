/**
 * Many small requests, few statements: requests that arrive while a batch runs (or in the same turn
 * of the event loop) go together into the next one, at most `max` at a time, in their order. `run`
 * answers each item of a batch in place (same index); when it throws, every request of that batch is
 * refused with the error. A fleet of loggers connecting at once thus costs a handful of statements,
 * not one per logger.
 *
 * Under a steady stream (a batch ran in the last `BUSY_MS`), the next batch waits `lingerMs` for more
 * requests before it runs: loggers that connect a few milliseconds apart (a ramp, or a storm on a
 * busy machine) would otherwise cost one statement each, and every statement has a fixed cost on
 * the one database connection. A lone request (nothing ran lately) goes at the next turn.
 */
export class Batcher<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private running: Promise<void> | null = null;
  private lastRun = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly max = 1000,
    private readonly lingerMs = LINGER_MS,
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Resolves once every request made so far is answered. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    if (this.lingerMs > 0 && performance.now() - this.lastRun < BUSY_MS) await new Promise((r) => setTimeout(r, this.lingerMs));
    else await new Promise((r) => setImmediate(r));
    try {
      while (this.queue.length) {
        const take = this.queue.splice(0, this.max);
        try {
          const out = await this.run(take.map((p) => p.item));
          take.forEach((p, i) => {
            p.resolve(out[i]);
          });
        } catch (e) {
          for (const p of take) p.reject(e);
        } finally {
          this.lastRun = performance.now();
        }
      }
    } finally {
      this.running = null;
    }
  }
}

/** How long a batch waits for company under a steady stream of requests. */
const LINGER_MS = 10;
/** A batch that ran this recently means a stream. */
const BUSY_MS = 50;
