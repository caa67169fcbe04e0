import { type CanFrame, makeFrame } from '@loggerhead/can';
import { encodeBatch, readHeader } from '@loggerhead/can/protocol/batch.ts';
import { describe, expect, it } from 'vitest';
import { forEachFrameInOrder, type OrderedChunk } from './frame-order.ts';

const frame = (ts: number, tag: number, channel = 0): CanFrame =>
  makeFrame({
    ts,
    channel,
    id: 0x100 + tag,
    ext: false,
    data: new Uint8Array([tag]),
  });

/** Chunks as storage returns them: sorted by (first time, session, seq), each knowing the next one's start. */
function stored(...batches: { times: number[]; tag: number }[]): OrderedChunk[] {
  const chunks = batches.map((b, seq) => {
    const data = encodeBatch(
      b.times.map((t, i) => frame(t, b.tag, i % 2)),
      { session: 1, seq },
    );
    const h = readHeader(data);
    if (typeof h === 'string') throw new Error(h);
    return { time_start: h.timeStart, frame_count: h.count, data, next_start: null as number | null, seq };
  });
  chunks.sort((x, y) => x.time_start - y.time_start || x.seq - y.seq);
  chunks.forEach((c, i) => {
    c.next_start = chunks[i + 1]?.time_start ?? null;
  });
  return chunks;
}

async function* source(chunks: OrderedChunk[], taken: OrderedChunk[]) {
  for (const c of chunks) {
    taken.push(c);
    yield c;
  }
}

async function walk(
  chunks: OrderedChunk[],
  stopAfter = Number.POSITIVE_INFINITY,
  filter = null as Parameters<typeof forEachFrameInOrder>[1],
) {
  const out: [number, number][] = [];
  const taken: OrderedChunk[] = [];
  await forEachFrameInOrder(source(chunks, taken), filter, (ts, _ch, id, _fl, _len, data) => {
    expect(data[0]).toBe(id - 0x100);
    out.push([ts, id - 0x100]);
    return out.length < stopAfter;
  });
  return { out, taken: taken.length };
}

describe('frames in time order across chunks', () => {
  it('interleaves two chunks of the same period', async () => {
    const { out } = await walk(stored({ times: [10, 30, 50, 70], tag: 1 }, { times: [20, 40, 60], tag: 2 }));
    expect(out).toEqual([
      [10, 1],
      [20, 2],
      [30, 1],
      [40, 2],
      [50, 1],
      [60, 2],
      [70, 1],
    ]);
  });

  it('merges a chunk nested inside another and puts equal times in storage order', async () => {
    const { out } = await walk(
      stored({ times: [0, 100, 200, 300], tag: 1 }, { times: [100, 150, 200], tag: 2 }, { times: [400, 500], tag: 3 }),
    );
    expect(out).toEqual([
      [0, 1],
      [100, 1],
      [100, 2],
      [150, 2],
      [200, 1],
      [200, 2],
      [300, 1],
      [400, 3],
      [500, 3],
    ]);
  });

  it('does not take the next chunk before it is needed (a first page reads one chunk)', async () => {
    const chunks = stored({ times: [0, 1, 2, 3], tag: 1 }, { times: [10, 11], tag: 2 }, { times: [20], tag: 3 });
    const first = await walk(chunks, 3);
    expect(first.out).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    expect(first.taken).toBe(1);
    const whole = await walk(chunks);
    expect(whole.out.map((f) => f[0])).toEqual([0, 1, 2, 3, 10, 11, 20]);
  });

  it('applies the range and channel filter inside merged chunks', async () => {
    const chunks = stored({ times: [10, 30, 50, 70], tag: 1 }, { times: [20, 40, 60], tag: 2 });
    // channel = index % 2 within each chunk: tag 1 has channel 1 at 30, 70; tag 2 at 40.
    const { out } = await walk(chunks, Number.POSITIVE_INFINITY, { channels: new Set([1]), from: 25, to: 70 });
    expect(out).toEqual([
      [30, 1],
      [40, 2],
    ]);
  });
});
