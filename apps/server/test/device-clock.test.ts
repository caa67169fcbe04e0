import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, partitionName } from '../src/ingest/chunk-writer.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { batch, connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * A device's clock is bounded (DEVICE_CLOCK_PAST_DAYS, DEVICE_CLOCK_FUTURE_MINUTES): a batch stamped
 * 1970, 2000 or far in the future is acknowledged, dropped as malformed with the reason, and makes no
 * partition; one inside the window is stored.
 */
describe('the device clock window', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp({ deviceClock: { pastDays: 30, futureMinutes: 10 } });
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const partitionExists = async (us: number) =>
    (await t.database.raw.query('select 1 from pg_class where relname = $1', [partitionName(dayOf(us))])).rows.length > 0;

  it('drops batches stamped outside the window as malformed, with the reason, and creates no partition for them', async () => {
    const d = await makeDevice(t, tenant);
    const c = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, d.third_things_id, d.things_key);
    const now = Date.now() * 1000;
    const DAY = 86_400_000_000;
    const outside = {
      1970: 5_000_000,
      2000: Date.UTC(2000, 0, 1) * 1000,
      '31 days ago': now - 31 * DAY,
      'in a day': now + DAY,
      'in 20 minutes': now + 20 * 60_000_000,
    };
    const inside = { '29 days ago': now - 29 * DAY, 'an hour ago': now - 3_600_000_000, 'in 5 minutes': now + 5 * 60_000_000 };
    // Days no stored batch shares (today's and the next days' partitions exist anyway).
    const far = [outside[1970], outside[2000], outside['31 days ago']];
    for (const us of far) expect(await partitionExists(us)).toBe(false);
    let seq = 0;
    try {
      // Every one is acknowledged: a malformed batch must not come again for ever.
      for (const us of [...Object.values(outside), ...Object.values(inside)])
        await c.publishAsync(upTopic(d.third_things_id, 'frames'), batch(++seq, us, 10), { qos: 1 });
    } finally {
      c.end(true);
    }
    const { rows } = await t.database.raw.query<{ time_start: number }>(
      'select time_start from frame_chunks where things_id = $1 order by time_start',
      [d.id],
    );
    expect(rows.map((r) => Number(r.time_start))).toEqual(Object.values(inside));
    for (const us of far) expect(await partitionExists(us)).toBe(false);

    const st = await poll(
      async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/status`,
            headers: { authorization: tenant.auth },
          })
        ).json(),
      (s) => s.malformed_count === 5,
      { ms: 10_000 },
    );
    expect(st.malformed_count).toBe(5);
    const ev = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/events?kind=malformed`,
      headers: { authorization: tenant.auth },
    });
    const detail = JSON.stringify(ev.json().list[0].detail);
    expect(detail).toMatch(/1970-01-01T00:00:05\.000Z, more than 30 days before the server's time \(DEVICE_CLOCK_PAST_DAYS\)/);
    expect(detail).toMatch(/2000-01-01T00:00:00\.000Z/);
  });
});
