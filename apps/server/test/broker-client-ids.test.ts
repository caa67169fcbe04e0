import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynsecAccounts } from '../src/ingest/dynsec.ts';
import type { App } from '../src/lib/fastify.ts';
import { healthRoutes } from '../src/modules/health/health.routes.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { batch } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { freePort, startMosquitto, tryConnect } from './services.helpers.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

type Device = { id: string; third_things_id: string; things_key: string };
type Control = { command: string; [k: string]: unknown };

const storedFrames = async (t: TestApp, thingsId: string) =>
  (
    await t.database.raw.query<{ n: number }>('select coalesce(sum(frame_count), 0)::int as n from frame_chunks where things_id = $1', [
      thingsId,
    ])
  ).rows[0].n;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The messages a client receives, by topic. */
function inbox(client: mqtt.MqttClient) {
  const got: { topic: string; payload: string }[] = [];
  client.on('message', (topic, payload) => got.push({ topic, payload: payload.toString() }));
  return got;
}

/** Connects like `tryConnect`, with the inbox open from the first packet (a resumed session's queue comes right after the CONNACK). */
function connectWithInbox(port: number, d: Device, o: Partial<mqtt.IClientOptions>) {
  return new Promise<{ ok: boolean; client: mqtt.MqttClient; sessionPresent: boolean; got: { topic: string; payload: string }[] }>(
    (resolve) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
        clientId: d.third_things_id,
        username: d.third_things_id,
        password: d.things_key,
        reconnectPeriod: 0,
        connectTimeout: 5000,
        ...o,
      });
      const got = inbox(client);
      client.once('connect', (ack) => resolve({ ok: true, client, sessionPresent: ack.sessionPresent, got }));
      client.once('error', () => {
        client.end(true);
        resolve({ ok: false, client, sessionPresent: false, got });
      });
    },
  );
}

/**
 * The class of issue #29 on the scale-out path: on Mosquitto with dynamic security, a device's client
 * id is its account's alone. Another device (of the same tenant or another) cannot connect under it,
 * so it can neither close the device's connection nor resume its session and its queued commands;
 * and it can reach no other device's topics. Accounts the broker loses are put back.
 */
