import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOnline, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** Device groups (spec §7 /out-group-mgmt): groups, bind/unbind, group commands answered by simulated loggers. */
describe.skipIf(!!process.env.TEST_MQTT_URL)('device groups', () => {
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

  const url = (tenant: TenantFixture, rest = '') => `/v1/out-group-mgmt/tenants/${tenant.tenantId}/groups${rest}`;
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', u: string, auth: string, payload?: object) =>
    t.app.inject({ method, url: u, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const sendCan = (data: string) => ({
    description: 'wake the fleet',
    payload: { operation_name: 'common_fn.send_can', operation_params: { frames: [{ id: '0x321', data }] } },
  });

  it('creates, renames, binds, unbinds and deletes groups of its own tenant', async () => {
    const g = await req('POST', url(a), a.auth, { name: 'Pudong loop', description: 'Trucks' });
    expect(g.statusCode).toBe(200);
    expect(g.json()).toMatchObject({ name: 'Pudong loop', description: 'Trucks', things_count: 0 });
    const id = g.json().id;
    expect((await req('POST', url(a), a.auth, { name: 'Pudong loop' })).json()).toMatchObject({ code: 'group.duplicate' });

    const d1 = await makeDevice(t, a, { name: 'Truck 1' });
    const d2 = await makeDevice(t, a, { name: 'Truck 2' });
    const foreign = await makeDevice(t, b, { name: 'Not yours' });
    const bound = await req('POST', url(a, `/${id}/bind`), a.auth, { things_ids: [d1.id, d2.id, d1.id] });
    expect(bound.json()).toEqual({ things_count: 2, changed: 2 });
    expect((await req('POST', url(a, `/${id}/bind`), a.auth, { things_ids: [d1.id] })).json()).toEqual({ things_count: 2, changed: 0 });
    // Another tenant's device cannot be bound.
    expect((await req('POST', url(a, `/${id}/bind`), a.auth, { things_ids: [foreign.id] })).statusCode).toBe(404);

    const members = (await req('GET', url(a, `/${id}/things`), a.auth)).json();
    expect(members.list.map((m: { name: string }) => m.name)).toEqual(['Truck 1', 'Truck 2']);
    const ofDevice = (await req('GET', `${url(a)}?things_id=${d2.id}`, a.auth)).json();
    expect(ofDevice.list.map((x: { id: string }) => x.id)).toEqual([id]);

    expect((await req('POST', url(a, `/${id}/unbind`), a.auth, { things_ids: [d2.id] })).json()).toEqual({ things_count: 1, changed: 1 });
    const renamed = await req('PUT', url(a, `/${id}`), a.auth, { name: 'Loop', description: null });
    expect(renamed.json()).toMatchObject({ id, name: 'Loop', description: null, things_count: 1 });

    // Tenant B neither reaches A's path nor finds A's group through its own.
    expect((await req('GET', url(a), b.auth)).statusCode).toBe(403);
    expect((await req('GET', url(b, `/${id}`), b.auth)).json()).toMatchObject({ code: 'group.not-found' });
    expect((await req('POST', url(b, `/${id}/bind`), b.auth, { things_ids: [foreign.id] })).statusCode).toBe(404);
    expect((await req('DELETE', url(b, `/${id}`), b.auth)).statusCode).toBe(404);

    expect((await req('DELETE', url(a, `/${id}`), a.auth)).json()).toEqual({ ok: true });
    expect((await req('GET', url(a, `/${id}`), a.auth)).statusCode).toBe(404);
  });

  it('sends one group command that each of three simulated loggers answers, with each device its own state', async () => {
    const g = (await req('POST', url(a), a.auth, { name: 'Three loggers' })).json();
    expect((await req('POST', url(a, `/${g.id}/commands`), a.auth, sendCan('01'))).json()).toMatchObject({ code: 'group.empty' });

    const sims = [await remoteDevice(t, a), await remoteDevice(t, a), await remoteDevice(t, a)];
    const offline = await makeDevice(t, a, { name: 'Parked' });
    await req('POST', url(a, `/${g.id}/bind`), a.auth, { things_ids: [...sims.map((s) => s.d.id), offline.id] });
    for (const s of sims) await s.sim.connect();
    try {
      for (const s of sims)
        await poll(
          () => isOnline(t, s.d.id),
          (x) => x,
          { ms: 10_000 },
        );
      const sent = await req('POST', url(a, `/${g.id}/commands`), a.auth, sendCan('C0FFEE'));
      expect(sent.statusCode).toBe(200);
      const cmd = sent.json();
      expect(cmd).toMatchObject({ description: 'wake the fleet', operation_name: 'common_fn.send_can' });
      expect(cmd.items).toHaveLength(4);

      const done = await poll(
        async () => (await req('GET', url(a, `/${g.id}/commands/${cmd.id}`), a.auth)).json(),
        (c) => c.states.answered === 3,
        { ms: 10_000 },
      );
      expect(done.states).toEqual({ answered: 3, queued: 1 });
      const byId = new Map(done.items.map((i: { things_id: string; state: string }) => [i.things_id, i.state]));
      for (const s of sims) expect(byId.get(s.d.id)).toBe('answered');
      expect(byId.get(offline.id)).toBe('queued');
      // Each logger put the frame on its own bus.
      for (const s of sims) expect(s.sim.bus.sent.map((f) => [f.id, Buffer.from(f.data).toString('hex')])).toEqual([[0x321, 'c0ffee']]);
      // Each member's command is its device's own command, as a single command would be.
      const single = await req(
        'GET',
        `/v1/things/tenants/${a.tenantId}/things/${sims[0].d.id}/messages/${done.items.find((i: { things_id: string }) => i.things_id === sims[0].d.id).correlation_id}`,
        a.auth,
      );
      expect(single.json()).toMatchObject({ state: 'answered', description: 'wake the fleet', result: { sent: 1, periodic: false } });

      const history = (await req('GET', url(a, `/${g.id}/commands`), a.auth)).json();
      expect(history.total).toBe(1);
      expect(history.list[0]).toMatchObject({ id: cmd.id, states: { answered: 3, queued: 1 } });

      // Bad params are refused before anything is sent.
      const bad = await req('POST', url(a, `/${g.id}/commands`), a.auth, sendCan('XYZ'));
      expect(bad.statusCode).toBe(400);
      expect(bad.json()[0]).toMatchObject({ code: 'command.invalid-params', field: 'operation_params.frames.0.data' });
      expect((await req('GET', url(a, `/${g.id}/commands`), a.auth)).json().total).toBe(1);
    } finally {
      for (const s of sims) await s.sim.close();
    }
  });

  it('checks the group keys and device access of a sub-user on the server', async () => {
    const d1 = await makeDevice(t, a, { name: 'Shared' });
    const d2 = await makeDevice(t, a, { name: 'Hidden' });
    const g = (await req('POST', url(a), a.auth, { name: 'Mixed' })).json();
    await req('POST', url(a, `/${g.id}/bind`), a.auth, { things_ids: [d1.id, d2.id] });

    const none = await makeSubUser(t, a, []);
    expect((await req('GET', url(a), none.auth)).json()).toMatchObject({ code: 'http.403' });

    const reader = await makeSubUser(t, a, ['group:group:query'], [{ thingsId: d1.id, access: 'read' }]);
    const seen = (await req('GET', url(a, `/${g.id}/things`), reader.auth)).json();
    expect(seen.list.map((m: { things_id: string }) => m.things_id)).toEqual([d1.id]);
    expect((await req('POST', url(a), reader.auth, { name: 'x' })).statusCode).toBe(403);
    // A group command of the manager (both members offline: queued) shows the reader its own device's command only.
    const sent = (await req('POST', url(a, `/${g.id}/commands`), a.auth, sendCan('01'))).json();
    expect(sent.items.map((i: { things_id: string; state: string }) => [i.things_id, i.state]).sort()).toEqual(
      [
        [d1.id, 'queued'],
        [d2.id, 'queued'],
      ].sort(),
    );
    const readerView = (await req('GET', url(a, `/${g.id}/commands/${sent.id}`), reader.auth)).json();
    expect(readerView.items.map((i: { things_id: string }) => i.things_id)).toEqual([d1.id]);
    expect((await req('POST', url(a, `/${g.id}/bind`), reader.auth, { things_ids: [d1.id] })).statusCode).toBe(403);

    // The command key alone is not enough: every member must be writable by the sub-user.
    const commander = await makeSubUser(
      t,
      a,
      ['group:group:query', 'group:device:command', 'group:device:bind'],
      [{ thingsId: d1.id, access: 'write' }],
    );
    const commandsOfD1 = async () =>
      (await t.database.raw.query('select 1 from device_commands where things_id = $1', [d1.id])).rows.length;
    const before = await commandsOfD1();
    expect((await req('POST', url(a, `/${g.id}/commands`), commander.auth, sendCan('01'))).statusCode).toBe(403);
    expect((await req('POST', url(a, `/${g.id}/bind`), commander.auth, { things_ids: [d2.id] })).statusCode).toBe(403);
    expect((await req('POST', url(a, `/${g.id}/unbind`), commander.auth, { things_ids: [d1.id] })).statusCode).toBe(403);
    // Nothing was sent to the writable member either.
    expect(await commandsOfD1()).toBe(before);
  });
});
