import { randomBytes } from 'node:crypto';
import { downFilter } from '@loggerhead/can/protocol/topics.ts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Batcher } from '../src/lib/batcher.ts';
import { brokerUrl, issue } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Many loggers connecting at once (a server restart) cost a handful of statements, not several per
 * logger: credentials are read together, a persistent session that subscribes again to what it holds
 * writes nothing, and the queued commands of devices coming online are claimed together.
 */
let t: TestApp;
let tenant: TenantFixture;
const N = 120;
let fleet: { deviceId: string; thingsId: string }[] = [];

/**
 * The statements the app runs while `fn` runs, by their text. Each takes `slowMs` longer, as on a
 * loaded database: connects that arrive meanwhile must wait for the next statement, not each run one.
 */
async function statements<T>(fn: () => Promise<T>, slowMs = 0): Promise<{ result: T; texts: string[] }> {
  const raw = t.database.raw as unknown as { query: (...a: unknown[]) => Promise<unknown> };
  const real = raw.query;
  const texts: string[] = [];
  raw.query = async function (this: unknown, ...a: unknown[]) {
    texts.push(String(a[0]).replace(/\s+/g, ' ').trim());
    if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
    return real.apply(this, a);
  };
  try {
    return { result: await fn(), texts };
  } finally {
    raw.query = real;
  }
}

const count = (texts: string[], re: RegExp) => texts.filter((s) => re.test(s)).length;

/**
 * Every logger of the fleet at once, as the simulator connects: persistent session, then its downlinks.
 * `onMessage` hears each one from before it subscribes: a command may come as soon as it has.
 */
async function connectAll(ids = fleet, onMessage?: (deviceId: string, topic: string) => void): Promise<MqttClient[]> {
  return Promise.all(
    ids.map(async (d) => {
      const c = await connectDevice(brokerUrl(t), d.deviceId, 'stormkey', { clean: false, connectTimeout: 30_000 });
      if (onMessage) c.on('message', (topic) => onMessage(d.deviceId, topic));
      await c.subscribeAsync(downFilter(d.deviceId), { qos: 1 });
      return c;
    }),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await makeTenant(t);
  const type = (await t.database.raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`)).rows[0].id;
  const params: unknown[] = [tenant.tenantId, type];
  const vals: string[] = [];
  for (let i = 0; i < N; i++) {
    vals.push(`($1,$${params.length + 1},$${params.length + 2},$2,'stormkey')`);
    params.push(randomBytes(10).toString('hex').toUpperCase(), `storm-${i}`);
  }
  const { rows } = await t.database.raw.query<{ id: string; third_things_id: string }>(
    `insert into things (tenant_id, third_things_id, name, info_model_id, things_key) values ${vals.join(',')} returning id, third_things_id`,
    params,
  );
  fleet = rows.map((r) => ({ deviceId: r.third_things_id, thingsId: r.id }));
});
afterAll(async () => {
  await t?.close();
});

describe('a connection storm', () => {
  it('accepts every logger with a few statements, refuses a wrong key among them, and sends what waited', async () => {
    // A command waits for one of them while it is offline.
    const target = fleet[7];
    const queued = await issue(t.app, tenant, target.thingsId, {
      operation_name: 'common_fn.send_can',
      operation_params: { frames: [{ id: '0x321', data: 'CAFE' }] },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const intruder = await makeDevice(t, tenant);
    const got = new Map<string, string[]>();

    const { result: clients, texts } = await statements(async () => {
      const wrong = connectDevice(brokerUrl(t), intruder.third_things_id, 'not-its-key').then(
        () => 'accepted',
        (e: Error) => e.message,
      );
      const all = await connectAll(fleet, (deviceId, topic) => got.set(deviceId, [...(got.get(deviceId) ?? []), topic]));
      return { all, wrong: await wrong };
    }, 150);
    expect(clients.all).toHaveLength(N);
    expect(clients.wrong).toMatch(/Bad username or password/i);
    // One read of credentials per group of connects, not one per logger (each used to read its own).
    const lookups = count(texts, /where t\.third_things_id/);
    expect(lookups).toBeGreaterThan(0);
    expect(lookups).toBeLessThanOrEqual(N / 3);
    // New sessions' subscriptions written together; queued commands claimed together; online flags together.
    expect(count(texts, /insert into mqtt_subscriptions/)).toBeLessThanOrEqual(N / 3);
    expect(count(texts, /update device_commands set state = 'sent'/)).toBeLessThanOrEqual(N / 3);
    expect(count(texts, /update things t set is_online/)).toBeLessThanOrEqual(N / 3);

    // The waiting command reached its logger, and only it.
    await poll(
      async () => got.get(target.deviceId)?.length ?? 0,
      (n) => n > 0,
      { ms: 10_000, what: 'the waiting command at its logger' },
    );
    expect([...got.keys()]).toEqual([target.deviceId]);
    expect(got.get(target.deviceId)?.[0]).toMatch(/\/down\/cmd$/);
    // Every logger shows online.
    await poll(
      async () =>
        Number(
          (
            await t.database.raw.query<{ n: string }>('select count(*) as n from things where tenant_id = $1 and is_online', [
              tenant.tenantId,
            ])
          ).rows[0].n,
        ),
      (n) => n === N,
      { ms: 10_000 },
    );
    await Promise.all(clients.all.map((c) => c.endAsync()));
  });

  it('reconnecting persistent sessions that subscribe to what they hold write no subscription', async () => {
    const some = fleet.slice(0, 40);
    // Gone offline, as after a restart.
    await poll(
      async () =>
        Number(
          (
            await t.database.raw.query<{ n: string }>('select count(*) as n from things where tenant_id = $1 and is_online', [
              tenant.tenantId,
            ])
          ).rows[0].n,
        ),
      (n) => n === 0,
      { ms: 10_000 },
    );
    const { result, texts } = await statements(() => connectAll(some));
    expect(result).toHaveLength(some.length);
    expect(count(texts, /insert into mqtt_subscriptions/)).toBe(0);
    // The stored sessions still hold their subscriptions.
    const { rows } = await t.database.raw.query<{ n: string }>(
      'select count(distinct client_id) as n from mqtt_subscriptions where client_id = any($1::text[])',
      [some.map((d) => d.deviceId)],
    );
    expect(Number(rows[0].n)).toBe(some.length);
    await Promise.all(result.map((c) => c.endAsync()));
  });
});

describe('Batcher', () => {
  it('answers each request from one run per group, in order, and refuses a failed group whole', async () => {
    const runs: number[][] = [];
    const b = new Batcher<number, number>(async (xs) => {
      runs.push(xs);
      if (xs.includes(-1)) throw new Error('bad group');
      return xs.map((x) => x * 2);
    }, 3);
    const out = await Promise.all([1, 2, 3, 4, 5].map((x) => b.call(x)));
    expect(out).toEqual([2, 4, 6, 8, 10]);
    expect(runs).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    const failed = await Promise.allSettled([b.call(7), b.call(-1)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await b.call(9)).toBe(18);
  });
});
