import { checkBatch } from '@loggerhead/can/protocol/batch.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkWriter, type FrameChunk } from '../src/ingest/chunk-writer.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { batch } from './ingest.helpers.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

const DAY_US = 86_400_000_000;
/** Midnight (UTC) two days ago, in µs. */
const MIDNIGHT = (Math.floor(Date.now() / 86_400_000) - 2) * DAY_US;

describe('the chunk writer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a group commit once per batch and counts capacity per device and day', async () => {
    const tenant = await makeTenant(t);
    const a = await makeDevice(t, tenant);
    const b = await makeDevice(t, tenant);
    const chunk = (thingsId: string, seq: number, t0: number): FrameChunk => {
      const data = batch(seq, t0, 10);
      const info = checkBatch(data);
      if (typeof info === 'string') throw new Error(info);
      return { tenantId: tenant.tenantId, thingsId, info, data };
    };
    const writer = new ChunkWriter(t.database.raw);
    const committed: FrameChunk[][] = [];
    writer.on('committed', (c) => committed.push(c));

    // Stored before: b's batch 5.
    await writer.write(chunk(b.id, 5, MIDNIGHT + 60e6));
    // One group: a's batches on both sides of midnight, a's first batch twice, b's batch 5 again and its next.
    const group = [
      chunk(a.id, 1, MIDNIGHT - 500_000),
      chunk(a.id, 2, MIDNIGHT + 500_000),
      chunk(a.id, 1, MIDNIGHT - 500_000),
      chunk(b.id, 5, MIDNIGHT + 60e6),
      chunk(b.id, 6, MIDNIGHT + 61e6),
    ];
    await Promise.all(group.map((c) => writer.write(c)));
    // A group of nothing new: nothing handed over.
    await writer.write(chunk(b.id, 6, MIDNIGHT + 61e6));
    await writer.close();

    expect(committed.map((g) => g.map((c) => `${c.thingsId === a.id ? 'a' : 'b'}${c.info.seq}`))).toEqual([['b5'], ['a1', 'a2', 'b6']]);
    const rows = await t.database.raw.query<{ who: string; seq: number }>(
      `select case when things_id = $1 then 'a' else 'b' end as who, seq::int as seq from frame_chunks
        where things_id in ($1, $2) order by who, seq`,
      [a.id, b.id],
    );
    expect(rows.rows).toEqual([
      { who: 'a', seq: 1 },
      { who: 'a', seq: 2 },
      { who: 'b', seq: 5 },
      { who: 'b', seq: 6 },
    ]);
    const usage = await t.database.raw.query<{ who: string; day: string; frames: number; chunks: number }>(
      `select case when things_id = $1 then 'a' else 'b' end as who, to_char(day, 'YYYY-MM-DD') as day, frames::int as frames, chunks::int as chunks
         from storage_usage where things_id in ($1, $2) order by who, day`,
      [a.id, b.id],
    );
    const day = (us: number) => new Date(us / 1000).toISOString().slice(0, 10);
    expect(usage.rows).toEqual([
      { who: 'a', day: day(MIDNIGHT - 1), frames: 10, chunks: 1 },
      { who: 'a', day: day(MIDNIGHT), frames: 10, chunks: 1 },
      { who: 'b', day: day(MIDNIGHT), frames: 20, chunks: 2 },
    ]);
    expect(writer.stats).toMatchObject({ chunks: 4, frames: 40, duplicates: 3, flushes: 3 });
  });

  it('with two group commits in flight, hands groups over in the order they were written', async () => {
    const tenant = await makeTenant(t);
    const a = await makeDevice(t, tenant);
    const b = await makeDevice(t, tenant);
    // Groups of 3: four groups, two of them committing at once (on PGlite the second waits its turn).
    const writer = new ChunkWriter(t.database.raw, { concurrency: 2, maxRows: 3 });
    const order: string[] = [];
    writer.on('committed', (g) => order.push(...g.map((c) => `${c.thingsId === a.id ? 'a' : 'b'}${c.info.seq}`)));
    const written: string[] = [];
    const writes: Promise<void>[] = [];
    for (let seq = 1; seq <= 10; seq++) {
      const dev = seq % 2 ? a : b;
      const data = batch(seq, MIDNIGHT + seq * 1e6, 10);
      const info = checkBatch(data);
      if (typeof info === 'string') throw new Error(info);
      written.push(`${dev === a ? 'a' : 'b'}${seq}`);
      writes.push(writer.write({ tenantId: tenant.tenantId, thingsId: dev.id, info, data }));
    }
    await Promise.all(writes);
    await writer.close();
    expect(order).toEqual(written);
    expect(writer.stats).toMatchObject({ chunks: 10, flushes: 4, duplicates: 0 });
    const usage = await t.database.raw.query<{ frames: number; chunks: number }>(
      'select sum(frames)::int as frames, sum(chunks)::int as chunks from storage_usage where things_id in ($1, $2)',
      [a.id, b.id],
    );
    expect(usage.rows[0]).toEqual({ frames: 100, chunks: 10 });
  });
});
