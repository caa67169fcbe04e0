import type { LiveFrame } from '@loggerhead/contract/schemas/data.ts';

/** One live frame as the hub sends it: [ts (ms, µs as the fraction), channel, id, flags, hex payload]. */
export type { LiveFrame };

/**
 * The newest `capacity` frames of the live trace, column-wise in typed arrays, so that
 * thousands of frames a second append without allocating an object per frame. When full,
 * the oldest frames fall off (the spec's virtual list resets at 10000 items; dropping the
 * oldest keeps the trace moving instead of blanking it).
 */
export class FrameRing {
  /** As sent: ms since the epoch, µs as the fraction. */
  readonly ts: Float64Array;
  readonly channel: Uint8Array;
  readonly id: Uint32Array;
  readonly flags: Uint8Array;
  readonly data: string[];
  /** Running number of each frame since the trace started (1-based). */
  readonly seq: Float64Array;
  private head = 0;
  private size = 0;
  private counter = 0;

  constructor(readonly capacity: number) {
    this.ts = new Float64Array(capacity);
    this.channel = new Uint8Array(capacity);
    this.id = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.data = new Array<string>(capacity).fill('');
    this.seq = new Float64Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Frames appended since the last clear, including those that fell off. */
  get total(): number {
    return this.counter;
  }

  push(frames: readonly LiveFrame[]): void {
    // More frames than fit: only the newest can survive, skip the rest up front.
    const from = Math.max(0, frames.length - this.capacity);
    this.counter += from;
    for (let i = from; i < frames.length; i++) {
      const f = frames[i];
      const slot = (this.head + this.size) % this.capacity;
      this.ts[slot] = f[0];
      this.channel[slot] = f[1];
      this.id[slot] = f[2];
      this.flags[slot] = f[3];
      this.data[slot] = f[4];
      this.seq[slot] = ++this.counter;
      if (this.size < this.capacity) this.size++;
      else this.head = (this.head + 1) % this.capacity;
    }
  }

  /** A frame's time in µs (what the trace shows), exact: the fraction of the ms sent holds the µs. */
  tsUs(slot: number): number {
    return Math.round(this.ts[slot] * 1000);
  }

  /** The storage slot of the i-th oldest frame (0 ≤ i < length). */
  slot(i: number): number {
    return (this.head + i) % this.capacity;
  }

  clear(): void {
    this.head = 0;
    this.size = 0;
    this.counter = 0;
  }
}

/** Device protocol flag bits (docs/device-protocol.md). */
export const FLAG = { ext: 1, fd: 2, brs: 4, esi: 8, rtr: 16, err: 32, tx: 64 } as const;
