import { createHmac } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardOf } from '../src/modules/forward/forward.module.ts';
import { api, drain, type Forwarded, frameTimes, replay, rule, rulesUrl, trip } from './forward.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { bind, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/** A local webhook receiver: records every delivery (headers and body); closes and reopens on its port. */
class Receiver {
  bodies: { signature: string | undefined; token: string | undefined; raw: string }[] = [];
  port = 0;
  private server: http.Server | null = null;
  private sockets = new Set<net.Socket>();

  async open() {
    if (this.server) return;
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        this.bodies.push({ signature: req.headers['x-loggerhead-signature'] as string, token: req.headers['x-token'] as string, raw });
        res.writeHead(204).end();
      });
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    // A port below the ephemeral range: while the receiver is closed, a retry's connection to its
    // port could otherwise be given that very port as its own source and connect to itself.
    for (let tries = 0; ; tries++) {
      const port = this.port || 20_000 + Math.floor(Math.random() * 10_000);
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
        this.port = port;
        break;
      } catch (e) {
        if (this.port || tries > 20) throw e;
      }
    }
    this.server = server;
  }

  async close() {
    const s = this.server;
    this.server = null;
    if (!s) return;
    for (const c of this.sockets) c.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  messages(): Forwarded[] {
    return this.bodies.flatMap((b) => (JSON.parse(b.raw) as { messages: Forwarded[] }).messages);
  }
}

const T0 = 1_760_000_000_000_000;
const expectedTimes = (n: number, t0: number) => Array.from({ length: n }, (_, i) => t0 + i * 1000);

