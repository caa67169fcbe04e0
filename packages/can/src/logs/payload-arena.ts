/**
 * Hands out payload views carved from 64 KiB buffers. Allocating a million small
 * `Uint8Array`s costs more in garbage collection than parsing the log; views into a few
 * shared buffers are about twice as fast. A frame's `data.buffer` is therefore shared:
 * copy (`data.slice()`) before transferring it elsewhere.
 */
const CHUNK = 1 << 16;
const EMPTY = new Uint8Array(0);

export class PayloadArena {
  private buf = new ArrayBuffer(CHUNK);
  private off = 0;

  take(len: number): Uint8Array {
    if (len === 0) return EMPTY;
    if (this.off + len > CHUNK) {
      this.buf = new ArrayBuffer(CHUNK);
      this.off = 0;
    }
    const view = new Uint8Array(this.buf, this.off, len);
    this.off += len;
    return view;
  }

  copy(src: Uint8Array, start: number, len: number): Uint8Array {
    const view = this.take(len);
    for (let i = 0; i < len; i++) view[i] = src[start + i];
    return view;
  }
}
