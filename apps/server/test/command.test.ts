import { downTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandIn, getCommand, isOnline, issue, messagesUrl, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

const sendCan = (frames: unknown[], extra: Record<string, unknown> = {}) => ({
  operation_name: 'common_fn.send_can',
  operation_params: { frames, ...extra },
  description: 'test frames',
});

describe.skipIf(!!process.env.TEST_MQTT_URL)('device commands', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends CAN frames to an online logger, which puts them on the bus, echoes them as tx and answers', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    try {
      const res = await issue(
        t.app,
        tenant,
        d.id,
        sendCan([
          { channel: 1, id: '0x18FEF100', ext: true, data: '0102030405060708' },
          { id: 0x123, fd: true, brs: true, data: 'AA'.repeat(12) },
        ]),
      );
      expect(res.statusCode).toBe(200);
      const cmd = res.json();
      expect(['sent', 'delivered', 'answered']).toContain(cmd.state);
      const done = await commandIn(t.app, tenant, d.id, cmd.correlation_id, ['answered']);
      expect(done.delivered_at).not.toBeNull();
      expect(done.result).toEqual({ sent: 2, periodic: false });
      // On the simulated bus, byte for byte.
      expect(sim.bus.sent.map((f) => [f.channel, f.id, f.ext, f.fd, f.brs, Buffer.from(f.data).toString('hex')])).toEqual([
        [1, 0x18fef100, true, false, false, '0102030405060708'],
        [0, 0x123, false, true, true, 'aa'.repeat(12)],
      ]);
      // The envelope of spec §7 reached the device.
      const env = sim.agent.received[0] as unknown as Record<string, unknown>;
      expect(env).toMatchObject({
        correlation_id: cmd.correlation_id,
        message_type: 0,
        tenant_id: tenant.tenantId,
        things_id: d.id,
        third_things_id: d.third_things_id,
      });
      expect(Object.keys(env)).toEqual(expect.arrayContaining(['description', 'headers', 'info_model_id', 'things_type', 'payload']));
      // Echoed frames are stored as transmitted frames of the device.
      await sim.device.drain();
      const stored = await poll(
        () =>
          t.database.raw.query<{ n: number }>('select coalesce(sum(frame_count),0)::int as n from frame_chunks where things_id = $1', [
            d.id,
          ]),
        (r) => r.rows[0].n === 2,
        { ms: 10_000 },
      );
      expect(stored.rows[0].n).toBe(2);
      // Responses by correlation id (spec §7 message responses).
      const r = await t.app.inject({
        method: 'GET',
        url: `/v1/things/tenants/${tenant.tenantId}/messages/responses?message_ids=${cmd.correlation_id}&start_date=${Date.now() - 60_000}`,
        headers: { authorization: tenant.auth },
      });
      expect(r.statusCode).toBe(200);
      expect(r.json().list).toMatchObject([{ correlation_id: cmd.correlation_id, code: 0, partial: false }]);
      const skip = await t.app.inject({
        method: 'GET',
        url: `${messagesUrl(tenant, d.id)}/responses?message_ids=${cmd.correlation_id}&offset=1`,
        headers: { authorization: tenant.auth },
      });
      expect(skip.json()).toMatchObject({ total: 1, offset: 1, list: [] });
    } finally {
      await sim.close();
    }
  });

  it('pushes command states live over a WebSocket; no token, no stream', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    const token = tenant.auth.slice('Bearer '.length);
    const got: { t: string; command?: { state: string; correlation_id: string } }[] = [];
    const ws = await t.app.injectWS(
      `/v1/live?token=${token}`,
      {},
      {
        onInit: (w) => w.on('message', (m: Buffer) => got.push(JSON.parse(m.toString()))),
      },
    );
    ws.send(JSON.stringify({ op: 'subscribe', id: 'ops', kind: 'remote', tenant_id: tenant.tenantId, things_id: d.id }));
    try {
      await poll(
        async () => got.length,
        (n) => n > 0,
        { ms: 10_000 },
      );
      expect(got[0]).toEqual({ t: 'subscribed', id: 'ops', kind: 'remote', things_id: d.id, tenant_id: tenant.tenantId });
      const cmd = (await issue(t.app, tenant, d.id, sendCan([{ id: 0x10, data: '' }]))).json();
      await poll(
        async () => got.filter((m) => m.command?.state === 'answered').length,
        (n) => n === 1,
        { ms: 10_000 },
      );
      const states = got.filter((m) => m.t === 'command' && m.command?.correlation_id === cmd.correlation_id).map((m) => m.command?.state);
      expect(states[0]).toBe('sent');
      expect(states.at(-1)).toBe('answered');
    } finally {
      ws.terminate();
      await sim.close();
    }
    const anonMessages: string[] = [];
    const anon = await t.app.injectWS(
      '/v1/live',
      {},
      {
        onInit: (w) => w.on('message', (m: Buffer) => anonMessages.push(m.toString())),
      },
    );
    await poll(
      async () => anonMessages.length,
      (n) => n > 0,
      { ms: 5000 },
    );
    expect(JSON.parse(anonMessages[0])).toMatchObject({ t: 'error', code: 'http.401' });
    anon.terminate();
  });

  it('sends periodically until the count is reached', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    try {
      const res = await issue(
        t.app,
        tenant,
        d.id,
        sendCan([{ id: 0x7df, data: '0201050000000000' }], { mode: 'periodic', period_ms: 20, count: 4 }),
      );
      await commandIn(t.app, tenant, d.id, res.json().correlation_id, ['answered']);
      await poll(
        async () => sim.bus.sent.length,
        (n) => n === 4,
        { ms: 10_000 },
      );
      await new Promise((r) => setTimeout(r, 100));
      expect(sim.bus.sent.length).toBe(4);
    } finally {
      await sim.close();
    }
  });

  it('refuses bad CAN commands with a clear error per field', async () => {
    const { d } = await remoteDevice(t, tenant);
    const bad = async (frames: unknown[], extra = {}) => {
      const r = await issue(t.app, tenant, d.id, sendCan(frames, extra));
      expect(r.statusCode).toBe(400);
      return ([] as { code: string; field: string; message: string }[]).concat(r.json());
    };
    expect((await bad([{ id: 1, data: 'ABC' }]))[0]).toMatchObject({
      code: 'command.invalid-params',
      field: 'operation_params.frames.0.data',
    });
    expect((await bad([{ id: 1, data: '00'.repeat(9) }]))[0].message).toMatch(/0-8 bytes/);
    expect((await bad([{ id: 1, fd: true, data: '00'.repeat(9) }]))[0].message).toMatch(/12, 16/);
    expect((await bad([{ id: 0x800, data: '' }]))[0].field).toBe('operation_params.frames.0.id');
    expect((await bad(Array.from({ length: 101 }, () => ({ id: 1, data: '' }))))[0].field).toBe('operation_params.frames');
    expect((await bad([{ id: 1, data: '' }], { mode: 'periodic' }))[0].field).toBe('operation_params.period_ms');
    // 100 frames and every CAN FD length are fine (queued: the device is offline).
    const ok = await issue(
      t.app,
      tenant,
      d.id,
      sendCan([0, 8, 12, 16, 20, 24, 32, 48, 64].map((n) => ({ id: 1, fd: true, data: '00'.repeat(n) }))),
    );
    expect(ok.statusCode).toBe(200);
    expect((await issue(t.app, tenant, d.id, sendCan(Array.from({ length: 100 }, () => ({ id: 1, data: '' }))))).statusCode).toBe(200);
  });

  it('queues a command for an offline device and delivers it when the device reconnects', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    // Known to the broker (persistent session), then gone.
    await sim.connect();
    await sim.close();
    await poll(
      () => isOnline(t, d.id),
      (on) => !on,
      { ms: 10_000 },
    );
    const res = await issue(t.app, tenant, d.id, sendCan([{ id: 0x100, data: '11' }]));
    const cmd = res.json();
    expect(cmd.state).toBe('queued');
    await new Promise((r) => setTimeout(r, 1500));
    const still = await getCommand(t.app, tenant, d.id, cmd.correlation_id);
    // Never shown as delivered before it was.
    expect(still).toMatchObject({ state: 'queued', sent_at: null, delivered_at: null });

    const { RemoteDevice } = await import('@loggerhead/simulator/remote-device.ts');
    const again = new RemoteDevice(sim.opts);
    await again.connect();
    try {
      const done = await commandIn(t.app, tenant, d.id, cmd.correlation_id, ['answered']);
      expect(done.sent_at).toBeGreaterThanOrEqual(done.created_at);
      expect(again.bus.sent.map((f) => f.id)).toEqual([0x100]);
      expect(again.agent.received.map((e) => e.correlation_id)).toEqual([cmd.correlation_id]);
    } finally {
      await again.close();
    }
  });

  it('a queued command expires visibly and never reaches the device', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const res = await issue(t.app, tenant, d.id, { ...sendCan([{ id: 0x101, data: '22' }]), expires_in_ms: 1000 });
    const cmd = res.json();
    const expired = await commandIn(t.app, tenant, d.id, cmd.correlation_id, ['expired'], 5000);
    expect(expired.state).toBe('expired');
    await sim.connect();
    try {
      await new Promise((r) => setTimeout(r, 1500));
      expect(sim.agent.received).toEqual([]);
      expect(sim.bus.sent).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('times out when the device does not answer, and a queued command can be cancelled', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    sim.agent.silent.add('common_fn.send_can');
    await sim.connect();
    try {
      const res = await issue(t.app, tenant, d.id, { ...sendCan([{ id: 0x102, data: '' }]), timeout_ms: 500 });
      const c = await commandIn(t.app, tenant, d.id, res.json().correlation_id, ['timeout'], 5000);
      expect(c.state).toBe('timeout');
      // Delivered (PUBACK) but never answered: both facts are kept.
      expect(c.delivered_at).not.toBeNull();
      expect(c.answered_at).toBeNull();
    } finally {
      await sim.close();
    }
    await poll(
      () => isOnline(t, d.id),
      (on) => !on,
      { ms: 10_000 },
    );
    const q = (await issue(t.app, tenant, d.id, sendCan([{ id: 0x103, data: '' }]))).json();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `${messagesUrl(tenant, d.id)}/${q.correlation_id}/cancel`,
      headers: { authorization: tenant.auth },
    });
    expect(cancel.json().state).toBe('cancelled');
    const again = await t.app.inject({
      method: 'POST',
      url: `${messagesUrl(tenant, d.id)}/${q.correlation_id}/cancel`,
      headers: { authorization: tenant.auth },
    });
    expect(again.statusCode).toBe(409);
  });

  it('lists commands and finds one by correlation id', async () => {
    const { d } = await remoteDevice(t, tenant);
    const a = (await issue(t.app, tenant, d.id, sendCan([{ id: 1, data: '' }]))).json();
    await issue(t.app, tenant, d.id, sendCan([{ id: 2, data: '' }]));
    const all = await t.app.inject({ method: 'GET', url: messagesUrl(tenant, d.id), headers: { authorization: tenant.auth } });
    expect(all.json().total).toBe(2);
    const one = await t.app.inject({
      method: 'GET',
      url: `${messagesUrl(tenant, d.id)}?correlation_id=${a.correlation_id}`,
      headers: { authorization: tenant.auth },
    });
    expect(one.json().list.map((c: { correlation_id: string }) => c.correlation_id)).toEqual([a.correlation_id]);
  });

  it('a sub-user with read-only access cannot send commands; another tenant cannot reach the device', async () => {
    const { d } = await remoteDevice(t, tenant);
    const reader = await makeSubUser(t, tenant, ['things:things:command', 'things:message:query'], [{ thingsId: d.id, access: 'read' }]);
    const r = await issue(t.app, tenant, d.id, sendCan([{ id: 1, data: '' }]), reader.auth);
    expect(r.statusCode).toBe(403);
    // Reading the command list is fine for a reader.
    const list = await t.app.inject({ method: 'GET', url: messagesUrl(tenant, d.id), headers: { authorization: reader.auth } });
    expect(list.statusCode).toBe(200);

    const other = await makeTenant(t);
    const viaOwnTenant = await issue(t.app, { ...other }, d.id, sendCan([{ id: 1, data: '' }]));
    expect(viaOwnTenant.statusCode).toBe(404);
    const viaTheirs = await issue(t.app, tenant, d.id, sendCan([{ id: 1, data: '' }]), other.auth);
    expect(viaTheirs.statusCode).toBe(403);
    const { rows } = await t.database.raw.query<{ n: number }>('select count(*)::int as n from device_commands where things_id = $1', [
      d.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('a response from another device never matches a command', async () => {
    const a = await remoteDevice(t, tenant);
    const b = await remoteDevice(t, tenant);
    a.sim.agent.silent.add('common_fn.send_can');
    await a.sim.connect();
    await b.sim.connect();
    try {
      const cmd = (await issue(t.app, tenant, a.d.id, { ...sendCan([{ id: 1, data: '' }]), timeout_ms: 3000 })).json();
      await b.sim.agent.respond(cmd.correlation_id, { code: 0, payload: { forged: true } });
      await new Promise((r) => setTimeout(r, 300));
      expect((await getCommand(t.app, tenant, a.d.id, cmd.correlation_id)).state).not.toBe('answered');
    } finally {
      await a.sim.close();
      await b.sim.close();
    }
  });

  it('raw downlinks with an unknown operation get an error answer', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    try {
      const cmd = (await issue(t.app, tenant, d.id, { operation_name: 'common_fn.no_such_thing' })).json();
      const done = await commandIn(t.app, tenant, d.id, cmd.correlation_id, ['failed']);
      expect(done.code).toBe(404);
      expect(done.message).toMatch(/unknown operation/);
    } finally {
      await sim.close();
    }
    expect(downTopic(d.third_things_id, 'cmd')).toBe(`lh/v1/${d.third_things_id}/down/cmd`);
  });
});
