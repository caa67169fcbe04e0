import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { ADMIN_PASSWORD, createTestApp, login, loginAdmin, type TestApp } from './helper.ts';

describe('foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports health of database and broker', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', db: 'up', broker: 'up' });
    // The event loop's delay, measured on this server's thread (lib/event-loop-lag.test.ts checks the figures).
    expect(res.json().event_loop).toEqual({ p99_ms: expect.any(Number), max_ms: expect.any(Number), window_s: expect.any(Number) });
  });

  it('answers on /api as well as /v1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().db).toBe('up');
  });

  it('serves an OpenAPI document generated from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/v1/health']).toBeDefined();
    expect(doc.paths['/v1/control/sessions'].post.requestBody).toBeDefined();
  });

  it('refuses a protected path without a token with http.401', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/control/sessions/123' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'http.401', message: expect.any(String) });
  });

  it('refuses a forged token', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/control/sessions/123', headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(res.statusCode).toBe(401);
  });

  it('answers unknown API paths with a 404 body of the error contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('http.404');
  });

  it('validates bodies with a 400 of the error contract', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username: 1 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    const first = Array.isArray(body) ? body[0] : body;
    expect(first.code).toBe('http.400');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/);
  });

  it('logs the system manager in and out; a revoked token is refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: 'admin', password: 'Admin-Test-1234', type: 1 },
    });
    expect(res.statusCode).toBe(200);
    const { token, ujwt, session_id } = res.json();
    expect(token).not.toBe(ujwt);
    const out = await t.app.inject({
      method: 'DELETE',
      url: `/v1/control/sessions/${session_id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/v1/control/sessions/${session_id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.statusCode).toBe(401);
  });

  it('answers a wrong password without telling whether the user exists', async () => {
    const wrongUser = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: 'nobody', password: 'x', type: 1 },
    });
    const wrongPass = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: 'admin', password: 'x', type: 1 },
    });
    expect(wrongUser.statusCode).toBe(401);
    expect(wrongPass.statusCode).toBe(401);
    expect(wrongUser.json()).toEqual(wrongPass.json());
    // a good login clears the failure count
    await loginAdmin(t.app);
  });
});

describe('first system manager', () => {
  it('keeps a password chosen in LOGGERHEAD_ADMIN_PASSWORD out of what the start prints', async () => {
    const t = await createTestApp({ adminPassword: ADMIN_PASSWORD });
    try {
      expect(t.app.ctx.adminCreated).toBe(true);
      expect(t.app.ctx.initialAdminPassword).toBeNull();
      await loginAdmin(t.app);
    } finally {
      await t.close();
    }
  });

  it('generates a password when none is set, to be shown once, and it logs in', async () => {
    const t = await createTestApp({ adminPassword: null });
    try {
      const generated = t.app.ctx.initialAdminPassword;
      expect(generated).toEqual(expect.any(String));
      expect(generated).not.toBe(ADMIN_PASSWORD);
      await login(t.app, 'admin', generated as string);
    } finally {
      await t.close();
    }
  });
});

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({}, '/srv');
    expect(c.port).toBe(8080);
    expect(c.mqttPort).toBe(1883);
    expect(c.dataDir).toBe('/srv/data');
    expect(c.databaseUrl).toBeNull();
    expect(c.mqttUrl).toBeNull();
    expect(c.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(loadConfig({ TIME_ZONE: 'Asia/Shanghai' }, '/srv').timeZone).toBe('Asia/Shanghai');
    expect(c.s3).toBeNull();
  });

  it('reads the S3 file store settings, path-style by default for an S3-compatible server', () => {
    const env = { S3_BUCKET: 'lh', S3_URL: 'http://minio:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(loadConfig(env).s3).toEqual({
      url: 'http://minio:9000',
      bucket: 'lh',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      pathStyle: true,
      prefix: '',
    });
    expect(loadConfig({ S3_BUCKET: 'lh' }).s3).toMatchObject({ url: null, pathStyle: false, accessKeyId: null });
  });

  it.each([
    ['PORT', 'eighty', {}],
    ['MQTT_PORT', '70000', {}],
    ['DATABASE_URL', 'mysql://x', {}],
    ['MQTT_URL', 'not a url', {}],
    ['SMTP_URL', 'http://mail', {}],
    ['PUBLIC_URL', 'ftp://x', {}],
    ['LOGGERHEAD_ADMIN_PASSWORD', 'short', {}],
    ['TIME_ZONE', 'Mars/Olympus_Mons', {}],
    ['S3_BUCKET', undefined, { S3_URL: 'http://minio:9000' }],
    ['S3_URL', 'ftp://minio', { S3_BUCKET: 'lh' }],
    ['S3_SECRET_ACCESS_KEY', undefined, { S3_BUCKET: 'lh', S3_ACCESS_KEY_ID: 'k' }],
    ['EVENT_LOOP_WARN_MS', '0', {}],
  ] as [string, string | undefined, Record<string, string>?][])('refuses a wrong %s naming the variable', (name, value, others) => {
    let err: unknown;
    try {
      loadConfig({ ...(others ?? {}), ...(value === undefined ? {} : { [name]: value }) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message).toContain(name);
  });
});
