import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CanFrame } from '@loggerhead/can';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsOf } from '../src/modules/alert/alert.module.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Alert e-mail and SMS are written in the tenant's console language (customisation
 * systemLanguage; zh when unset), through a real SMTP server and an HTTP SMS provider.
 */
const mails: { to: string; subject: string; body: string }[] = [];
const texts: { to: string; text: string; kind: string }[] = [];
let smtp: SMTPServer;
let provider: http.Server;
let t: TestApp;
let seq = 0;
const NOW = Date.UTC(2026, 0, 5, 8, 0, 0);
// Times in the texts are wall-clock times of the deployment's zone (TIME_ZONE), with the offset.
const LOCAL = '2026-01-05 16:00:00.000 (UTC+08:00)';

/** The decoded text of a transfer-encoded MIME part (base64 or quoted-printable, UTF-8). */
function decodeBody(encoding: string, body: string): string {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(encoding)) {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

/** A header value with its RFC 2047 encoded words decoded (folded lines joined). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeBody('quoted-printable', text.replace(/_/g, ' ')),
    );
}

function parseMail(raw: string): { subject: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  return {
    subject: decodeWords(header('Subject')),
    body: decodeBody(header('Content-Transfer-Encoding'), raw.slice(split + 4))
      .replace(/\r\n/g, '\n')
      .trim(),
  };
}

interface Setup {
  tenant: TenantFixture;
  device: { id: string; third_things_id: string };
  email: string;
  mobile: string;
}

async function setup(language: 'zh' | 'en' | null, n: number): Promise<Setup> {
  const tenant = await makeTenant(t);
  if (language) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/tenant/tenants/${tenant.tenantId}/customization`,
      headers: { authorization: tenant.auth },
      payload: { data: [{ key: 'systemLanguage', value: language }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const device = await makeDevice(t, tenant, { name: `Truck ${n}` });
  const email = `fleet${n}@example.com`;
  const mobile = `1390000000${n}`;
  const rule = await t.app.inject({
    method: 'POST',
    url: `/v1/alert-mgmt/tenants/${tenant.tenantId}/trigger-rules`,
    headers: { authorization: tenant.auth },
    payload: {
      name: `Coolant ${n}`,
      things_id: device.id,
      channel: 0,
      frame_id: '321',
      level: 'urgent',
      alert_description: 'Coolant above 100 °C',
      conditions: [{ source: 'data', start_byte: 0, op: '>', value: 100 }],
      actions: { email: [email], sms: [mobile] },
      recover_action: { email: [email] },
    },
  });
  expect(rule.statusCode, rule.body).toBe(200);
  return { tenant, device, email, mobile };
}

/** Commits one frame (first byte = value) at NOW, as the ingest does, and waits for the dispatch. */
async function ingest(s: Setup, value: number, ts = NOW) {
  const frame: CanFrame = {
    ts: ts * 1000,
    channel: 0,
    id: 0x321,
    ext: false,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx: false,
    data: new Uint8Array([value, 0, 0, 0, 0, 0, 0, 0]),
  };
  const data = encodeBatch([frame], { session: 3, seq: ++seq });
  const info = checkBatch(data);
  if (typeof info === 'string') throw new Error(info);
  await t.app.ctx.ingest.writer.write({ tenantId: s.tenant.tenantId, thingsId: s.device.id, info, data });
  await alertsOf(t.app).idle();
}

const mailsTo = async (to: string, n: number) =>
  (
    await poll(
      async () => mails.filter((m) => m.to === to),
      (m) => m.length >= n,
    )
  ).slice(0, n);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, cb) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (c) => {
        data += c;
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), ...parseMail(data) });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  provider = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
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
    timeZone: 'Asia/Shanghai',
  });
  alertsOf(t.app).clock.now = () => NOW;
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

describe('alert e-mail and SMS in the tenant’s language', () => {
  it('writes to a tenant without a language setting in Chinese, alarm and recovery', async () => {
    const s = await setup(null, 1);
    await ingest(s, 200);
    const [mail] = await mailsTo(s.email, 1);
    expect(mail.subject).toBe('[Loggerhead] 紧急告警：Coolant 1 - Truck 1');
    expect(mail.body.split('\n')).toEqual([
      '告警：Coolant 1',
      `设备：Truck 1（${s.device.third_things_id}）`,
      '级别：紧急',
      `时间：${LOCAL}`,
      'Coolant above 100 °C',
      '报文：CAN0 0x321 [8] c800000000000000 值 200',
    ]);
    const sms = await poll(
      async () => texts.filter((x) => x.to === s.mobile),
      (x) => x.length === 1,
    );
    expect(sms).toEqual([{ to: s.mobile, kind: 'sms', text: mail.body }]);

    await ingest(s, 10, NOW + 1000);
    const recovered = (await mailsTo(s.email, 2))[1];
    expect(recovered.subject).toBe('[Loggerhead] 告警恢复：Coolant 1 - Truck 1');
    expect(recovered.body.split('\n').slice(0, 3)).toEqual([
      '告警恢复：Coolant 1',
      `设备：Truck 1（${s.device.third_things_id}）`,
      '级别：紧急',
    ]);
    expect(recovered.body).toContain('时间：2026-01-05 16:00:01.000 (UTC+08:00)');
  });

  it('writes to a zh tenant in Chinese and to an en tenant in English, each with its own values', async () => {
    const zh = await setup('zh', 2);
    const en = await setup('en', 3);
    await ingest(zh, 201);
    await ingest(en, 202);
    const [zhMail] = await mailsTo(zh.email, 1);
    const [enMail] = await mailsTo(en.email, 1);
    expect(zhMail.subject).toBe('[Loggerhead] 紧急告警：Coolant 2 - Truck 2');
    expect(zhMail.body).toContain(`设备：Truck 2（${zh.device.third_things_id}）`);
    expect(zhMail.body).toContain('报文：CAN0 0x321 [8] c900000000000000 值 201');
    expect(enMail.subject).toBe('[Loggerhead] Urgent alarm: Coolant 3 - Truck 3');
    expect(enMail.body.split('\n')).toEqual([
      'Alarm: Coolant 3',
      `Device: Truck 3 (${en.device.third_things_id})`,
      'Level: urgent',
      `Time: ${LOCAL}`,
      'Coolant above 100 °C',
      'Frame: CAN0 0x321 [8] ca00000000000000 value 202',
    ]);
    const sms = await poll(
      async () => texts.filter((x) => x.to === zh.mobile || x.to === en.mobile),
      (x) => x.length === 2,
    );
    expect(sms.find((x) => x.to === zh.mobile)?.text).toBe(zhMail.body);
    expect(sms.find((x) => x.to === en.mobile)?.text).toBe(enMail.body);
    // the push log keeps what was sent
    const { rows } = await t.database.raw.query<{ subject: string }>(
      `select subject from push_logs where tenant_id = $1 and channel = 'email' and purpose = 'alert'`,
      [en.tenant.tenantId],
    );
    expect(rows).toEqual([{ subject: enMail.subject }]);
  });
});
