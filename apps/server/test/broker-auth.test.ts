import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

const SECRET = 'broker-secret-0123456789';

/** EMQX-style HTTP authentication and authorization: devices by ID and key, each to its own topics. */
describe('HTTP authentication for an external broker (BROKER_AUTH_SECRET)', () => {
  let t: TestApp;
  let dev: { id: string; third_things_id: string; things_key: string };
  let other: { third_things_id: string };
  let otherTenant: { third_things_id: string; things_key: string };
  const call = (path: 'auth' | 'acl', payload: object, authorization = `Bearer ${SECRET}`) =>
    t.app.inject({ method: 'POST', url: `/v1/broker/${path}`, headers: { authorization }, payload });

  beforeAll(async () => {
    t = await createTestApp({ brokerAuthSecret: SECRET });
    const tenant = await makeTenant(t);
    dev = await makeDevice(t, tenant);
    other = await makeDevice(t, tenant);
    otherTenant = await makeDevice(t, await makeTenant(t));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a device in with its own key and client ID, and no one else', async () => {
    const id = dev.third_things_id;
    const verdict = async (body: object) => (await call('auth', body)).json().result;
    expect(await verdict({ clientid: id, username: id, password: dev.things_key })).toBe('allow');
    expect(await verdict({ clientid: `${id}-logger`, username: id, password: dev.things_key })).toBe('allow');
    expect(await verdict({ clientid: id, username: id, password: `${dev.things_key}x` })).toBe('deny');
    expect(await verdict({ clientid: other.third_things_id, username: id, password: dev.things_key })).toBe('deny');
    // Not a device: the broker's own accounts decide (the servers' account).
    expect(await verdict({ clientid: 'lh-server', username: 'loggerhead', password: 'whatever' })).toBe('ignore');
  });

  it("denies every account a device's client id but the device's own, so no one closes its connection or resumes its session", async () => {
    const id = dev.third_things_id;
    const verdict = async (body: object) => (await call('auth', body)).json().result;
    // Another device with its own valid key, of the same tenant or another, plain or suffixed.
    for (const clientid of [
      other.third_things_id,
      `${other.third_things_id}-modem2`,
      otherTenant.third_things_id,
      `${otherTenant.third_things_id}-x`,
    ])
      expect({ clientid, result: await verdict({ clientid, username: id, password: dev.things_key }) }).toEqual({
        clientid,
        result: 'deny',
      });
    expect(await verdict({ clientid: id, username: otherTenant.third_things_id, password: otherTenant.things_key })).toBe('deny');
    // An account that is no device (left to the broker's next source otherwise) never gets a device's
    // client id, nor one of the device form (a device not added yet, or deleted).
    for (const clientid of [id, `${id}-logger`, 'FFFFFFFFFFFFFFFFFFFF'])
      expect({ clientid, result: await verdict({ clientid, username: 'loggerhead', password: 'whatever' }) }).toEqual({
        clientid,
        result: 'deny',
      });
    // The ACL holds a device to its own client id too (a broker that asks it of a session it kept).
    const acl = async (clientid: string) =>
      (await call('acl', { clientid, username: id, action: 'subscribe', topic: `lh/v1/${id}/down/#` })).json().result;
    expect(await acl(id)).toBe('allow');
    expect(await acl(other.third_things_id)).toBe('deny');
    expect(await acl(otherTenant.third_things_id)).toBe('deny');
  });

  it('keeps a device to its own topics', async () => {
    const id = dev.third_things_id;
    const verdict = async (action: string, topic: string) =>
      (await call('acl', { clientid: id, username: id, action, topic })).json().result;
    expect(await verdict('publish', `lh/v1/${id}/up/frames`)).toBe('allow');
    expect(await verdict('subscribe', `lh/v1/${id}/down/#`)).toBe('allow');
    expect(await verdict('publish', `lh/v1/${other.third_things_id}/up/frames`)).toBe('deny');
    expect(await verdict('publish', `lh/v1/${id}/down/cmd`)).toBe('deny');
    expect(await verdict('subscribe', `lh/v1/${other.third_things_id}/down/#`)).toBe('deny');
    expect(await verdict('subscribe', 'lh/v1/+/down/#')).toBe('deny');
    expect(await verdict('subscribe', 'loggerhead/cluster/#')).toBe('deny');
    expect(await verdict('publish', 'loggerhead/cluster/x')).toBe('deny');
    expect(await verdict('subscribe', '#')).toBe('deny');
  });

  it('answers only the broker that knows the secret', async () => {
    const body = { clientid: dev.third_things_id, username: dev.third_things_id, password: dev.things_key };
    expect((await call('auth', body, 'Bearer wrong-secret-0123456789')).statusCode).toBe(401);
    expect((await call('auth', body, '')).statusCode).toBe(401);
    expect((await call('acl', { username: dev.third_things_id, action: 'publish', topic: 'x' }, 'Bearer nope')).statusCode).toBe(401);
  });
});

describe('without BROKER_AUTH_SECRET', () => {
  it('does not serve the broker routes', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'POST', url: '/v1/broker/auth', payload: { username: 'x', password: 'y' } });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