describe('client ids bound to device accounts on Mosquitto with dynamic security', () => {
  let broker: Awaited<ReturnType<typeof startMosquitto>>;
  let t: TestApp;
  let a1: Device;
  let a2: Device;
  let b1: Device;
  /** The broker's admin account, as an operator would use it (the servers' account). */
  let admin: mqtt.MqttClient;
  let answers: { responses: { command: string; error?: string; correlationData?: string }[] }[] = [];

  /** The test's own commands, told from the server's answers (every admin gets every answer) by their correlation data. */
  const control = async (commands: Control[]) => {
    const id = `test-${Math.random().toString(36).slice(2)}`;
    await admin.publishAsync(
      '$CONTROL/dynamic-security/v1',
      JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }),
      { qos: 1 },
    );
    return (await poll(
      async () => answers.find((a) => a.responses[0]?.correlationData === id),
      (a) => a !== undefined,
    )) as (typeof answers)[number];
  };

  const accounts = () => {
    const a = t.app.ctx.ingest.accounts;
    if (!a) throw new Error('MQTT_DYNSEC is on: the accounts must exist');
    return a;
  };

  /** Waits until the device's own account lets it in (the server creates it right after the device). */
  const admitted = (d: Device) =>
    poll(
      () =>
        tryConnect(broker.port, d.third_things_id, d.things_key).then((r) => {
          r.client.end(true);
          return r.ok;
        }),
      (ok) => ok,
    );

  beforeAll(async () => {
    broker = await startMosquitto();
    t = await createTestApp({ mqttUrl: broker.url, mqttDynsec: true });
    const tenantA = await makeTenant(t);
    const tenantB = await makeTenant(t);
    a1 = await makeDevice(t, tenantA);
    a2 = await makeDevice(t, tenantA);
    b1 = await makeDevice(t, tenantB);
    for (const d of [a1, a2, b1]) expect(await admitted(d)).toBe(true);
    admin = mqtt.connect(broker.url, { clientId: `test-admin-${Math.random().toString(36).slice(2, 8)}`, protocolVersion: 5 });
    await new Promise((r) => admin.once('connect', r));
    admin.on('message', (_topic, payload) => answers.push(JSON.parse(payload.toString())));
    await admin.subscribeAsync('$CONTROL/dynamic-security/v1/response', { qos: 1 });
  });
  afterAll(async () => {
    await admin?.endAsync().catch(() => {});
    await t?.close();
    await broker?.stop();
  });

  it("refuses a device under another device's client id, of its tenant or another, and the victim stays connected", async () => {
    const victim = await tryConnect(broker.port, b1.third_things_id, b1.things_key, { clean: false });
    expect(victim.ok).toBe(true);
    let kicked = false;
    victim.client.on('close', () => {
      kicked = true;
    });
    const got = inbox(victim.client);
    await victim.client.subscribeAsync(`lh/v1/${b1.third_things_id}/down/#`, { qos: 1 });

    const foreign = [
      b1.third_things_id, // another tenant's device
      a2.third_things_id, // a device of its own tenant
      `${b1.third_things_id}-modem2`, // the suffixed form of another device's id
      `${a1.third_things_id}-modem2`, // its own id with a suffix: the broker binds the exact id
      'lh-anything-server', // an id of the servers' form
    ];
    for (const clientId of foreign)
      for (const protocolVersion of [4, 5] as const) {
        const r = await tryConnect(broker.port, a1.third_things_id, a1.things_key, { clientId, protocolVersion, clean: false });
        r.client.end(true);
        expect({ clientId, protocolVersion, ok: r.ok }).toEqual({ clientId, protocolVersion, ok: false });
      }

    // The victim was never closed, and its commands still reach it and only it.
    await admin.publishAsync(`lh/v1/${b1.third_things_id}/down/cmd`, '{"correlation_id":"c-live"}', { qos: 1 });
    expect(
      await poll(
        async () => got.length,
        (n) => n === 1,
      ),
    ).toBe(1);
    expect(kicked).toBe(false);
    expect(victim.client.connected).toBe(true);
    victim.client.end(true);
  });

  it("keeps a device off every other device's topics: wildcards, another's down topics, publishing as another", async () => {
    const me = await tryConnect(broker.port, a1.third_things_id, a1.things_key);
    expect(me.ok).toBe(true);
    const other = await tryConnect(broker.port, b1.third_things_id, b1.things_key);
    const otherGot = inbox(other.client);
    await other.client.subscribeAsync(`lh/v1/${b1.third_things_id}/down/#`, { qos: 1 });
    for (const filter of [
      '#',
      'lh/#',
      'lh/v1/#',
      'lh/v1/+/down/#',
      'lh/v1/+/up/#',
      `lh/v1/${b1.third_things_id}/down/#`,
      `lh/v1/${a2.third_things_id}/down/cmd`,
      `$share/x/lh/v1/+/up/#`,
      'loggerhead/cluster/#',
    ])
      await expect(me.client.subscribeAsync(filter, { qos: 1 }), filter).rejects.toThrow(/subscribe/i);
    // Publishing on another device's topics: its uplinks are not stored, its downlinks not delivered.
    const t0 = Date.now() * 1000 - 3_000_000;
    await me.client.publishAsync(upTopic(b1.third_things_id, 'frames'), batch(0, t0), { qos: 1 });
    await me.client.publishAsync(upTopic(a2.third_things_id, 'frames'), batch(0, t0), { qos: 1 });
    await me.client.publishAsync(`lh/v1/${b1.third_things_id}/down/cmd`, '{"correlation_id":"forged"}', { qos: 1 });
    await me.client.publishAsync(upTopic(a1.third_things_id, 'frames'), batch(0, t0), { qos: 1 });
    expect(
      await poll(
        () => storedFrames(t, a1.id),
        (n) => n === 100,
      ),
    ).toBe(100);
    expect(await storedFrames(t, b1.id)).toBe(0);
    expect(await storedFrames(t, a2.id)).toBe(0);
    expect(otherGot).toEqual([]);
    me.client.end(true);
    other.client.end(true);
  });

  it("never hands a device's persistent session, and the commands queued in it, to anyone else", async () => {
    // B1 leaves a session with a subscription; a command is queued in it while B1 is away.
    const first = await tryConnect(broker.port, b1.third_things_id, b1.things_key, {
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: 3600 },
    });
    expect(first.ok).toBe(true);
    await first.client.subscribeAsync(`lh/v1/${b1.third_things_id}/down/#`, { qos: 1 });
    await first.client.endAsync();
    await admin.publishAsync(`lh/v1/${b1.third_things_id}/down/cmd`, '{"correlation_id":"c-queued","url":"one-time"}', { qos: 1 });

    // A1 asks for that session under B1's client id, in both protocol versions: refused, nothing delivered.
    for (const protocolVersion of [4, 5] as const) {
      const thief = await connectWithInbox(broker.port, a1, {
        clientId: b1.third_things_id,
        clean: false,
        protocolVersion,
        ...(protocolVersion === 5 ? { properties: { sessionExpiryInterval: 3600 } } : {}),
      });
      const stolen = thief.got;
      await sleep(300);
      thief.client.end(true);
      expect({ protocolVersion, ok: thief.ok, stolen }).toEqual({ protocolVersion, ok: false, stolen: [] });
    }

    // B1 comes back to its session, queued command included.
    const back = await connectWithInbox(broker.port, b1, {
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: 3600 },
    });
    const got = back.got;
    expect(back.ok).toBe(true);
    expect(back.sessionPresent).toBe(true);
    expect(
      await poll(
        async () => got.map((m) => JSON.parse(m.payload).correlation_id),
        (ids) => ids.includes('c-queued'),
      ),
    ).toContain('c-queued');
    back.client.end(true);
  });

  it('binds the client id of an account made before the rule at the next reconciliation', async () => {
    // As an older server left it: no client id on the client, no receive rule on its role.
    const res = await control([
      { command: 'setClientId', username: a2.third_things_id },
      { command: 'removeRoleACL', rolename: `loggerhead-device-${a2.third_things_id}`, acltype: 'publishClientReceive', topic: '#' },
    ]);
    expect(res.responses.map((r) => r.error ?? 'ok')).toEqual(['ok', 'ok']);
    const loose = await tryConnect(broker.port, a2.third_things_id, a2.things_key, { clientId: b1.third_things_id });
    loose.client.end(true);
    expect(loose.ok).toBe(true); // the hole this closes

    expect(await accounts().reconcile()).toMatchObject({ created: 0, repaired: 1, removed: 0 });
    const bound = await tryConnect(broker.port, a2.third_things_id, a2.things_key, { clientId: b1.third_things_id });
    bound.client.end(true);
    expect(bound.ok).toBe(false);
    expect(await admitted(a2)).toBe(true);
    expect(await accounts().reconcile()).toEqual({ created: 0, rekeyed: 0, repaired: 0, removed: 0 });
  });

  it("leaves alone the accounts it did not make: an operator's, another deployment's devices on the same broker", async () => {
    const foreignDevice = 'EEEEEEEEEEEEEEEE0001';
    const made = await control([
      { command: 'createRole', rolename: `loggerhead-device-${foreignDevice}` },
      {
        command: 'createClient',
        username: foreignDevice,
        clientid: foreignDevice,
        password: 'another-deployment-key',
        roles: [{ rolename: `loggerhead-device-${foreignDevice}` }],
      },
      { command: 'createClient', username: 'operator-tool', password: 'Operator-Pass-1234' },
    ]);
    expect(made.responses.map((r) => r.error ?? 'ok')).toEqual(['ok', 'ok', 'ok']);
    expect(await accounts().reconcile()).toEqual({ created: 0, rekeyed: 0, repaired: 0, removed: 0 });
    const still = await control([
      { command: 'getClient', username: foreignDevice },
      { command: 'getClient', username: 'operator-tool' },
    ]);
    expect(still.responses.map((r) => r.error ?? 'ok')).toEqual(['ok', 'ok']);
  });

  it('puts back with the stored keys the accounts a broker lost, at the reconciliation and when the broker comes back', async () => {
    // Deleted on the broker behind the server's back: the database still says they were given.
    await control([{ command: 'deleteClient', username: a1.third_things_id }]);
    const gone = await tryConnect(broker.port, a1.third_things_id, a1.things_key);
    gone.client.end(true);
    expect(gone.ok).toBe(false);
    expect(await accounts().reconcile()).toMatchObject({ created: 1, removed: 0 });
    expect(await admitted(a1)).toBe(true);

    // The broker restarts with a dynamic-security file that lost every account (one it could not write).
    await admin.endAsync();
    await broker.restart({ loseAccounts: true });
    for (const d of [a1, a2, b1]) expect(await admitted(d)).toBe(true);
    // Bound as before: the client id is still the account's alone.
    const r = await tryConnect(broker.port, a1.third_things_id, a1.things_key, { clientId: b1.third_things_id });
    r.client.end(true);
    expect(r.ok).toBe(false);
    admin = mqtt.connect(broker.url, { clientId: `test-admin-${Math.random().toString(36).slice(2, 8)}`, protocolVersion: 5 });
    await new Promise((res) => admin.once('connect', res));
    answers = [];
    admin.on('message', (_topic, payload) => answers.push(JSON.parse(payload.toString())));
    await admin.subscribeAsync('$CONTROL/dynamic-security/v1/response', { qos: 1 });
  });

  it('says in the health check when the broker refuses the control commands, and when it takes them again', async () => {
    const health = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
      return { code: res.statusCode, accounts: res.json().broker_accounts, status: res.json().status };
    };
    expect(await health()).toEqual({ code: 200, accounts: 'ok', status: 'ok' });
    // A servers' account the plugin gives no rights to (as an operator who forgot the admin role):
    // its own account copy, so that the broker's answers to the test's admin stay as they are.
    expect(
      (await control([{ command: 'createClient', username: 'weak', password: 'Weak-Password-1234' }])).responses[0].error,
    ).toBeUndefined();
    const warned: string[] = [];
    const log = {
      info: () => {},
      warn: () => {},
      error: (_o: object, msg: string) => {
        warned.push(msg);
      },
    };
    const weak = new DynsecAccounts({
      url: broker.url.replace('lh-admin:Dynsec-Admin-1234', 'weak:Weak-Password-1234'),
      clientId: 'lh-weak-accounts',
      raw: t.database.raw,
      log: log as never,
      timeoutMs: 2000,
    });
    try {
      // The start cannot make the server role: the broker does not do what this account asks.
      await expect(weak.start()).rejects.toThrow();
      expect(weak.state()).toBe('refused');
      expect(warned.some((m) => /refuses or does not answer/.test(m))).toBe(true);
      // The health check of a server with such accounts says so, and is a 503 (the route's rule,
      // with the state this account copy reached against the real broker).
      const probe = Fastify().withTypeProvider() as unknown as App;
      probe.setValidatorCompiler(validatorCompiler);
      probe.setSerializerCompiler(serializerCompiler);
      healthRoutes(probe, {
        db: async () => true,
        broker: () => true,
        accounts: () => weak.state(),
        diskLow: () => false,
        version: 't',
        lag: () => ({ p99_ms: 0, max_ms: 0, window_s: 0 }),
      });
      const refused = await probe.inject({ method: 'GET', url: '/v1/health' });
      expect([refused.statusCode, refused.json().broker_accounts, refused.json().status]).toEqual([503, 'refused', 'degraded']);
      // The operator gives the account the plugin's admin role: the broker closes its connection
      // (its rights changed), the account copy comes back, reconciles, and the state is ok again.
      expect((await control([{ command: 'addClientRole', username: 'weak', rolename: 'admin' }])).responses[0].error).toBeUndefined();
      await poll(
        () =>
          weak
            .reconcile()
            .catch(() => {})
            .then(() => weak.state()),
        (s) => s === 'ok',
        { ms: 45_000, what: 'the accounts ok again once the broker takes the commands' },
      );
      const ok = await probe.inject({ method: 'GET', url: '/v1/health' });
      expect([ok.statusCode, ok.json().broker_accounts]).toEqual([200, 'ok']);
      await probe.close();
    } finally {
      await weak.close();
    }
  });
});

