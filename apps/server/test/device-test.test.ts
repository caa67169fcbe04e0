import { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerUrl, isOnline } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** Spec §7 device test: one message sent to a device now, and its raw answer (or the time-out). */
describe.skipIf(!!process.env.TEST_MQTT_URL)('device test', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const test = (tenant: TenantFixture, id: string, auth: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${id}/device-test`,
      headers: { authorization: auth },
      payload,
    });

  it("sends a message to an online device and answers with the device's raw response", async () => {
    const d = await makeDevice(t, a);
    const sim = new RemoteDevice({
      broker: brokerUrl(t),
      deviceId: d.third_things_id,
      key: d.things_key,
      config: { timer_period_ms: 1234 },
    });
    await sim.connect();
    try {
      await poll(
        () => isOnline(t, d.id),
        (on) => on,
        { ms: 10_000 },
      );
      const res = await test(a, d.id, a.auth, {});
      expect(res.statusCode).toBe(200);
      const r = res.json();
      expect(r.command.state).toBe('answered');
      expect(r.sent).toMatchObject({ correlation_id: r.command.correlation_id, payload: { operation_name: 'common_fn.get_config' } });
      expect(r.responses).toHaveLength(1);
      expect(r.responses[0]).toMatchObject({ code: 0, correlation_id: r.command.correlation_id });
      expect((r.responses[0].payload as { config: { timer_period_ms: number } }).config.timer_period_ms).toBe(1234);

      // An operation the device does not know: its refusal, as it sent it.
      const unknown = (await test(a, d.id, a.auth, { operation_name: 'common_fn.nope', timeout_ms: 3000 })).json();
      expect(unknown.responses).toHaveLength(1);
      expect(unknown.responses[0].code).not.toBe(0);
      expect(unknown.command.state).toBe('failed');
    } finally {
      await sim.close();
    }
  });

  it('answers an offline device with the expired message and no response, not a message waiting for later', async () => {
    const d = await makeDevice(t, a);
    const r = (await test(a, d.id, a.auth, { timeout_ms: 1000 })).json();
    expect(['expired', 'timeout']).toContain(r.command.state);
    expect(r.responses).toEqual([]);
    expect(r.elapsed_ms).toBeGreaterThanOrEqual(900);
  });

  it('needs write access to the device, in its own tenant, and a time-out within 0.5-30 s', async () => {
    const d = await makeDevice(t, a);
    const reader = await makeSubUser(t, a, ['things:things:command'], [{ thingsId: d.id, access: 'read' }]);
    expect((await test(a, d.id, reader.auth, {})).statusCode).toBe(403);
    const keyless = await makeSubUser(t, a, [], [{ thingsId: d.id, access: 'write' }]);
    expect((await test(a, d.id, keyless.auth, {})).statusCode).toBe(403);
    expect((await test(b, d.id, b.auth, {})).statusCode).toBe(404);
    const bad = await test(a, d.id, a.auth, { timeout_ms: 60_000 });
    expect(bad.statusCode).toBe(400);
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${a.tenantId}/things/${d.id}/messages`,
      headers: { authorization: a.auth },
    });
    expect(list.json().total).toBe(0);
  });
});
