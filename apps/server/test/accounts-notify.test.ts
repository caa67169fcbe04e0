import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ip, mobile } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

/** Real transports: an SMTP server and an HTTP SMS provider on ephemeral ports. */
const mails: { to: string; data: string }[] = [];
const sms: { body: Record<string, unknown> }[] = [];
let smsStatus = 200;
let smtp: SMTPServer;
let provider: http.Server;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
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
      sms.push({ body: JSON.parse(raw) });
      res.writeHead(smsStatus, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const smsPort = (provider.address() as AddressInfo).port;
  t = await createTestApp({
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smsUrl: `http://127.0.0.1:${smsPort}/send`,
    mailFrom: 'Loggerhead <noreply@test.local>',
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

/** The plain-text body of a one-part mail as sent over SMTP, decoded (base64 or quoted-printable). */
function mailText(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4).replace(/\r\n\.\r\n$/, '');
  const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const send = (type: 1 | 2, destination: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/tenant/verification-codes',
    remoteAddress: ip(),
    payload: { type, destination, purpose: 'register' },
  });

describe('code delivery', () => {
  it('e-mails a code over SMTP and records it as sent', async () => {
    const res = await send(2, 'Driver@Example.com');
    expect(res.statusCode).toBe(201);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('driver@example.com');
    // The text arrives in Chinese (the default language), encoded as MIME says.
    const body = mailText(mails[0].data);
    expect(body).toContain('验证码');
    const code = /\b(\d{6})\b/.exec(body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mails[0].data).toMatch(/From: Loggerhead <noreply@test\.local>/);
    const log = await t.database.raw.query<{ status: string; text: string; sent_at: Date | null }>(
      'select status, text, sent_at from push_logs where destination = $1',
      ['driver@example.com'],
    );
    expect(log.rows[0].status).toBe('sent');
    expect(log.rows[0].sent_at).not.toBeNull();
    expect(log.rows[0].text).toContain(code);
  });

  it("writes the code in the asker's language: Chinese unless it asks for English", async () => {
    const zh = mobile();
    expect((await send(1, zh)).statusCode).toBe(201);
    expect(String(sms.at(-1)?.body.text)).toMatch(/^您的Loggerhead注册验证码为 \d{6}，5 分钟内有效，请勿泄露给他人。$/);
    const en = mobile();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/tenant/verification-codes',
      remoteAddress: ip(),
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
      payload: { type: 1, destination: en, purpose: 'register' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(String(sms.at(-1)?.body.text)).toMatch(
      /^Your Loggerhead registration code is \d{6}\. It is valid for 5 minutes\. Do not share it\.$/,
    );
  });

  it('posts an SMS to the HTTP provider as {to, text, kind}', async () => {
    const m = mobile();
    expect((await send(1, m)).statusCode).toBe(201);
    const last = sms.at(-1)?.body;
    expect(last).toMatchObject({ to: m, kind: 'sms' });
    expect(String(last?.text)).toMatch(/\b\d{6}\b/);
  });

  it('answers 503 and logs the failure when the provider refuses', async () => {
    smsStatus = 500;
    const m = mobile();
    const res = await send(1, m);
    smsStatus = 200;
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('notify.failed');
    const log = await t.database.raw.query<{ status: string; error: string }>(
      'select status, error from push_logs where destination = $1',
      [m],
    );
    expect(log.rows[0]).toMatchObject({ status: 'failed', error: 'SMS provider answered 500' });
  });
});