/**
 * The password-file set-up of docs/device-protocol.md, as written there: the devices' listener makes
 * every client id the username, the servers connect on a listener of their own.
 */
describe('client ids on the documented password-file and ACL-file Mosquitto', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-passwd-'));
  let proc: ChildProcess;
  let devicePort: number;
  let serverPort: number;
  const A1 = { id: 'A1A1A1A1A1A1A1A1A1A1', key: 'key-of-a1-0123456789' };
  const B1 = { id: 'B1B1B1B1B1B1B1B1B1B1', key: 'key-of-b1-0123456789' };
  const connect = (port: number, user: string, password: string, o: Partial<mqtt.IClientOptions> = {}) =>
    new Promise<{ ok: boolean; client: mqtt.MqttClient; got: { topic: string; payload: string }[] }>((resolve) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { username: user, password, reconnectPeriod: 0, connectTimeout: 5000, ...o });
      const got = inbox(client);
      client.once('connect', () => resolve({ ok: true, client, got }));
      client.once('error', () => {
        client.end(true);
        resolve({ ok: false, client, got });
      });
    });

  beforeAll(async () => {
    devicePort = await freePort();
    serverPort = await freePort();
    execFileSync('mosquitto_passwd', ['-c', '-b', path.join(dir, 'passwd'), A1.id, A1.key]);
    execFileSync('mosquitto_passwd', ['-b', path.join(dir, 'passwd'), B1.id, B1.key]);
    execFileSync('mosquitto_passwd', ['-c', '-b', path.join(dir, 'passwd-servers'), 'loggerhead', 'Server-Pass-1234']);
    // The ACL file of the docs, word for word from its first line to the cluster topic.
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/device-protocol.md'), 'utf8');
    const acl = doc.slice(doc.indexOf('# /etc/mosquitto/acl'), doc.indexOf('topic readwrite loggerhead/cluster/#'));
    expect(acl).toContain('pattern read  lh/v1/%u/down/#');
    fs.writeFileSync(path.join(dir, 'acl'), `${acl}topic readwrite loggerhead/cluster/#\n`);
    const conf = path.join(dir, 'mosquitto.conf');
    fs.writeFileSync(
      conf,
      [
        'per_listener_settings true',
        'persistence false',
        `user ${os.userInfo().username}`,
        `listener ${devicePort} 127.0.0.1`,
        'allow_anonymous false',
        'use_username_as_clientid true',
        `password_file ${path.join(dir, 'passwd')}`,
        `acl_file ${path.join(dir, 'acl')}`,
        `listener ${serverPort} 127.0.0.1`,
        'allow_anonymous false',
        `password_file ${path.join(dir, 'passwd-servers')}`,
        `acl_file ${path.join(dir, 'acl')}`,
        '',
      ].join('\n'),
    );
    proc = spawn(fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto', ['-c', conf], { stdio: 'ignore' });
    await poll(
      () =>
        connect(serverPort, 'loggerhead', 'Server-Pass-1234').then((r) => {
          r.client.end(true);
          return r.ok;
        }),
      (ok) => ok,
      { ms: 10_000 },
    );
  });
  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("gives a device its own id whatever it asks: it never closes another's connection nor resumes its session", async () => {
    const server = await connect(serverPort, 'loggerhead', 'Server-Pass-1234', { clientId: 'lh-test-server' });
    const victim = await connect(devicePort, B1.id, B1.key, { clientId: B1.id, clean: false });
    expect(victim.ok).toBe(true);
    let kicked = false;
    victim.client.on('close', () => {
      kicked = true;
    });
    await victim.client.subscribeAsync(`lh/v1/${B1.id}/down/#`, { qos: 1 });

    // A1 asks for B1's client id (and the servers' one) and a persistent session: it gets its own id.
    for (const clientId of [B1.id, 'lh-test-server']) {
      const thief = await connect(devicePort, A1.id, A1.key, { clientId, clean: false });
      expect(thief.ok).toBe(true);
      // The ACL file grants the SUBACK and checks each delivery against %u: nothing of B1's arrives.
      await thief.client.subscribeAsync(`lh/v1/${B1.id}/down/#`, { qos: 1 });
      await server.client.publishAsync(`lh/v1/${B1.id}/down/cmd`, `{"correlation_id":"to-b1-${clientId}"}`, { qos: 1 });
      await poll(
        async () => victim.got.length,
        (n) => n >= 1,
      );
      await sleep(200);
      thief.client.end(true);
      expect(thief.got).toEqual([]);
    }
    expect(victim.got.map((m) => JSON.parse(m.payload).correlation_id)).toEqual([`to-b1-${B1.id}`, 'to-b1-lh-test-server']);
    expect(kicked).toBe(false);
    expect(server.client.connected).toBe(true);
    // A device on the servers' listener: not in its password file.
    expect((await connect(serverPort, A1.id, A1.key, { clientId: B1.id })).ok).toBe(false);
    victim.client.end(true);
    server.client.end(true);
  });
});
