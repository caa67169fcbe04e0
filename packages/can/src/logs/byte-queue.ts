/**
 * Bytes carried from one pushed piece to the next (a partial line, an incomplete BLF object).
 * Appending is amortised O(1) per byte, so a long record arriving in many small pieces costs
 * linear time, not quadratic as re-concatenating the carry-over each time would.
 */
export class ByteQueue {
  private buf = new Uint8Array(0);
  private start = 0;
  private end = 0;

  get length(): number {
    return this.end - this.start;
  }

  /** Copies `chunk` in (the caller may reuse its buffer) and returns all queued bytes. */
  append(chunk: Uint8Array): Uint8Array {
    const len = this.end - this.start;
    if (this.end + chunk.length > this.buf.length) {
      const need = len + chunk.length;
      if (need <= this.buf.length >> 1) {
        this.buf.copyWithin(0, this.start, this.end);
      } else {
        const next = new Uint8Array(Math.max(need, this.buf.length * 2, 1 << 12));
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      }
      this.start = 0;
      this.end = len;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
    return this.buf.subarray(this.start, this.end);
  }

  /** Drops the first `n` queued bytes. */
  consume(n: number): void {
    this.start += n;
    if (this.start >= this.end) this.start = this.end = 0;
  }

  view(): Uint8Array {
    return this.buf.subarray(this.start, this.end);
  }

  clear(): void {
    this.start = this.end = 0;
    this.buf = new Uint8Array(0);
  }
}