describe('things-forward rules', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  const receiver = new Receiver();
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    await receiver.open();
  });
  afterAll(async () => {
    await receiver.close();
    await t?.close();
  });

  const req = (...args: Parameters<ReturnType<typeof api>>) => api(t)(...args);
  const httpRule = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    data_kinds: ['frames', 'status'],
    destination: { kind: 'http', url: `http://127.0.0.1:${receiver.port}/hook`, secret: 'hmac-key', headers: { 'x-token': 'abc' } },
    ...extra,
  });

  it('creates, reads (secrets masked), updates, changes status in the path and deletes rules of its own tenant', async () => {
    const created = await req('POST', rulesUrl(a), a.auth, httpRule('crud'));
    expect(created.statusCode).toBe(200);
    const r = created.json();
    expect(r).toMatchObject({ name: 'crud', status: 1, device_scope: 'all', data_kinds: ['frames', 'status'] });
    expect(r.destination).toMatchObject({ kind: 'http', secret: '******', headers: { 'x-token': '******' } });
    expect(r.counters).toMatchObject({ delivered: 0, pending: 0, dead_letters: 0, backlog_alarm: false });

    expect((await req('POST', rulesUrl(a), a.auth, httpRule('crud'))).json()).toMatchObject({ code: 'forward.duplicate', field: 'name' });
    expect((await req('POST', rulesUrl(a), a.auth, { ...httpRule('x'), data_kinds: [] })).statusCode).toBe(400);
    expect((await req('POST', rulesUrl(a), a.auth, { ...httpRule('x'), destination: { kind: 'http', url: 'ftp://x' } })).statusCode).toBe(
      400,
    );
    expect((await req('POST', rulesUrl(a), a.auth, { ...httpRule('x'), device_scope: 'group' })).statusCode).toBe(400);

    // An update sending the masks back keeps the stored secrets.
    const upd = await req('PUT', rulesUrl(a, `/${r.id}`), a.auth, { ...httpRule('crud-2'), destination: r.destination });
    expect(upd.statusCode).toBe(200);
    const stored = await t.database.raw.query<{ destination: { secret: string; headers: Record<string, string> } }>(
      'select destination from forward_rules where id = $1',
      [r.id],
    );
    // Stored sealed (forward-secrets.test.ts), they open to the values first given.
    expect(t.app.ctx.secrets.open(stored.rows[0].destination.secret)).toBe('hmac-key');
    expect(t.app.ctx.secrets.open(stored.rows[0].destination.headers['x-token'])).toBe('abc');

    for (const [s, v] of [
      ['pause', 2],
      ['disable', 0],
      ['1', 1],
    ] as const) {
      const res = await req('PUT', rulesUrl(a, `/${r.id}/status/${s}`), a.auth);
      expect(res.json().status).toBe(v);
    }
    expect((await req('PUT', rulesUrl(a, `/${r.id}/status/maybe`), a.auth)).statusCode).toBe(400);

    // Another tenant neither reaches A's path nor finds A's rule through its own.
    expect((await req('GET', rulesUrl(a), b.auth)).statusCode).toBe(403);
    expect((await req('GET', rulesUrl(b, `/${r.id}`), b.auth)).json()).toMatchObject({ code: 'forward.not-found' });
    expect((await req('PUT', rulesUrl(b, `/${r.id}/status/0`), b.auth)).statusCode).toBe(404);
    expect((await req('DELETE', rulesUrl(b, `/${r.id}`), b.auth)).statusCode).toBe(404);
    expect((await req('GET', rulesUrl(b), b.auth)).json().total).toBe(0);

    // A sub-user cannot be granted forwarding: it sends every device's data out.
    const sub = await makeSubUser(t, a, ['tenant:label:query']);
    expect((await req('GET', rulesUrl(a), sub.auth)).statusCode).toBe(403);

    // A group or label of another tenant is refused.
    const group = (await req('POST', `/v1/out-group-mgmt/tenants/${b.tenantId}/groups`, b.auth, { name: 'theirs' })).json();
    expect(
      (await req('POST', rulesUrl(a), a.auth, { ...httpRule('grp'), device_scope: 'group', group_id: group.id })).json(),
    ).toMatchObject({ code: 'forward.unknown-group' });

    expect((await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth)).json()).toEqual({ ok: true });
    expect((await req('GET', rulesUrl(a, `/${r.id}`), a.auth)).statusCode).toBe(404);
  });

  it('refuses a rule past the package push_rule', async () => {
    const c = await makeTenant(t);
    await t.database.raw.query('update tenant_packages set push_rule = 1 where tenant_id = $1', [c.tenantId]);
    t.app.ctx.events.emit('package.changed', { tenantId: c.tenantId });
    expect((await req('POST', rulesUrl(c), c.auth, httpRule('one'))).statusCode).toBe(200);
    const second = await req('POST', rulesUrl(c), c.auth, httpRule('two'));
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'push_rule', limit: 1, current: 1 } });
  });

  it('tests a destination: a live receiver answers ok, a closed port an error', async () => {
    const before = receiver.bodies.length;
    const ok = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: httpRule('t').destination });
    expect(ok.json()).toMatchObject({ ok: true });
    expect(receiver.messages().slice(before).at(-1)).toMatchObject({ kind: 'test', tenant_id: a.tenantId });
    const bad = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: { kind: 'http', url: 'http://127.0.0.1:1/x' } });
    expect(bad.json()).toMatchObject({ ok: false });
    expect(bad.json().error).toBeTruthy();
  });

  it('delivers every frame of two simulated devices to a signed webhook, in order per device, with their status changes', async () => {
    const d1 = await makeDevice(t, a);
    const d2 = await makeDevice(t, a);
    const created = (await req('POST', rulesUrl(a), a.auth, httpRule('webhook'))).json();
    receiver.bodies = [];
    await Promise.all([replay(t, d1, trip(3000, T0)), replay(t, d2, trip(2000, T0 + 7))]);
    await drain(t);
    await poll(
      () => receiver.messages().filter((m) => m.kind === 'status').length,
      (n) => n >= 4,
      { ms: 15_000 },
    );

    for (const body of receiver.bodies) {
      expect(body.signature).toBe(`sha256=${createHmac('sha256', 'hmac-key').update(body.raw).digest('hex')}`);
      expect(body.token).toBe('abc');
    }
    const msgs = receiver.messages();
    expect(frameTimes(msgs, d1.id)).toEqual(expectedTimes(3000, T0));
    expect(frameTimes(msgs, d2.id)).toEqual(expectedTimes(2000, T0 + 7));
    expect(msgs.find((m) => m.things_id === d1.id)).toMatchObject({ rule_id: created.id, third_things_id: d1.third_things_id });
    for (const d of [d1, d2])
      expect(msgs.filter((m) => m.kind === 'status' && m.things_id === d.id).map((m) => m.data.online)).toEqual([true, false]);
    const c = (await rule(t, a, created.id)).counters;
    expect(c.delivered).toBe(new Set(msgs.filter((m) => m.rule_id === created.id).map((m) => m.id)).size);
    expect(c.pending).toBe(0);
    expect(c.latency_ms).toBeGreaterThanOrEqual(0);
    // The tenant flow counts each device's delivered messages as forwarded out.
    await t.app.ctx.ingest.traffic.flush();
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    for (const d of [d1, d2]) {
      const flow = await req(
        'GET',
        `/v1/data-mgmt/tenants/${a.tenantId}/flow?begin_time=${hour - 3_600_000}&end_time=${hour + 3_600_000}&things_id=${d.id}`,
        a.auth,
      );
      expect(flow.json().total.forwarded).toBe(new Set(msgs.filter((m) => m.things_id === d.id).map((m) => m.id)).size);
    }
    await req('DELETE', rulesUrl(a, `/${created.id}`), a.auth);
  });

  it('keeps a device in order through a receiver that stops mid-stream, dead-letters what it never takes, and replays it', async () => {
    const d = await makeDevice(t, a);
    const created = (await req('POST', rulesUrl(a), a.auth, { ...httpRule('stops'), data_kinds: ['frames'] })).json();
    const engine = forwardOf(t.app);
    engine.tune({ baseDelayMs: 100, maxAttempts: 50 });
    try {
      receiver.bodies = [];
      // The receiver goes away after the first deliveries and comes back while the rule retries.
      // The trip is sent in two parts: one replay is one batch, forwarded as one message, which a
      // receiver closing after it would have taken whole.
      const all = trip(4000, T0);
      await replay(t, d, all.slice(0, 1000));
      await poll(
        () => receiver.bodies.length,
        (n) => n >= 1,
        { ms: 15_000 },
      );
      await receiver.close();
      await replay(t, d, all.slice(1000));
      await poll(
        async () => (await rule(t, a, created.id)).counters.failed,
        (n) => n > 0,
        { ms: 15_000, what: 'a delivery to fail while the receiver is closed' },
      );
      await receiver.open();
      // What failed waits out its back-off: drain() stops when nothing is due yet, so the rule's
      // pending count is what tells that it went out.
      await poll(
        async () => (await rule(t, a, created.id)).counters.pending,
        (n) => n === 0,
        { ms: 15_000, what: 'the held messages to go out once the receiver is back' },
      );
      expect(frameTimes(receiver.messages(), d.id)).toEqual(expectedTimes(4000, T0));
      expect((await rule(t, a, created.id)).counters).toMatchObject({ pending: 0, dead_letters: 0 });

      // Now it stays away: after 3 attempts the messages become dead letters.
      engine.tune({ baseDelayMs: 20, maxAttempts: 3 });
      await receiver.close();
      receiver.bodies = [];
      await replay(t, d, trip(1000, T0 + 10_000_000));
      await drain(t);
      const dead = await poll(
        () => rule(t, a, created.id),
        (r) => r.counters.pending === 0 && r.counters.dead_letters > 0,
        { ms: 15_000 },
      );
      expect(dead.counters.dead_lettered).toBe(dead.counters.dead_letters);
      expect(dead.counters.last_error).toBeTruthy();
      const list = (await req('GET', rulesUrl(a, `/${created.id}/dead-letters?page_size=100`), a.auth)).json();
      expect(list.total).toBe(dead.counters.dead_letters);
      expect(list.list[0]).toMatchObject({ kind: 'frames', things_id: d.id, attempts: 3 });
      expect((await req('GET', rulesUrl(b, `/${created.id}/dead-letters`), b.auth)).statusCode).toBe(404);

      await receiver.open();
      const replayed = await req('POST', rulesUrl(a, `/${created.id}/dead-letters/replay`), a.auth, {});
      expect(replayed.json().count).toBe(dead.counters.dead_letters);
      await drain(t);
      expect(frameTimes(receiver.messages(), d.id)).toEqual(expectedTimes(1000, T0 + 10_000_000));
      expect((await rule(t, a, created.id)).counters).toMatchObject({ pending: 0, dead_letters: 0 });
    } finally {
      engine.tune({ baseDelayMs: 1000, maxAttempts: 8 });
      await receiver.open().catch(() => {});
      await req('DELETE', rulesUrl(a, `/${created.id}`), a.auth);
    }
  });

  it('holds messages while paused, forwards nothing while disabled, and only the devices a group or label selects', async () => {
    const inGroup = await makeDevice(t, a);
    const other = await makeDevice(t, a);
    const group = (await req('POST', `/v1/out-group-mgmt/tenants/${a.tenantId}/groups`, a.auth, { name: 'fwd' })).json();
    await req('POST', `/v1/out-group-mgmt/tenants/${a.tenantId}/groups/${group.id}/bind`, a.auth, { things_ids: [inGroup.id] });
    const r = (
      await req('POST', rulesUrl(a), a.auth, { ...httpRule('grouped'), data_kinds: ['frames'], device_scope: 'group', group_id: group.id })
    ).json();
    expect(r.group_id).toBe(group.id);
    receiver.bodies = [];
    await req('PUT', rulesUrl(a, `/${r.id}/status/pause`), a.auth);
    await Promise.all([replay(t, inGroup, trip(500, T0)), replay(t, other, trip(500, T0))]);
    await drain(t);
    const paused = await rule(t, a, r.id);
    expect(paused.counters.pending).toBeGreaterThan(0);
    const ofRule = () => receiver.messages().filter((m) => m.rule_id === r.id);
    expect(ofRule()).toHaveLength(0);

    await req('PUT', rulesUrl(a, `/${r.id}/status/enable`), a.auth);
    await drain(t);
    expect(frameTimes(receiver.messages(), inGroup.id)).toEqual(expectedTimes(500, T0));
    expect(frameTimes(receiver.messages(), other.id)).toEqual([]);

    await req('PUT', rulesUrl(a, `/${r.id}/status/disable`), a.auth);
    receiver.bodies = [];
    await replay(t, inGroup, trip(100, T0 + 50_000_000));
    await drain(t);
    expect((await rule(t, a, r.id)).counters.pending).toBe(0);
    expect(ofRule()).toHaveLength(0);
    await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
  });

  it('forwards the decoded signals a filter names, with the values the DBC gives', async () => {
    const d = await makeDevice(t, a);
    const dbc = await testDbc(t, a);
    expect((await bind(t, a, d.id, 0, { dbc_id: dbc, state: 'started' })).statusCode).toBe(200);
    const r = (
      await req('POST', rulesUrl(a), a.auth, { ...httpRule('decoded'), data_kinds: ['signals'], filter: { signals: ['Value'] } })
    ).json();
    receiver.bodies = [];
    const raws = Array.from({ length: 300 }, (_, i) => (i * 37) % 4000);
    await replay(
      t,
      d,
      raws.map((raw, i) => rampFrame(T0 + i * 10_000, raw, 0, i & 0xff)),
    );
    await drain(t);
    const series = receiver
      .messages()
      .filter((m) => m.rule_id === r.id)
      .flatMap((m) => (m.data.signals ?? []) as { signal: string; unit: string; ts: number[]; values: number[] }[]);
    expect(new Set(series.map((s) => s.signal))).toEqual(new Set(['Value']));
    expect(series[0].unit).toBe('km/h');
    expect(series.flatMap((s) => s.ts)).toEqual(raws.map((_, i) => T0 + i * 10_000));
    // RAMP Value: raw × 0.5 − 10 (the DBC's factor and offset).
    expect(series.flatMap((s) => s.values)).toEqual(raws.map((raw) => raw * 0.5 - 10));
    await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
  });

  it('publishes to an MQTT broker on the topic template at QoS 1; a wrong port fails until the rule is fixed', async () => {
    const brokerUrl = process.env.TEST_FORWARD_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
    const prefix = `lhfwd${Math.random().toString(36).slice(2, 8)}`;
    const sub = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
    const got: Forwarded[] = [];
    const topics: string[] = [];
    sub.on('message', (topic, payload) => {
      topics.push(topic);
      got.push(JSON.parse(payload.toString()));
    });
    await sub.subscribeAsync(`${prefix}/#`, { qos: 1 });
    const d = await makeDevice(t, a);
    const dest = { kind: 'mqtt', url: 'mqtt://127.0.0.1:1', topic: `${prefix}/{third_things_id}/{kind}`, qos: 1 };
    const r = (await req('POST', rulesUrl(a), a.auth, { name: 'mqtt', data_kinds: ['frames'], destination: dest })).json();
    try {
      await replay(t, d, trip(2000, T0));
      await drain(t);
      const failing = await poll(
        () => rule(t, a, r.id),
        (x) => x.counters.failed > 0,
        { ms: 15_000 },
      );
      expect(failing.counters.pending).toBeGreaterThan(0);
      expect(got).toHaveLength(0);

      await req('PUT', rulesUrl(a, `/${r.id}`), a.auth, { name: 'mqtt', data_kinds: ['frames'], destination: { ...dest, url: brokerUrl } });
      // The failed messages wait out their back-off (1 s) before the fixed rule sends them.
      await poll(
        () => frameTimes(got, d.id).length,
        (n) => n >= 2000,
        { ms: 15_000 },
      );
      expect(frameTimes(got, d.id)).toEqual(expectedTimes(2000, T0));
      expect(new Set(topics)).toEqual(new Set([`${prefix}/${d.third_things_id}/frames`]));
    } finally {
      await sub.endAsync();
      await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
    }
  });
});
