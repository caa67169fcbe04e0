import { describe, expect, it } from 'vitest';
import type { RawSql } from '../db/client.ts';
import { TrafficCounter } from './traffic-counter.ts';

const HOUR = 3_600_000;
const T = 'tenant';

/** A database that records the upserts' parameters, and fails while `down` is set. */
function fakeRaw() {
  const rows: unknown[][] = [];
  const db = {
    down: false,
    rows,
    raw: {
      query: async (_sql: string, params: unknown[]) => {
        if (db.down) throw new Error('database down');
        for (let i = 0; i < params.length; i += 7) rows.push(params.slice(i, i + 7));
        return { rows: [] };
      },
    } as unknown as RawSql,
  };
  return db;
}

describe('traffic counter', () => {
  it('adds up each device per hour of arrival and writes one row per device and hour', async () => {
    const db = fakeRaw();
    let now = 10 * HOUR + 5;
    const c = new TrafficCounter(db.raw, { log: { warn() {} }, now: () => now });
    c.received(T, 'a', 100, 10);
    c.received(T, 'a', 50, 0);
    c.received(T, 'b', 7, 1);
    c.forwarded(T, 'a', 3);
    now = 11 * HOUR;
    c.received(T, 'a', 1, 1);
    await c.flush();
    expect(db.rows).toEqual([
      [T, 'a', 10 * HOUR, 2, 10, 150, 3],
      [T, 'b', 10 * HOUR, 1, 1, 7, 0],
      [T, 'a', 11 * HOUR, 1, 1, 1, 0],
    ]);
    // Nothing new: no statement.
    await c.flush();
    expect(db.rows).toHaveLength(3);
  });

  it('keeps the counts of a failed write in their hours for the next flush', async () => {
    const db = fakeRaw();
    let now = 3 * HOUR;
    const c = new TrafficCounter(db.raw, { log: { warn() {} }, now: () => now });
    c.received(T, 'a', 10, 1);
    db.down = true;
    await c.flush();
    now = 4 * HOUR;
    c.received(T, 'a', 5, 0);
    db.down = false;
    await c.flush();
    expect(db.rows).toEqual([
      [T, 'a', 3 * HOUR, 1, 1, 10, 0],
      [T, 'a', 4 * HOUR, 1, 0, 5, 0],
    ]);
  });
});
