/**
 * Items that settle in any order and are released in the order they came: MQTT PUBACKs, which
 * leave in the order their PUBLISHes arrived (MQTT-4.6.0-2) while the messages are stored
 * concurrently. `add` takes an item in at the tail; `settle` marks one done (with its error, if
 * any) and releases every settled item at the head, oldest first, through `release`.
 *
 * Used by the embedded broker (aedes writes the PUBACK when its callback is called) and by the
 * external broker's window (which writes the PUBACK itself). A plain array with a moving head: no
 * promise chain and no allocation per item beyond its entry.
 */
export interface InOrderEntry<T> {
  readonly item: T;
  settled: boolean;
  err: unknown;
}

export class InOrder<T> {
  private entries: InOrderEntry<T>[] = [];
  private head = 0;

  constructor(private readonly release: (item: T, err: unknown) => void) {}

  /** Items taken in and not yet released. */
  get length(): number {
    return this.entries.length - this.head;
  }

  add(item: T): InOrderEntry<T> {
    const entry: InOrderEntry<T> = { item, settled: false, err: null };
    this.entries.push(entry);
    return entry;
  }

  /** Marks `entry` settled and releases the settled run at the head (which may not include it). */
  settle(entry: InOrderEntry<T>, err: unknown = null): void {
    entry.settled = true;
    entry.err = err;
    const q = this.entries;
    while (this.head < q.length && q[this.head].settled) {
      const e = q[this.head++];
      this.release(e.item, e.err);
    }
    // Drop the released part now and then, not on every release.
    if (this.head === q.length) {
      q.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > q.length) {
      this.entries = q.slice(this.head);
      this.head = 0;
    }
  }
}
