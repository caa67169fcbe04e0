import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { SecretsKeyError } from '../src/lib/sealed-secrets.ts';
import { api, drain, type Forwarded, frameTimes, replay, rulesUrl, trip } from './forward.helpers.ts';
import { createTestApp, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Credentials of forward destinations are sealed at rest (docs/decisions/0191-secrets-at-rest.md):
 * the row in the database holds none of them in plain text, while reads mask them and the forward
 * still sends with them.
 */
const PG_URL = process.env.TEST_FORWARD_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const T0 = 1_760_000_000_000_000;

interface Delivery {
  url: string;
  signature: string | undefined;
  token: string | undefined;
  raw: string;
}

describe('forward destinations: credentials sealed at rest', () => {
  let t: TestApp;
  let a: TenantFixture;
  const logLines: string[] = [];
  const deliveries: Delivery[] = [];
  let server: http.Server;
  let port = 0;

  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'debug' }, { logLines });
    a = await makeTenant(t);
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        deliveries.push({
          url: req.url ?? '',
          signature: req.headers['x-loggerhead-signature'] as string | undefined,
          token: req.headers['x-token'] as string | undefined,
          raw,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await t?.close();
  });

  const req = (...args: Parameters<ReturnType<typeof api>>) => api(t)(...args);
  const rawDestination = async (id: string) =>
    (await t.database.raw.query<{ d: string }>('select destination::text as d from forward_rules where id = $1', [id])).rows[0].d;
  const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  const SECRET = 'sign-secret-7Qx2';
  const HEADER_TOKEN = 'header-token-Vb81';
  const URL_TOKEN = 'url-token-Kd93';

  it('a webhook rule keeps its signing secret, header token and URL sealed, and still signs and sends with them', async () => {
    const destination = {
      kind: 'http',
      url: `http://127.0.0.1:${port}/hook?access_token=${URL_TOKEN}`,
      secret: SECRET,
      headers: { 'x-token': HEADER_TOKEN },
    };
    const created = await req('POST', rulesUrl(a), a.auth, { name: 'sealed-webhook', data_kinds: ['frames'], destination });
    expect(created.statusCode).toBe(200);
    const r = created.json();
    expect(r.destination).toMatchObject({ kind: 'http', secret: '******', headers: { 'x-token': '******' } });
    // The URL's token is a credential too: a read shows the URL with its query values masked.
    expect(r.destination.url).toBe(`http://127.0.0.1:${port}/hook?access_token=******`);
    const listed = (await req('GET', rulesUrl(a), a.auth)).body;
    expect(listed).toContain('sealed-webhook');
    expect(listed).not.toContain(URL_TOKEN);

    const stored = await rawDestination(r.id);
    for (const plain of [SECRET, HEADER_TOKEN, URL_TOKEN]) expect(stored).not.toContain(plain);
    const row = JSON.parse(stored);
    expect(row.kind).toBe('http');
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.headers['x-token']).toMatch(/^enc:v1:/);
    expect(row.url).toMatch(/^enc:v1:/);

    // The forward opens them: every delivery reaches the URL with its token, signed, with the header.
    const d = await makeDevice(t, a);
    deliveries.length = 0;
    await replay(t, d, trip(300, T0));
    await drain(t);
    const got = await poll(
      () => deliveries.flatMap((x) => (JSON.parse(x.raw) as { messages: Forwarded[] }).messages),
      (m) => frameTimes(m, d.id).length >= 300,
      { ms: 15_000 },
    );
    expect(frameTimes(got, d.id)).toEqual(Array.from({ length: 300 }, (_, i) => T0 + i * 1000));
    for (const x of deliveries) {
      expect(x.url).toBe(`/hook?access_token=${URL_TOKEN}`);
      expect(x.signature).toBe(sign(SECRET, x.raw));
      expect(x.token).toBe(HEADER_TOKEN);
    }

    // An update sending the masks back keeps the secrets, sealed again.
    const upd = await req('PUT', rulesUrl(a, `/${r.id}`), a.auth, {
      name: 'sealed-webhook-2',
      data_kinds: ['frames'],
      destination: r.destination,
    });
    expect(upd.statusCode).toBe(200);
    const again = await rawDestination(r.id);
    for (const plain of [SECRET, HEADER_TOKEN, URL_TOKEN]) expect(again).not.toContain(plain);
    deliveries.length = 0;
    const test = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: upd.json().destination, rule_id: r.id });
    expect(test.json()).toMatchObject({ ok: true });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].signature).toBe(sign(SECRET, deliveries[0].raw));
    expect(deliveries[0].token).toBe(HEADER_TOKEN);
    expect(deliveries[0].url).toBe(`/hook?access_token=${URL_TOKEN}`);
    await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
  });

  it('a PostgreSQL rule keeps the passwords of its URL and its field sealed, and connects with them', async () => {
    const url = new URL(PG_URL);
    url.password = 'url-pass-Zm4';
    const schema = `lhsealed${Math.random().toString(36).slice(2, 10)}`;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(
      `create schema ${schema}; create table ${schema}.fleet_data (message_id text, rule_id text, things_id text, kind text, ts timestamptz, payload jsonb)`,
    );
    try {
      const created = await req('POST', rulesUrl(a), a.auth, {
        name: 'sealed-postgres',
        data_kinds: ['frames'],
        destination: { kind: 'postgres', url: url.toString(), table: `${schema}.fleet_data`, password: 'field-pass-Wq7' },
      });
      expect(created.statusCode).toBe(200);
      const r = created.json();
      expect(r.destination.password).toBe('******');
      expect(r.destination.url).toContain(':******@');
      const stored = await rawDestination(r.id);
      expect(stored).not.toContain('url-pass-Zm4');
      expect(stored).not.toContain('field-pass-Wq7');
      expect(stored).not.toContain(url.hostname);
      // The connection test with the masked destination takes the stored values, opened.
      const test = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: r.destination, rule_id: r.id });
      expect(test.json()).toMatchObject({ ok: true });
      expect((await client.query(`select kind from ${schema}.fleet_data`)).rows).toEqual([{ kind: 'test' }]);
      await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
    } finally {
      await client.query(`drop schema ${schema} cascade`).catch(() => {});
      await client.end();
    }
  });

  it('a rule stored before sealing (plain) still forwards, and the next start seals it', async () => {
    const created = await req('POST', rulesUrl(a), a.auth, {
      name: 'stored-plain',
      data_kinds: ['frames'],
      destination: { kind: 'http', url: `http://127.0.0.1:${port}/old`, secret: 'x' },
    });
    const id = created.json().id as string;
    const plain = {
      kind: 'http',
      url: `http://127.0.0.1:${port}/old`,
      secret: 'old-secret-Hj5',
      headers: { 'x-token': 'old-token-Lp2' },
      timeout_ms: 10000,
    };
    await t.database.raw.query('update forward_rules set destination = $2::jsonb where id = $1', [id, JSON.stringify(plain)]);

    const read = (await req('GET', rulesUrl(a, `/${id}`), a.auth)).json();
    expect(read.destination).toMatchObject({ secret: '******', headers: { 'x-token': '******' } });
    deliveries.length = 0;
    const test = await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: read.destination, rule_id: id });
    expect(test.json()).toMatchObject({ ok: true });
    expect(deliveries[0].signature).toBe(sign('old-secret-Hj5', deliveries[0].raw));
    expect(deliveries[0].token).toBe('old-token-Lp2');

    // A server (re)started on this database seals what it finds in plain text.
    const copy = await buildApp(testConfig(), { database: t.database, logger: false });
    try {
      await copy.ready();
    } finally {
      await copy.close();
    }
    const stored = await rawDestination(id);
    expect(stored).not.toContain('old-secret-Hj5');
    expect(stored).not.toContain('old-token-Lp2');
    expect(JSON.parse(stored).secret).toMatch(/^enc:v1:/);
    deliveries.length = 0;
    expect(
      (await req('POST', rulesUrl(a, '/test-destination'), a.auth, { destination: read.destination, rule_id: id })).json(),
    ).toMatchObject({
      ok: true,
    });
    expect(deliveries[0].signature).toBe(sign('old-secret-Hj5', deliveries[0].raw));
    await req('DELETE', rulesUrl(a, `/${id}`), a.auth);
  });

  it('a server copy with another key, or with none, refuses to start on this database', async () => {
    const other = testConfig({ secretsKey: Buffer.alloc(32, 1) });
    await expect(buildApp(other, { database: t.database, logger: false })).rejects.toThrow(SecretsKeyError);
    await expect(buildApp(other, { database: t.database, logger: false })).rejects.toThrow(/give every server copy the same SECRETS_KEY/);
    const none = testConfig({ secretsKey: null });
    await expect(buildApp(none, { database: t.database, logger: false })).rejects.toThrow(/SECRETS_KEY: not set/);
    // The running server is not disturbed.
    expect((await req('GET', rulesUrl(a), a.auth)).statusCode).toBe(200);
  });

  it('logs neither the key nor a credential', () => {
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    for (const s of [SECRET, HEADER_TOKEN, URL_TOKEN, 'url-pass-Zm4', 'field-pass-Wq7', 'old-secret-Hj5', 'old-token-Lp2'])
      expect(log).not.toContain(s);
    const key = t.config.secretsKey as Buffer;
    expect(log).not.toContain(key.toString('base64'));
    expect(log).not.toContain(key.toString('hex'));
  });
});
