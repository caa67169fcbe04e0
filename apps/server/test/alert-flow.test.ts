import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CanFrame } from '@loggerhead/can';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import type { MqttClient } from 'mqtt';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsOf } from '../src/modules/alert/alert.module.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * The whole alarm path on real parts: frames committed by the chunk writer, the rule engine on its
 * `committed` event, e-mail to a real SMTP server, SMS to an HTTP provider, the command as an MQTT
 * downlink to a device connected to the embedded broker, in-app messages, the events API.
 */
const mails: { to: string; data: string }[] = [];
const texts: Record<string, unknown>[] = [];
let smtpFailing = false;
let smtp: SMTPServer;
let provider: http.Server;
let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let device: { id: string; third_things_id: string; things_key: string };
let mqtt: MqttClient;
const commands: Record<string, unknown>[] = [];
let now = Date.UTC(2026, 0, 5, 8, 0, 0);
let seq = 0;

const RULE_NAME = '<img src=x onerror=alert(1)> Coolant';

function frames(values: number[], t0: number, id = 0x321): CanFrame[] {
  return values.map((v, i) => ({
    ts: t0 + i * 1000,
    channel: 0,
    id,
    ext: false,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx: false,
    data: new Uint8Array([v, 0, 0, 0, 0, 0, 0, 0]),
  }));
}

/** Commits a batch as the ingest does and waits for rules, dispatch and first send attempts. */
async function ingest(values: number[], id = 0x321) {
  const data = encodeBatch(frames(values, now * 1000, id), { session: 9, seq: ++seq });
  const info = checkBatch(data);
  if (typeof info === 'string') throw new Error(info);
  await t.app.ctx.ingest.writer.write({ tenantId: a.tenantId, thingsId: device.id, info, data });
  await alertsOf(t.app).idle();
}

const hot = () => ingest(Array.from({ length: 500 }, () => 200));
const cool = () => ingest([10]);

