import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsOf } from '../src/modules/alert/alert.module.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let device: { id: string; third_things_id: string; things_key: string };

const fencesUrl = (tenant: TenantFixture, rest = '') => `/v1/fence/tenants/${tenant.tenantId}/fences${rest}`;
const CENTER = { lat: 31.23, lon: 121.47 };
const circle = (over: Record<string, unknown> = {}) => ({
  name: `depot ${Math.random().toString(36).slice(2, 7)}`,
  type: 'region',
  region: { shape: 'circle', center: CENTER, radius: 1000 },
  ...over,
});

async function post(tenant: TenantFixture, url: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, headers: { authorization: tenant.auth }, payload: payload as Record<string, unknown> });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  b = await makeTenant(t);
  device = await makeDevice(t, a, { name: 'Van 3' });
});
afterAll(async () => {
  await t?.close();
});

describe('e-fences', () => {
  it('validates radius, coordinates and shapes', async () => {
    const bad = [
      circle({ region: { shape: 'circle', center: CENTER, radius: 49 } }),
      circle({ region: { shape: 'circle', center: CENTER, radius: 10001 } }),
      circle({ region: { shape: 'circle', center: { lat: 91, lon: 0 }, radius: 100 } }),
      circle({
        region: {
          shape: 'polygon',
          points: [
            { lat: 0, lon: 0 },
            { lat: 1, lon: 181 },
            { lat: 1, lon: 0 },
          ],
        },
      }),
      circle({
        region: {
          shape: 'polygon',
          points: [
            { lat: 0, lon: 0 },
            { lat: 1, lon: 1 },
          ],
        },
      }),
      circle({ type: 'border', region: null }),
      { name: 'line', type: 'border', border: { points: [{ lat: 0, lon: 0 }] } },
      circle({ name: '' }),
    ];
    for (const body of bad) expect((await post(a, fencesUrl(a), body)).statusCode, JSON.stringify(body)).toBe(400);
    for (const body of [
      circle({ region: { shape: 'circle', center: { lat: -90, lon: 180 }, radius: 50 } }),
      circle({ region: { shape: 'circle', center: CENTER, radius: 10000 } }),
      circle({
        region: {
          shape: 'polygon',
          points: [
            { lat: 0, lon: 0 },
            { lat: 0, lon: 1 },
            { lat: 1, lon: 1 },
          ],
        },
      }),
      {
        name: 'route 1',
        type: 'border',
        border: {
          points: [
            { lat: 0, lon: 0 },
            { lat: 0, lon: 0.1 },
          ],
          tolerance: 200,
        },
      },
    ]) {
      expect((await post(a, fencesUrl(a), body)).statusCode, JSON.stringify(body)).toBe(200);
    }
  });

  it('creates, lists, updates, binds devices and refuses a repeated name', async () => {
    const created = await post(a, fencesUrl(a), circle({ name: '<i>Yard</i>', things_ids: [device.id] }));
    expect(created.statusCode, created.body).toBe(200);
    const f = created.json();
    expect(f).toMatchObject({ name: '<i>Yard</i>', type: 'region', things_ids: [device.id], rule_count: 0 });
    expect((await post(a, fencesUrl(a), circle({ name: '<i>Yard</i>' }))).json().code).toBe('fence.name-used');
    const list = await t.app.inject({ method: 'GET', url: fencesUrl(a, `?things_id=${device.id}`), headers: { authorization: a.auth } });
    expect(list.json().list.map((x: { id: string }) => x.id)).toEqual([f.id]);
    const upd = await t.app.inject({
      method: 'PUT',
      url: fencesUrl(a, `/${f.id}`),
      headers: { authorization: a.auth },
      payload: circle({ name: 'Yard 2', region: { shape: 'circle', center: CENTER, radius: 300 } }),
    });
    expect(upd.json()).toMatchObject({ name: 'Yard 2', region: { radius: 300 }, things_ids: [device.id] });
    const unbound = await t.app.inject({
      method: 'PUT',
      url: fencesUrl(a, `/${f.id}/things`),
      headers: { authorization: a.auth },
      payload: { things_ids: [] },
    });
    expect(unbound.json().things_ids).toEqual([]);
  });

  it('refuses other tenants, and binding their devices', async () => {
    const f = (await post(a, fencesUrl(a), circle())).json();
    expect((await t.app.inject({ method: 'GET', url: fencesUrl(a), headers: { authorization: b.auth } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: fencesUrl(b, `/${f.id}`), headers: { authorization: b.auth } })).statusCode).toBe(404);
    expect((await post(b, fencesUrl(b), circle({ things_ids: [device.id] }))).statusCode).toBe(404);
  });

  it('fires the in rule on entering and the out rule on leaving, once each, from GPS fixes sent over MQTT', async () => {
    const fence = (await post(a, fencesUrl(a), circle({ name: 'Port', things_ids: [device.id] }))).json();
    const rulesUrl = `/v1/alert-mgmt/tenants/${a.tenantId}/trigger-rules`;
    const other = (await post(a, fencesUrl(a), circle({ name: 'Elsewhere' }))).json();
    const notBound = await post(a, rulesUrl, { name: 'x', things_id: device.id, data_type: 'fence', fence_id: other.id, fence_rule: 'in' });
    expect(notBound.json().code).toBe('alert.fence-not-bound');
    const inRule = await post(a, rulesUrl, {
      name: 'enter port',
      things_id: device.id,
      data_type: 'fence',
      fence_id: fence.id,
      fence_rule: 'in',
    });
    const outRule = await post(a, rulesUrl, {
      name: 'leave port',
      things_id: device.id,
      data_type: 'fence',
      fence_id: fence.id,
      fence_rule: 'out',
      level: 'urgent',
    });
    expect(inRule.statusCode, inRule.body).toBe(200);
    expect(outRule.statusCode).toBe(200);

    // Northwards through the 1 km circle: 0.002° ≈ 222 m a step, from 3.3 km south to 3.3 km north.
    const t0 = Date.UTC(2026, 0, 5, 9, 0, 0);
    const track = Array.from({ length: 31 }, (_, i) => ({ ts: t0 + i * 10_000, lat: 31.2 + i * 0.002, lon: 121.47, speed: 80 }));
    const mqtt = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, device.third_things_id, device.things_key);
    try {
      for (let i = 0; i < track.length; i += 8) {
        await mqtt.publishAsync(`lh/v1/${device.third_things_id}/up/gps`, JSON.stringify(track.slice(i, i + 8)), { qos: 1 });
      }
    } finally {
      await mqtt.endAsync();
    }
    await alertsOf(t.app).idle();

    const events = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?source_type=fence`,
        headers: { authorization: a.auth },
      })
    ).json();
    const byName = Object.fromEntries(events.list.map((e: { rule_name: string }) => [e.rule_name, e]));
    expect(events.total).toBe(2);
    // First fix inside: 31.222 (≈ 889 m south of the centre); first fix outside again: 31.240 (≈ 1112 m north).
    expect(byName['enter port'].event_data).toMatchObject({ inside: true, fence_name: 'Port', ts: t0 + 11 * 10_000 });
    expect(byName['enter port'].event_data.lat).toBeCloseTo(31.222, 9);
    expect(byName['leave port'].event_data).toMatchObject({ inside: false, ts: t0 + 20 * 10_000 });
    expect(byName['leave port'].event_data.lat).toBeCloseTo(31.24, 9);
    expect(byName['leave port'].level).toBe('urgent');
    // Leaving recovers the in rule.
    expect(byName['enter port'].recovered_at).not.toBeNull();

    // The same fixes again (a re-sent message) change nothing: still outside.
    alertsOf(t.app).onFixes(a.tenantId, device.id, track.slice(-3));
    await alertsOf(t.app).idle();
    const again = await t.app.inject({
      method: 'GET',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?source_type=fence`,
      headers: { authorization: a.auth },
    });
    expect(again.json().total).toBe(2);

    const inUse = await t.app.inject({ method: 'DELETE', url: fencesUrl(a, `/${fence.id}`), headers: { authorization: a.auth } });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('fence.in-use');
  });
});
