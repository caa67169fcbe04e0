import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../src/cli/simulate.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('loggerhead simulate', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let broker: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-sim-'));
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (thingsId: string) =>
    (
      await t.database.raw.query<{ n: number }>('select coalesce(sum(frame_count),0)::int as n from frame_chunks where things_id = $1', [
        thingsId,
      ])
    ).rows[0].n;

  it('replays a log like a logger and exits 0 once every batch is stored, keeping the times', async () => {
    const d = await makeDevice(t, tenant);
    const src = frames(30_000, (Date.now() - 86_400_000) * 1000);
    const file = path.join(dir, 'trip.log');
    fs.writeFileSync(file, writeLog(src, 'candump'));
    const code = await simulate([
      '--broker',
      broker,
      '--device',
      d.third_things_id,
      '--key',
      d.things_key,
      '--log',
      file,
      '--fast',
      '--keep-time',
      '--mqtt5',
    ]);
    expect(code).toBe(0);
    expect(await stored(d.id)).toBe(30_000);
    const first = await t.database.raw.query<{ t: number }>('select min(time_start) as t from frame_chunks where things_id = $1', [d.id]);
    expect(Number(first.rows[0].t)).toBe(src[0].ts);
  });

  it('exits non-zero with a message for a wrong key', async () => {
    const d = await makeDevice(t, tenant);
    const file = path.join(dir, 'small.log');
    fs.writeFileSync(file, writeLog(frames(10, 1_700_000_000_000_000), 'candump'));
    expect(await simulate(['--broker', broker, '--device', d.third_things_id, '--key', 'nope', '--log', file])).toBe(1);
  });

  it('runs a synthetic fleet sharing one device', async () => {
    const d = await makeDevice(t, tenant);
    const code = await simulate([
      '--broker',
      broker,
      '--device',
      d.third_things_id,
      '--key',
      d.things_key,
      '--devices',
      '3',
      '--rate',
      '1000',
      '--duration',
      '1',
    ]);
    expect(code).toBe(0);
    // 1000 frames/s in 10 batches a second: whole batches of 100, as many as the machine managed.
    // The bound leaves room for a late timer tick on a busy machine; an unpaced fleet sends far more.
    const n = await stored(d.id);
    expect(n).toBeGreaterThan(0);
    expect(n % 100).toBe(0);
    expect(n).toBeLessThanOrEqual(3 * 1500);
  });
});
