import * as amqp from 'amqplib';
import { Redis } from 'ioredis';
import { connect as natsConnect } from 'nats';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSender } from '../src/modules/forward/destinations.ts';
import { forwardOf } from '../src/modules/forward/forward.module.ts';
import { api, drain, type Forwarded, frameTimes, replay, rule, rulesUrl, trip } from './forward.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Forwarding to the brokers and databases the machine runs on their standard local ports (RabbitMQ,
 * NATS with JetStream, Redis, PostgreSQL): each test replays two simulated devices, first to a
 * destination that refuses (wrong credentials, a port nobody listens on, a missing table), then
 * fixed, and reads every frame at the destination, in order per device.
 */
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PG_URL = process.env.TEST_FORWARD_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const T0 = 1_760_000_000_000_000;
const expectedTimes = (n: number, t0: number) => Array.from({ length: n }, (_, i) => t0 + i * 1000);
const unique = () => `lhfwd${Math.random().toString(36).slice(2, 10)}`;

describe('forwarding destinations', () => {
  let t: TestApp;
  let a: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    // Failed rounds are retried after 50 ms, 100 ms …, never dead-lettered within a test.
    forwardOf(t.app).tune({ baseDelayMs: 50, maxAttempts: 100 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Creates the rule with `bad`, replays two devices, checks the rule fails and holds its messages,
   * fixes the destination (`fix`, then the rule updated to `good`), and waits until `read` has every
   * frame of both devices.
   */
  async function refusedThenFixed(
    name: string,
    bad: Record<string, unknown>,
    good: Record<string, unknown>,
    read: () => Promise<Forwarded[]>,
    fix: () => Promise<void> = async () => {},
  ) {
    const req = api(t);
    const d1 = await makeDevice(t, a);
    const d2 = await makeDevice(t, a);
    const body = { name, data_kinds: ['frames'], destination: bad };
    const created = await req('POST', rulesUrl(a), a.auth, body);
    expect(created.statusCode).toBe(200);
    const r = created.json();
    try {
      await Promise.all([replay(t, d1, trip(1500, T0)), replay(t, d2, trip(1000, T0 + 3))]);
      await drain(t, 2000);
      const failing = await poll(
        () => rule(t, a, r.id),
        (x) => x.counters.failed > 0,
        { ms: 15_000 },
      );
      expect(failing.counters.last_error).toBeTruthy();
      expect(failing.counters.pending).toBeGreaterThan(0);
      expect(failing.counters.delivered).toBe(0);

      await fix();
      expect((await req('PUT', rulesUrl(a, `/${r.id}`), a.auth, { ...body, destination: good })).statusCode).toBe(200);
      const got = await poll(read, (m) => frameTimes(m, d1.id).length >= 1500 && frameTimes(m, d2.id).length >= 1000, { ms: 60_000 });
      expect(frameTimes(got, d1.id)).toEqual(expectedTimes(1500, T0));
      expect(frameTimes(got, d2.id)).toEqual(expectedTimes(1000, T0 + 3));
      expect(got.every((m) => m.rule_id === r.id && m.kind === 'frames')).toBe(true);
      const done = await poll(
        () => rule(t, a, r.id),
        (x) => x.counters.pending === 0,
        { ms: 15_000 },
      );
      expect(done.counters.delivered).toBe(new Set(got.map((m) => m.id)).size);
      expect(done.counters.dead_letters).toBe(0);
    } finally {
      await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
    }
  }

  it('RabbitMQ (AMQP, publisher confirms): wrong credentials, then the right ones', async () => {
    const queue = unique();
    const conn = await amqp.connect(AMQP_URL);
    const ch = await conn.createChannel();
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    const got: Forwarded[] = [];
    await ch.consume(
      queue,
      (m) => {
        if (m) got.push(JSON.parse(m.content.toString()));
      },
      { noAck: true },
    );
    try {
      const bad = { kind: 'amqp', url: 'amqp://guest:wrong@127.0.0.1:5672', exchange: '', routing_key: queue };
      const good = { kind: 'amqp', url: AMQP_URL, exchange: '', routing_key: queue };
      await refusedThenFixed('amqp', bad, good, async () => got);
    } finally {
      await ch.deleteQueue(queue).catch(() => {});
      await conn.close();
    }
  });

  it('NATS JetStream (stream acks): a port nobody listens on, then the server', async () => {
    const subject = unique();
    const nc = await natsConnect({ servers: new URL(NATS_URL).host });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: subject, subjects: [`${subject}.>`] });
    try {
      const bad = { kind: 'nats', url: 'nats://127.0.0.1:1', subject: `${subject}.{things_id}.{kind}` };
      const good = { kind: 'nats', url: NATS_URL, subject: `${subject}.{things_id}.{kind}` };
      const js = nc.jetstream();
      const read = async () => {
        const out: Forwarded[] = [];
        const c = await js.consumers.get(subject);
        const info = await jsm.streams.info(subject);
        if (!info.state.messages) return out;
        const batch = await c.fetch({ max_messages: info.state.messages, expires: 2000 });
        for await (const m of batch) {
          out.push(m.json<Forwarded>());
          if (out.length >= info.state.messages) break;
        }
        return out;
      };
      await refusedThenFixed('nats', bad, good, read);
    } finally {
      await jsm.streams.delete(subject).catch(() => {});
      await nc.close();
    }
  });

  it('Redis streams (XADD): a port nobody listens on, then the server', async () => {
    const prefix = unique();
    const r = new Redis(REDIS_URL);
    try {
      const bad = { kind: 'redis', url: 'redis://127.0.0.1:1', stream: `${prefix}:{things_id}` };
      const good = { kind: 'redis', url: REDIS_URL, stream: `${prefix}:{things_id}` };
      const read = async () => {
        const keys = await r.keys(`${prefix}:*`);
        const out: Forwarded[] = [];
        for (const k of keys)
          for (const [, fields] of await r.xrange(k, '-', '+')) out.push(JSON.parse(fields[fields.indexOf('message') + 1]));
        return out;
      };
      await refusedThenFixed('redis', bad, good, read);
    } finally {
      const keys = await r.keys(`${prefix}:*`);
      if (keys.length) await r.del(...keys);
      r.disconnect();
    }
  });

  it("PostgreSQL (the user's table): the table is missing, then created", async () => {
    const schema = unique();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    try {
      const dest = { kind: 'postgres', url: PG_URL, table: `${schema}.fleet_data` };
      const read = async () => {
        const { rows } = await client
          .query<{ payload: Forwarded }>(`select payload from ${schema}.fleet_data order by message_id::bigint`)
          .catch(() => ({ rows: [] as { payload: Forwarded }[] }));
        return rows.map((x) => x.payload);
      };
      await refusedThenFixed('postgres', dest, dest, read, async () => {
        await client.query(
          `create table ${schema}.fleet_data (message_id text primary key, rule_id text, things_id text, kind text, ts timestamptz, payload jsonb)`,
        );
      });
    } finally {
      await client.query(`drop schema ${schema} cascade`).catch(() => {});
      await client.end();
    }
  });

  it('PostgreSQL: a rule changed while an insert is running lets the insert finish, counted delivered once', async () => {
    const schema = unique();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    const req = api(t);
    let ruleId: string | null = null;
    try {
      // Every insert takes a second and a half, so the rule is changed while one runs.
      await client.query(
        `create table ${schema}.fleet_data (message_id text primary key, rule_id text, things_id text, kind text, ts timestamptz, payload jsonb);
         create function ${schema}.slow() returns trigger language plpgsql as $$ begin perform pg_sleep(1.5); return null; end $$;
         create trigger slow before insert on ${schema}.fleet_data for each statement execute function ${schema}.slow();`,
      );
      const d = await makeDevice(t, a);
      const body = {
        name: 'postgres-slow',
        data_kinds: ['frames'],
        destination: { kind: 'postgres', url: PG_URL, table: `${schema}.fleet_data` },
      };
      const created = await req('POST', rulesUrl(a), a.auth, body);
      expect(created.statusCode).toBe(200);
      ruleId = created.json().id as string;
      await replay(t, d, trip(500, T0));
      const running = await poll(
        async () =>
          (
            await client.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and query like $1`,
              [`insert into "${schema}"."fleet_data"%`],
            )
          ).rows[0].n,
        (n) => n > 0,
        { ms: 15_000 },
      );
      expect(running).toBeGreaterThan(0);
      expect((await req('PUT', rulesUrl(a, `/${ruleId}`), a.auth, { ...body, name: 'postgres-slow-renamed' })).statusCode).toBe(200);
      const done = await poll(
        () => rule(t, a, ruleId as string),
        (x) => x.counters.pending === 0,
        { ms: 15_000 },
      );
      const { rows } = await client.query<{ payload: Forwarded }>(`select payload from ${schema}.fleet_data order by message_id::bigint`);
      expect(
        frameTimes(
          rows.map((x) => x.payload),
          d.id,
        ),
      ).toEqual(expectedTimes(500, T0));
      expect(done.counters).toMatchObject({ pending: 0, delivered: rows.length, failed: 0, dead_letters: 0 });
    } finally {
      if (ruleId) await req('DELETE', rulesUrl(a, `/${ruleId}`), a.auth);
      await client.query(`drop schema ${schema} cascade`).catch(() => {});
      await client.end();
    }
  });

  it('PostgreSQL: a message sent again is skipped by the unique message_id, not refused', async () => {
    const schema = unique();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    const sender = await openSender({ kind: 'postgres', url: PG_URL, table: `${schema}.fleet_data`, timeout_ms: 30_000 }, t.app.ctx.egress);
    try {
      await client.query(
        `create table ${schema}.fleet_data (message_id text primary key, rule_id text, things_id text, kind text, ts timestamptz, payload jsonb)`,
      );
      const m = (id: string) => ({
        id,
        rule_id: 'r',
        tenant_id: a.tenantId,
        things_id: null,
        third_things_id: null,
        kind: 'status',
        ts: 1,
        data: { id },
      });
      await sender.send([m('1'), m('2')]);
      // The round's acknowledgement was lost after the commit: it is sent again, with the next message.
      await sender.send([m('1'), m('2'), m('3')]);
      const { rows } = await client.query<{ message_id: string }>(`select message_id from ${schema}.fleet_data order by message_id`);
      expect(rows.map((r) => r.message_id)).toEqual(['1', '2', '3']);
    } finally {
      await sender.close();
      await client.query(`drop schema ${schema} cascade`).catch(() => {});
      await client.end();
    }
  });

  it('PostgreSQL: a locked table fails the round within the time-out, with a clear error, and delivers once released', async () => {
    const schema = unique();
    const client = new pg.Client({ connectionString: PG_URL });
    const locker = new pg.Client({ connectionString: PG_URL });
    await Promise.all([client.connect(), locker.connect()]);
    await client.query(`create schema ${schema}`);
    const req = api(t);
    let ruleId: string | null = null;
    try {
      await client.query(
        `create table ${schema}.fleet_data (message_id text primary key, rule_id text, things_id text, kind text, ts timestamptz, payload jsonb)`,
      );
      // Another session holds the table in an open transaction: every insert into it waits.
      await locker.query('begin');
      await locker.query(`lock table ${schema}.fleet_data in access exclusive mode`);

      // The sender alone: its insert gives up after the time-out instead of waiting for the lock.
      const sender = await openSender({ kind: 'postgres', url: PG_URL, table: `${schema}.fleet_data`, timeout_ms: 800 }, t.app.ctx.egress);
      const started = Date.now();
      const err = await sender
        .send([{ id: '1', rule_id: 'r', tenant_id: a.tenantId, things_id: null, third_things_id: null, kind: 'status', ts: 1, data: {} }])
        .then(
          () => null,
          (e: Error) => e,
        );
      const took = Date.now() - started;
      await sender.close();
      expect(err?.message).toBe(`PostgreSQL: the insert into ${schema}.fleet_data took longer than 800 ms (is the table locked?)`);
      expect(took).toBeGreaterThanOrEqual(700);
      expect(took).toBeLessThan(800 + 5_000);

      // Through a rule: the round fails with that error and the messages wait; released, they arrive.
      const d = await makeDevice(t, a);
      const body = {
        name: 'postgres-locked',
        data_kinds: ['frames'],
        destination: { kind: 'postgres', url: PG_URL, table: `${schema}.fleet_data`, timeout_ms: 800 },
      };
      const created = await req('POST', rulesUrl(a), a.auth, body);
      expect(created.statusCode).toBe(200);
      ruleId = created.json().id as string;
      await replay(t, d, trip(300, T0));
      const failing = await poll(
        () => rule(t, a, ruleId as string),
        (x) => x.counters.failed > 0,
        { ms: 15_000 },
      );
      expect(failing.counters.last_error).toBe(
        `PostgreSQL: the insert into ${schema}.fleet_data took longer than 800 ms (is the table locked?)`,
      );
      expect(failing.counters).toMatchObject({ delivered: 0 });
      expect(failing.counters.pending).toBeGreaterThan(0);

      await locker.query('rollback');
      const done = await poll(
        () => rule(t, a, ruleId as string),
        (x) => x.counters.pending === 0,
        { ms: 30_000 },
      );
      const { rows } = await client.query<{ payload: Forwarded }>(`select payload from ${schema}.fleet_data order by message_id::bigint`);
      expect(
        frameTimes(
          rows.map((x) => x.payload),
          d.id,
        ),
      ).toEqual(expectedTimes(300, T0));
      expect(done.counters.delivered).toBe(rows.length);
    } finally {
      if (ruleId) await req('DELETE', rulesUrl(a, `/${ruleId}`), a.auth);
      await locker.query('rollback').catch(() => {});
      await locker.end();
      await client.query(`drop schema ${schema} cascade`).catch(() => {});
      await client.end();
    }
  });

  it('tests a connection to each destination kind it can reach', async () => {
    const req = api(t);
    const test = async (destination: object) => (await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination })).json();
    expect(await test({ kind: 'amqp', url: AMQP_URL, routing_key: unique() })).toMatchObject({ ok: true });
    expect(await test({ kind: 'amqp', url: 'amqp://guest:wrong@127.0.0.1:5672', routing_key: 'x' })).toMatchObject({ ok: false });
    expect(await test({ kind: 'redis', url: REDIS_URL, stream: unique() })).toMatchObject({ ok: true });
    expect(await test({ kind: 'redis', url: 'redis://127.0.0.1:1', stream: 'x' })).toMatchObject({ ok: false });
    // No stream captures this subject: JetStream does not acknowledge it.
    expect(await test({ kind: 'nats', url: NATS_URL, subject: `${unique()}.nothing` })).toMatchObject({ ok: false });
    // No Kafka broker runs here: the client fails to connect and says so.
    const kafka = await test({ kind: 'kafka', brokers: ['127.0.0.1:1'], topic: 'x' });
    expect(kafka.ok).toBe(false);
    expect(kafka.error).toBeTruthy();
  });
});