async function alertLogs(channel: string) {
  const { rows } = await t.database.raw.query<{ status: string; attempts: number; text: string; error: string | null }>(
    `select status, attempts, text, error from push_logs where tenant_id = $1 and purpose = 'alert' and channel = $2 order by created_at`,
    [a.tenantId, channel],
  );
  return rows;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onRcptTo(_address, _session, cb) {
      if (smtpFailing) return cb(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
      cb();
    },
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (c) => {
        data += c;
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), data });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  provider = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      texts.push(JSON.parse(raw));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    smsUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/send`,
    mailFrom: 'Loggerhead <alarms@test.local>',
  });
  alertsOf(t.app).clock.now = () => now;
  a = await makeTenant(t);
  b = await makeTenant(t);
  // Alert e-mail and SMS follow the tenant's console language (zh by default): this tenant uses English.
  const lang = await t.app.inject({
    method: 'PUT',
    url: `/v1/tenant/tenants/${a.tenantId}/customization`,
    headers: { authorization: a.auth },
    payload: { data: [{ key: 'systemLanguage', value: 'en' }] },
  });
  expect(lang.statusCode, lang.body).toBe(200);
  device = await makeDevice(t, a, { name: 'Truck 7' });
  mqtt = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, device.third_things_id, device.things_key);
  mqtt.on('message', (_topic, payload) => commands.push(JSON.parse(payload.toString())));
  await mqtt.subscribeAsync(`lh/v1/${device.third_things_id}/down/cmd`, { qos: 1 });
});
afterAll(async () => {
  await mqtt?.endAsync();
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe('alarm flow', () => {
  let ruleId: string;

  it('fires on the first matching frame: event, e-mail through SMTP, SMS, command downlink, in-app message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/alert-mgmt/tenants/${a.tenantId}/trigger-rules`,
      headers: { authorization: a.auth },
      payload: {
        name: RULE_NAME,
        things_id: device.id,
        channel: 0,
        frame_id: '321',
        level: 'urgent',
        alert_description: 'Coolant above 100 °C',
        conditions: [{ source: 'data', start_byte: 0, op: '>', value: 100 }],
        actions: {
          email: ['fleet@example.com'],
          sms: ['13900001111'],
          command: { operation_name: 'buzzer', operation_params: { on: true } },
        },
        recover_action: { command: { operation_name: 'buzzer', operation_params: { on: false } } },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    ruleId = res.json().id;

    await hot();
    const events = await t.app.inject({
      method: 'GET',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events`,
      headers: { authorization: a.auth },
    });
    expect(events.json().total).toBe(1);
    const ev = events.json().list[0];
    expect(ev).toMatchObject({
      rule_id: ruleId,
      rule_name: RULE_NAME,
      things_id: device.id,
      level: 'urgent',
      source_type: 'trigger',
      handler_status: 0,
    });
    expect(ev.event_data).toMatchObject({ frame_id: '0x321', channel: 0, value: 200, data: 'c800000000000000', ts: now });

    await poll(
      async () => mails.length,
      (n) => n === 1,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('fleet@example.com');
    expect(mails[0].data).toContain('Truck 7');
    expect(mails[0].data).toContain('Coolant above 100');
    expect(mails[0].data).toContain('0x321');
    // The rule name goes out as typed, in a plain-text mail.
    expect(mails[0].data).toContain(RULE_NAME);
    expect(mails[0].data).toMatch(/Subject: .*Urgent alarm/);
    expect((await alertLogs('email')).map((r) => r.status)).toEqual(['sent']);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ to: '13900001111', kind: 'sms' });

    await poll(
      async () => commands.length,
      (n) => n === 1,
    );
    expect(commands[0]).toMatchObject({
      message_type: 0,
      things_id: device.id,
      third_things_id: device.third_things_id,
      payload: { operation_name: 'buzzer', operation_params: { on: true } },
    });

    const { rows } = await t.database.raw.query<{ title: string; message_type: string }>(
      'select title, message_type from user_messages where user_id = $1',
      [a.managerId],
    );
    expect(rows).toEqual([{ title: `Urgent alarm: ${RULE_NAME}`, message_type: 'alert' }]);
  });

  it('runs the recover action when the condition clears and closes the event', async () => {
    await cool();
    await poll(
      async () => commands.length,
      (n) => n === 2,
    );
    expect(commands[1]).toMatchObject({ payload: { operation_name: 'buzzer', operation_params: { on: false } } });
    const ev = (
      await t.app.inject({ method: 'GET', url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events`, headers: { authorization: a.auth } })
    ).json().list[0];
    expect(ev.recovered_at).toBe(new Date(now).toISOString());
    expect(ev.event_data.recover).toMatchObject({ value: 10 });
  });

  it('under a flood sends e-mail at most once per 30 minutes and the command at most once per minute', async () => {
    now += 10_000;
    for (let i = 0; i < 10; i++) {
      await hot();
      await cool();
    }
    // Ten more edges, ten more events: the frequency limits the actions, not the record.
    const total = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?rule_id=${ruleId}`,
        headers: { authorization: a.auth },
      })
    ).json().total;
    expect(total).toBe(11);
    expect(await alertLogs('email')).toHaveLength(1);
    expect(texts).toHaveLength(1);
    expect(commands.filter((c) => (c.payload as { operation_params: { on: boolean } }).operation_params.on)).toHaveLength(1);

    now += 51_000; // 61 s after the first command
    await hot();
    await poll(
      async () => commands.length,
      (n) => n === 3,
    );
    expect(commands.filter((c) => (c.payload as { operation_params: { on: boolean } }).operation_params.on)).toHaveLength(2);
    expect(await alertLogs('email')).toHaveLength(1);
    // Each command is in the device's command list, made by the rule's owner.
    const { rows: issued } = await t.database.raw.query<{ correlation_id: string; created_by: string }>(
      `select correlation_id, created_by from device_commands where things_id = $1 and operation_name = 'buzzer' order by created_at`,
      [device.id],
    );
    expect(issued.map((r) => r.correlation_id)).toEqual(commands.map((c) => c.correlation_id));
    expect(new Set(issued.map((r) => r.created_by))).toEqual(new Set([a.managerId]));
    await cool();

    now += 29 * 60_000; // 30 min 1 s after the first e-mail
    await hot();
    await poll(
      async () => mails.length,
      (n) => n === 2,
    );
    expect((await alertLogs('email')).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(texts).toHaveLength(2);
    await cool();
  });

  it('retries a failed e-mail with back-off and shows the state in the push log', async () => {
    smtpFailing = true;
    now += 31 * 60_000;
    await hot();
    const [, , failed] = await alertLogs('email');
    expect(failed.status).toBe('queued');
    expect(failed.attempts).toBe(1);
    expect(failed.error).toContain('mailbox busy');
    const outbox = alertsOf(t.app).outbox;
    // Not due yet (first retry after 30 s).
    now += 10_000;
    expect(await outbox.runDue()).toBe(0);
    smtpFailing = false;
    now += 25_000;
    expect(await outbox.runDue()).toBe(1);
    const [, , retried] = await alertLogs('email');
    expect(retried).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(mails).toHaveLength(3);
    await cool();
  });

  it('marks an e-mail failed, never dropped, after the last attempt', async () => {
    smtpFailing = true;
    now += 31 * 60_000;
    await hot();
    const outbox = alertsOf(t.app).outbox;
    // Seven retries, each after its back-off (at most an hour), then it gives up.
    for (let i = 0; i < 7; i++) {
      now += 3600_000;
      expect(await outbox.runDue()).toBe(1);
    }
    const last = (await alertLogs('email')).at(-1);
    expect(last).toMatchObject({ status: 'failed', attempts: 8 });
    expect(last?.error).toContain('mailbox busy');
    now += 3600_000;
    expect(await outbox.runDue()).toBe(0);
    smtpFailing = false;
    await cool();
  });

  it('stops SMS at the package allowance and says so in the push log', async () => {
    const sent = (await alertLogs('sms')).filter((r) => r.status !== 'failed').length;
    await t.database.raw.query('update tenant_packages set alert_sms = $2 where tenant_id = $1', [a.tenantId, sent]);
    now += 31 * 60_000;
    await hot();
    const last = (await alertLogs('sms')).at(-1);
    expect(last).toMatchObject({ status: 'failed', attempts: 0 });
    expect(last?.error).toContain('alert_sms');
    expect(texts).toHaveLength(sent);
    const ev = (
      await t.app.inject({
        method: 'GET',
        url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?rule_id=${ruleId}`,
        headers: { authorization: a.auth },
      })
    ).json().list[0];
    expect(ev.event_data.actions).toContainEqual(expect.objectContaining({ type: 'sms', status: 'quota', limit: sent }));
    await cool();
    await t.database.raw.query('update tenant_packages set alert_sms = 1000 where tenant_id = $1', [a.tenantId]);
  });

  it('lists with filters, handles, deletes and deletes all; other tenants are refused', async () => {
    const base = `/v1/alert-data-mgmt/tenants/${a.tenantId}/events`;
    const get = (q = '') => t.app.inject({ method: 'GET', url: `${base}${q}`, headers: { authorization: a.auth } });
    const all = (await get('?page_size=100')).json();
    expect(all.total).toBeGreaterThan(10);
    expect((await get('?level=ordinary')).json().total).toBe(0);
    expect((await get(`?things_id=${device.id}&page_size=5`)).json().list).toHaveLength(5);
    const latest = Date.parse(all.list[0].created_at);
    expect((await get(`?begin_time=${latest + 1}`)).json().total).toBe(0);
    expect((await get(`?begin_time=${latest}&end_time=${latest + 1}`)).json().total).toBe(1);

    const id = all.list[0].id;
    const handled = await t.app.inject({
      method: 'PUT',
      url: `${base}/${id}/handle`,
      headers: { authorization: a.auth },
      payload: { handler_status: 2, handler_description: 'radiator cleaned' },
    });
    expect(handled.statusCode).toBe(200);
    expect(handled.json()).toMatchObject({ handler: a.name, handler_status: 2, handler_description: 'radiator cleaned' });
    expect((await get('?handler_status=2')).json().total).toBe(1);

    // Tenant B: refused on A's path, sees nothing of A's on its own.
    expect((await t.app.inject({ method: 'GET', url: base, headers: { authorization: b.auth } })).statusCode).toBe(403);
    const bBase = `/v1/alert-data-mgmt/tenants/${b.tenantId}/events`;
    expect((await t.app.inject({ method: 'GET', url: bBase, headers: { authorization: b.auth } })).json().total).toBe(0);
    expect((await t.app.inject({ method: 'DELETE', url: `${bBase}/${id}`, headers: { authorization: b.auth } })).statusCode).toBe(404);

    expect((await t.app.inject({ method: 'DELETE', url: `${base}/${id}`, headers: { authorization: a.auth } })).statusCode).toBe(200);
    expect((await get()).json().total).toBe(all.total - 1);
    const cleared = await t.app.inject({ method: 'DELETE', url: base, headers: { authorization: a.auth } });
    expect(cleared.json().deleted).toBe(all.total - 1);
    expect((await get()).json().total).toBe(0);
  });

  it('messages the sub-users a rule is shared with, and shows them its events', async () => {
    const sub = await makeSubUser(t, a, ['alert-data:event:query'], [{ thingsId: device.id, access: 'read' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/alert-mgmt/tenants/${a.tenantId}/trigger-rules`,
      headers: { authorization: a.auth },
      payload: { name: 'shared low', things_id: device.id, channel: 0, frame_id: 0x55, share: true, conditions: [{ op: '<', value: 5 }] },
    });
    expect(res.statusCode).toBe(200);
    await ingest([1], 0x55);
    const { rows } = await t.database.raw.query<{ title: string; zh: string; zh_content: string }>(
      `select title, texts->'zh'->>'title' as zh, texts->'zh'->>'content' as zh_content from user_messages where user_id = $1`,
      [sub.userId],
    );
    expect(rows).toMatchObject([{ title: 'Alarm: shared low', zh: '告警：shared low' }]);
    expect(rows[0].zh_content).toContain('级别：普通');
    const seen = await t.app.inject({
      method: 'GET',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events`,
      headers: { authorization: sub.auth },
    });
    expect(seen.json().list.map((e: { rule_name: string }) => e.rule_name)).toEqual(['shared low']);
    // Read access to the device: the sub-user sees the event but deletes nothing.
    const reader = await makeSubUser(
      t,
      a,
      ['alert-data:event:query', 'alert-data:event:delete'],
      [{ thingsId: device.id, access: 'read' }],
    );
    const cleared = await t.app.inject({
      method: 'DELETE',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events`,
      headers: { authorization: reader.auth },
    });
    expect(cleared.json().deleted).toBe(0);
    const one = await t.app.inject({
      method: 'DELETE',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events/${seen.json().list[0].id}`,
      headers: { authorization: reader.auth },
    });
    expect(one.statusCode).toBe(403);
    const still = await t.app.inject({
      method: 'GET',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events`,
      headers: { authorization: reader.auth },
    });
    expect(still.json().total).toBe(1);
  });

  it('stops evaluating a disabled rule', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `/v1/alert-mgmt/tenants/${a.tenantId}/trigger-rules/${ruleId}/status/0`,
      headers: { authorization: a.auth },
    });
    now += 3600_000;
    await hot();
    const q = await t.app.inject({
      method: 'GET',
      url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?rule_id=${ruleId}`,
      headers: { authorization: a.auth },
    });
    expect(q.json().total).toBe(0);
  });
});
