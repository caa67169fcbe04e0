import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, ingestFrames, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

// Two hours ago on the hour (µs): recent enough for every retention rule.
const T0 = (Math.floor(Date.now() / 3_600_000) - 2) * 3_600_000_000;
const MS = 1000;

describe('DBC parsing start with back-fill of stored frames', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let other: TenantFixture;
  let dbcId: string;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    other = await makeTenant(t);
    dbcId = await testDbc(t, tenant);
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (thingsId: string, channel: number, rest = '', tn = tenant) =>
    `/v1/mapping-mgmt/tenants/${tn.tenantId}/things/${thingsId}/channels/${channel}/dbc-binding${rest}`;
  const setState = (thingsId: string, channel: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: url(thingsId, channel, '/state'), headers: { authorization: tenant.auth }, payload });
  const backfillOf = (thingsId: string, channel: number, tn = tenant) =>
    t.app.inject({ method: 'GET', url: url(thingsId, channel, '/backfill', tn), headers: { authorization: tn.auth } });
  const series = async (thingsId: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${thingsId}/signals`,
        headers: { authorization: tenant.auth },
      })
    ).json() as { channel: number; message: string; signal: string; samples: number }[];
  const usageOf = async (thingsId: string) =>
    Number(
      (
        await t.database.raw.query<{ b: string }>('select coalesce(sum(bytes), 0) as b from tenant_storage_usage where things_id = $1', [
          thingsId,
        ])
      ).rows[0].b,
    );
  /** RAMP frames every 10 ms: raw Value = i, Counter = i % 256. */
  const ramp = (from: number, n: number, channel = 0) =>
    Array.from({ length: n }, (_, k) => rampFrame(T0 + (from + k) * 10 * MS, from + k, channel, (from + k) % 256));

  it('decodes the stored frames of the range once, skipping what was decoded before, with progress', async () => {
    const dev = await makeDevice(t, tenant);
    expect((await backfillOf(dev.id, 0)).json()).toBeNull();
    await bind(t, tenant, dev.id, 0, { dbc_id: dbcId });
    // Started: samples 0..99 are decoded on ingest. Paused: 100..299 (and CAN1 frames) stay raw.
    await ingestFrames(t, tenant.tenantId, dev.id, ramp(0, 100), ++seq);
    expect((await setState(dev.id, 0, { state: 'paused' })).statusCode).toBe(200);
    await ingestFrames(
      t,
      tenant.tenantId,
      dev.id,
      [...ramp(100, 200), ...ramp(100, 50, 1)].sort((a, b) => a.ts - b.ts),
      ++seq,
    );
    expect((await series(dev.id)).find((s) => s.signal === 'Value')?.samples).toBe(100);
    const before = await usageOf(dev.id);

    // A back-fill only goes with a start, over a range that starts before it ends.
    const paused = await setState(dev.id, 0, { state: 'paused', backfill: { begin_time: T0 / MS, end_time: T0 / MS + 1000 } });
    expect(paused.statusCode).toBe(400);
    expect(paused.json().code).toBe('mapping.backfill-range');
    const backwards = await setState(dev.id, 0, { state: 'started', backfill: { begin_time: T0 / MS + 10, end_time: T0 / MS } });
    expect(backwards.json().code).toBe('mapping.backfill-range');
    const future = await setState(dev.id, 0, {
      state: 'started',
      backfill: { begin_time: Date.now() + 60_000, end_time: Date.now() + 120_000 },
    });
    expect(future.json().code).toBe('mapping.backfill-range');

    // Start with a back-fill of the whole hour (its end is cut at now).
    const started = await setState(dev.id, 0, { state: 'started', backfill: { begin_time: T0 / MS, end_time: Date.now() + 3_600_000 } });
    expect(started.statusCode).toBe(200);
    expect(started.json().state).toBe('started');
    await t.app.ctx.signals.idle();

    const done = (await backfillOf(dev.id, 0)).json();
    // Chunks holding CAN0 frames: 100 + 250 frames read; 200 new frames × 2 signals stored.
    expect(done).toMatchObject({ channel: 0, state: 'done', total_frames: 350, done_frames: 350, samples: 400, error: null });
    expect(done.end_time).toBeLessThanOrEqual(Date.now());
    expect(done.finished_at).toBeGreaterThanOrEqual(done.created_at);
    const s = await series(dev.id);
    expect(s.map((x) => `${x.channel}:${x.message}.${x.signal}=${x.samples}`).sort()).toEqual(['0:RAMP.Counter=300', '0:RAMP.Value=300']);
    expect(await usageOf(dev.id)).toBeGreaterThan(before);

    // The back-filled values are the decoded ones, in time order, with the ingest-decoded ones around them.
    const data = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/signals/data?signals=RAMP.Value&begin_time=${T0 / MS + 980}&end_time=${T0 / MS + 1030}`,
      headers: { authorization: tenant.auth },
    });
    expect(data.json().list.map((r: { time: number; value: number }) => [r.time - T0 / MS, r.value])).toEqual([
      [980, 98 * 0.5 - 10],
      [990, 99 * 0.5 - 10],
      [1000, 100 * 0.5 - 10],
      [1010, 101 * 0.5 - 10],
      [1020, 102 * 0.5 - 10],
    ]);

    // Running it again stores nothing twice.
    await setState(dev.id, 0, { state: 'started', backfill: { begin_time: T0 / MS, end_time: T0 / MS + 3_000 } });
    await t.app.ctx.signals.idle();
    expect((await backfillOf(dev.id, 0)).json()).toMatchObject({ state: 'done', samples: 0 });
    expect((await series(dev.id)).find((x) => x.signal === 'Value')?.samples).toBe(300);

    // Another tenant sees nothing of it.
    expect((await backfillOf(dev.id, 0, other)).statusCode).toBe(404);
  });

  it('a first bind can back-fill too; pausing stops a running back-fill, keeping what it stored', async () => {
    const dev = await makeDevice(t, tenant);
    // 300 stored chunks of 10 frames, before any binding.
    for (let c = 0; c < 300; c++) await ingestFrames(t, tenant.tenantId, dev.id, ramp(c * 10, 10), ++seq);
    const res = await bind(t, tenant, dev.id, 0, {
      dbc_id: dbcId,
      backfill: { begin_time: T0 / MS, end_time: T0 / MS + 3_600_000 },
    });
    expect(res.statusCode).toBe(200);
    // A second back-fill while one runs is refused.
    const again = await setState(dev.id, 0, { state: 'started', backfill: { begin_time: T0 / MS, end_time: T0 / MS + 1000 } });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('mapping.backfill-running');
    expect((await backfillOf(dev.id, 0)).json().state).toBe('running');
    expect((await setState(dev.id, 0, { state: 'paused' })).statusCode).toBe(200);
    const b = (await backfillOf(dev.id, 0)).json();
    expect(b.state).toBe('cancelled');
    expect(b.total_frames).toBe(3000);
    expect(b.done_frames).toBeLessThan(3000);
    const stored = (await series(dev.id)).find((x) => x.signal === 'Value')?.samples ?? 0;
    expect(stored).toBe(b.samples / 2);
    // Nothing runs any more: stopping again is refused.
    const stop = await t.app.inject({ method: 'DELETE', url: url(dev.id, 0, '/backfill'), headers: { authorization: tenant.auth } });
    expect(stop.statusCode).toBe(404);
    expect(stop.json().code).toBe('mapping.backfill-none');
  });
});
