import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggerheadApp } from '../src/app.ts';
import { ConfigError, loadConfig, type RateLimits } from '../src/config.ts';
import { LIMITED_ROUTES, type LimitKind } from '../src/lib/rate-limits.ts';
import { consolePolicy, tileSource } from '../src/lib/security-headers.ts';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helper.ts';

/**
 * Hardening of a console on the internet (docs/security.md): security headers and the three
 * Content-Security-Policies, compression, caching of the built console, HEAD on its routes, rate
 * limits, and the modes of DATA_DIR. The browser side of the console's policy (no violation on any
 * page) is e2e/tests/security.spec.ts.
 */

const LIMIT = { perAddress: 4, perAccount: 2 };
const RATE_LIMITS: RateLimits = { windowSeconds: 60, login: LIMIT, code: LIMIT, reset: LIMIT, register: LIMIT, upload: LIMIT };
const TILES = 'https://{s}.tile.example.org/{z}/{x}/{y}.png';

let t: TestApp;
let webDir: string;
const BUNDLE = Array.from({ length: 400 }, (_, i) => `console.log("line ${i} of the console bundle");`).join('\n');

/** A streamed text body (like the signal CSV export) whose second half is produced only when `release` is called. */
const gates = new Map<string, () => void>();
function csvRows(from: number, n: number): string {
  let s = '';
  for (let i = from; i < from + n; i++) s += `${i},${(i * 7919) % 10007},${Math.sin(i).toFixed(6)}\n`;
  return s;
}

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/x-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(webDir, 'assets', 'x-abc123.js'), BUNDLE);
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

  // Behind one proxy: the client address comes from X-Forwarded-For (requests without it use the peer).
  t = await createTestApp(
    {
      webDir,
      rateLimits: RATE_LIMITS,
      mapTileUrl: TILES,
      trustProxy: 1,
      support: { company: 'Acme Telematics', phone: '+86 10 8888 0000', email: 'help@acme.example', helpUrl: '' },
    },
    {
      beforeReady: (app) => {
        // Two responses of a kind the API sends, on routes of this test only.
        app.get('/v1/test/stream', { config: { public: true } }, async (req, reply) => {
          const id = String((req.query as { id?: string }).id);
          const gate = new Promise<void>((resolve) => gates.set(id, resolve));
          async function* body() {
            yield csvRows(0, 12_000);
            await gate;
            yield csvRows(12_000, 12_000);
          }
          return reply.type('text/csv; charset=utf-8').send(Readable.from(body()));
        });
        app.get('/v1/test/binary', { config: { public: true } }, async (_req, reply) => {
          const bytes = Buffer.alloc(64 * 1024, 'a');
          return reply
            .header('content-type', 'application/octet-stream')
            .header('content-length', bytes.length)
            .send(Readable.from([bytes]));
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header. */
function csp(header: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name] = values;
  }
  return out;
}

describe('security headers', () => {
  it('give the console its policy: own scripts only, inline styles, map tiles, its WebSockets', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/Container/HomePage', headers: { host: 'console.example.com:8443' } });
    expect(res.statusCode).toBe(200);
    const p = csp(res.headers['content-security-policy']);
    expect(p['default-src']).toEqual(["'self'"]);
    expect(p['script-src']).toEqual(["'self'"]);
    expect(p['script-src-attr']).toEqual(["'none'"]);
    expect(p['object-src']).toEqual(["'none'"]);
    expect(p['frame-ancestors']).toEqual(["'self'"]);
    expect(p['base-uri']).toEqual(["'self'"]);
    expect(p['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(p['img-src']).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:', 'https://*.tile.example.org']));
    expect(p['connect-src']).toEqual(["'self'", 'ws://console.example.com:8443', 'wss://console.example.com:8443']);
    // Served over http here: no upgrade of requests, no HSTS.
    expect(p['upgrade-insecure-requests']).toBeUndefined();
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('never copy a forged Host header into the policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/Login', headers: { host: "evil.example; script-src 'unsafe-inline'" } });
    const p = csp(res.headers['content-security-policy']);
    expect(p['script-src']).toEqual(["'self'"]);
    expect(p['connect-src']).toEqual(["'self'"]);
  });

  it('let nothing load or run in a response of the API, found or not', async () => {
    for (const url of ['/v1/health', '/api/health', '/v1/no-such-route']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const p = csp(res.headers['content-security-policy']);
      expect(p['default-src'], url).toEqual(["'none'"]);
      expect(p['frame-ancestors'], url).toEqual(["'none'"]);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });

  it('give the API documentation its own policy', async () => {
    for (const url of ['/v1/docs/', '/v1/docs/static/swagger-initializer.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const p = csp(res.headers['content-security-policy']);
      expect(p['default-src'], url).toEqual(["'self'"]);
      expect(p['script-src'], url).toEqual(["'self'"]);
      expect(p['connect-src'], url).toEqual(["'self'"]);
      expect(p['frame-ancestors'], url).toEqual(["'self'"]);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('upgrade requests and send HSTS where the console is reached over https', async () => {
    const policy = consolePolicy({ publicUrl: 'https://console.example.com', mapTileUrl: null });
    const p = csp(policy({ host: 'console.example.com' } as never));
    expect(p['upgrade-insecure-requests']).toEqual([]);
    expect(p['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('allow the host of the configured map tiles', () => {
    expect(tileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    expect(tileSource('http://tiles.local:8080/{z}/{x}/{y}.png')).toBe('http://tiles.local:8080');
    // A placeholder the policy cannot express widens the source to the scheme.
    expect(tileSource('https://tiles-{s}.example.com/{z}/{x}/{y}.png')).toBe('https:');
  });

  it('pass the tile URL to the console through the global configuration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/control/global-config' });
    expect(JSON.parse(res.json().link).mapTileUrl).toBe(TILES);
  });

  it("pass the platform's footer contact, and no help address when none is set", async () => {
    const link = JSON.parse((await t.app.inject({ method: 'GET', url: '/v1/control/global-config' })).json().link);
    expect(link).toMatchObject({ footerCompany: 'Acme Telematics', footerPhone: '+86 10 8888 0000', footerEmail: 'help@acme.example' });
    expect(link).not.toHaveProperty('helpUrl');
    expect(loadConfig({ SUPPORT_PHONE: ' 400-800 ', HELP_URL: 'https://help.example.com' }).support).toEqual({
      company: '',
      phone: '400-800',
      email: '',
      helpUrl: 'https://help.example.com',
    });
  });
});

describe('the built console', () => {
  it('answers HEAD on its routes like GET, without a body', async () => {
    for (const url of ['/Container/HomePage', '/Login', '/Container/UserManager/UserCenter?x=1', '/assets/x-abc123.js', '/index.html']) {
      const get = await t.app.inject({ method: 'GET', url });
      const head = await t.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(get.statusCode, url).toBe(200);
      expect(head.body, url).toBe('');
      expect(get.body.length, url).toBeGreaterThan(0);
      for (const h of ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
        expect(head.headers[h], `${url} ${h}`).toBe(get.headers[h]);
      }
    }
  });

  it('never lets index.html be cached, keeps hashed assets for a year, other files an hour', async () => {
    for (const url of ['/', '/Container/HomePage', '/index.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/x-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers a missing build file 404, not with the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/gone-abcdef12.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'http.404', message: 'Not found' });
  });
});

describe('compression', () => {
  it('sends br or gzip as the client asks, identity otherwise', async () => {
    const cases: [string, string | undefined, (b: Buffer) => Buffer][] = [
      ['br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['br;q=0.5, gzip', 'gzip', zlib.gunzipSync],
      ['identity', undefined, (b) => b],
    ];
    for (const [accept, encoding, decode] of cases) {
      const res = await t.app.inject({ method: 'GET', url: '/assets/x-abc123.js', headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(decode(res.rawPayload).toString(), accept).toBe(BUNDLE);
      if (encoding) {
        expect(res.rawPayload.length, accept).toBeLessThan(BUNDLE.length / 4);
        expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      }
    }
  });

  it('compresses the API and its documentation', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      remoteAddress: '10.9.9.9',
      payload: { username: 'admin', password: ADMIN_PASSWORD, type: 1 },
    });
    const authorization = `Bearer ${login.json().token}`;
    for (const url of ['/v1/control/privileges/self', '/v1/docs/json']) {
      const plain = await t.app.inject({ method: 'GET', url, headers: { authorization } });
      expect(plain.rawPayload.length, url).toBeGreaterThan(1024);
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization, 'accept-encoding': 'br' } });
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString()), url).toEqual(plain.json());
    }
  });

  it('sends binary downloads as stored, with their length', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test/binary', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(64 * 1024));
    expect(res.rawPayload.length).toBe(64 * 1024);
  });

  it('keeps a streamed export streaming: the first compressed bytes leave before the body is complete', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const body = await new Promise<Buffer>((resolve, reject) => {
        const req = http.get(
          { port, host: '127.0.0.1', path: `/v1/test/stream?id=${encoding}`, headers: { 'accept-encoding': encoding } },
          (res) => {
            expect(res.headers['content-encoding']).toBe(encoding);
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => {
              chunks.push(c);
              // Only now does the server produce the rest: a compressor that held everything back
              // until the end would never get here.
              gates.get(encoding)?.();
            });
            res.on('end', () => resolve(Buffer.concat(chunks)));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
      });
      expect(decode(body).toString()).toBe(csvRows(0, 24_000));
    }
  }, 60_000);
});

describe('rate limits', () => {
  let seq = 0;
  /** A fresh client address per use, so one test's counts never meet another's. */
  const address = () => `10.77.${++seq >> 8}.${seq & 255}`;
  const account = (kind: string) => `${kind}${++seq}x${Math.random().toString(36).slice(2, 6)}`;
  let adminAuth = '';

  /** One request of each kind, from an address, naming an account. */
  const REQUEST: Record<LimitKind, (remoteAddress: string, name: string) => InjectOptions> = {
    login: (remoteAddress, name) => ({
      method: 'POST',
      url: '/v1/control/sessions',
      remoteAddress,
      payload: { username: name, password: 'Wrong-pass-1', type: 1 },
    }),
    code: (remoteAddress, name) => ({
      method: 'POST',
      url: '/v1/tenant/verification-codes',
      remoteAddress,
      payload: { type: 2, destination: `${name}@example.com`, purpose: 'register' },
    }),
    reset: (remoteAddress, name) => ({
      method: 'POST',
      url: '/v1/tenant/reset-password',
      remoteAddress,
      payload: { type: 1, source: name, verification_code: '123456', new_password: 'Passw0rd!x', confirmPassword: 'Passw0rd!x' },
    }),
    register: (remoteAddress, name) => ({
      method: 'POST',
      url: '/v1/tenant/user-tenants',
      remoteAddress,
      payload: { username: name, password: 'Passw0rd!x', confirmPassword: 'Passw0rd!x' },
    }),
    // The account of an upload is the signed-in user: the name picks a session (admin's, or none).
    upload: (remoteAddress, name) => ({
      method: 'PUT',
      url: '/v1/tenant/users/self/avatar',
      remoteAddress,
      ...multipart(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]), name === 'admin' ? adminAuth : ''),
    }),
  };

  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      remoteAddress: address(),
      payload: { username: 'admin', password: ADMIN_PASSWORD, type: 1 },
    });
    adminAuth = `Bearer ${res.json().token}`;
  });

  function expectLimited(res: Awaited<ReturnType<LoggerheadApp['inject']>>, what: string) {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(429);
    const body = res.json();
    expect(body.code, what).toBe('http.429');
    expect(typeof body.message, what).toBe('string');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= RATE_LIMITS.windowSeconds, what).toBe(true);
    expect(body.details?.seconds, what).toBe(retryAfter);
  }
  const notLimited = (res: Awaited<ReturnType<LoggerheadApp['inject']>>, what: string) =>
    expect(res.statusCode === 429 && res.json().code === 'http.429', `${what}: ${res.statusCode} ${res.body}`).toBe(false);

  for (const kind of Object.keys(REQUEST) as LimitKind[]) {
    it(`${kind}: per client address`, async () => {
      const from = address();
      for (let i = 0; i < LIMIT.perAddress; i++) notLimited(await t.app.inject(REQUEST[kind](from, account(kind))), `${kind} #${i + 1}`);
      expectLimited(await t.app.inject(REQUEST[kind](from, account(kind))), `${kind} beyond the address's limit`);
      // Another address is not held back.
      notLimited(await t.app.inject(REQUEST[kind](address(), account(kind))), `${kind} from another address`);
    });

    it(`${kind}: per account`, async () => {
      const name = kind === 'upload' ? 'admin' : account(kind);
      for (let i = 0; i < LIMIT.perAccount; i++) notLimited(await t.app.inject(REQUEST[kind](address(), name)), `${kind} #${i + 1}`);
      expectLimited(await t.app.inject(REQUEST[kind](address(), name)), `${kind} beyond the account's limit`);
      if (kind !== 'upload') notLimited(await t.app.inject(REQUEST[kind](address(), account(kind))), `${kind} for another account`);
    });
  }

  it('counts the client behind the proxy (X-Forwarded-For), not the proxy', async () => {
    const proxy = address();
    const client = (n: number) => ({ ...REQUEST.login(proxy, account('login')), headers: { 'x-forwarded-for': `203.0.113.${n}` } });
    for (let i = 0; i < LIMIT.perAddress; i++) notLimited(await t.app.inject(client(7)), `client 7 #${i + 1}`);
    expectLimited(await t.app.inject(client(7)), 'client 7 beyond its limit');
    notLimited(await t.app.inject(client(8)), 'client 8 through the same proxy');
  });

  it('counts the /api spelling of a route with the route', async () => {
    const from = address();
    for (let i = 0; i < LIMIT.perAddress; i++) {
      const req = REQUEST.login(from, account('login'));
      notLimited(await t.app.inject({ ...req, url: i % 2 ? '/api/control/sessions' : '/v1/control/sessions' }), `login #${i + 1}`);
    }
    expectLimited(await t.app.inject({ ...REQUEST.login(from, account('login')), url: '/api/control/sessions' }), 'login by /api');
  });

  it('name real routes', () => {
    const routes = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    for (const key of Object.keys(LIMITED_ROUTES)) expect(routes, key).toContain(key);
  });

  it('hold every public route that changes anything: by its entry, or as an upload', async () => {
    const open = t.app.routeTable.filter((r) => r.config.public && !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    expect(open.length).toBeGreaterThan(5);
    for (const r of open) {
      if (LIMITED_ROUTES[`${r.method} ${r.url}`]) continue;
      // Not in the table: it must be a route that takes files, limited as an upload.
      const from = address();
      // (a fresh token each time: a recall upload's token is its account)
      const send = () =>
        t.app.inject({
          method: r.method as 'PUT',
          url: r.url.replace(/:[a-z_]+/g, () =>
            Array.from({ length: 48 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join(''),
          ),
          remoteAddress: from,
          headers: { 'content-type': 'application/octet-stream' },
          payload: Buffer.from('x'),
        });
      for (let i = 0; i < LIMIT.perAddress; i++) notLimited(await send(), `${r.method} ${r.url} #${i + 1}`);
      expectLimited(await send(), `${r.method} ${r.url}`);
    }
  });
});

describe('configuration', () => {
  it('reads the rate limits and the map tiles from the environment', () => {
    const c = loadConfig({ RATE_LIMIT_WINDOW: '30', RATE_LIMIT_LOGIN: '50/5', RATE_LIMIT_UPLOAD: '0/0', MAP_TILE_URL: TILES });
    expect(c.rateLimits.windowSeconds).toBe(30);
    expect(c.rateLimits.login).toEqual({ perAddress: 50, perAccount: 5 });
    expect(c.rateLimits.upload).toEqual({ perAddress: 0, perAccount: 0 });
    expect(c.mapTileUrl).toBe(TILES);
    expect(c.mapAttribution).toBe('');
    // unset: OpenStreetMap's standard tiles with their credit; "none": no tiles (the grid)
    const osm = loadConfig({});
    expect(osm.mapTileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(osm.mapAttribution).toContain('OpenStreetMap');
    expect(csp(consolePolicy(osm)({ host: 'console.example.com' } as never))['img-src']).toContain('https://tile.openstreetmap.org');
    expect(loadConfig({ MAP_TILE_URL: 'none' }).mapTileUrl).toBeNull();
    for (const [name, value] of [
      ['RATE_LIMIT_LOGIN', '50'],
      ['RATE_LIMIT_CODE', 'many/5'],
      ['RATE_LIMIT_WINDOW', '0'],
      ['MAP_TILE_URL', 'https://tiles.example.com/tile.png'],
      ['MAP_TILE_URL', 'ftp://tiles.example.com/{z}/{x}/{y}.png'],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    }
  });
});

/** A multipart body with one file field, as a browser sends it. */
function multipart(bytes: Buffer, authorization: string): Pick<InjectOptions, 'headers' | 'payload'> {
  const boundary = `----lh${Math.random().toString(36).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(authorization ? { authorization } : {}) },
    payload,
  };
}

describe('DATA_DIR', () => {
  const BIN = path.resolve(import.meta.dirname, '../bin/loggerhead.mjs');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-modes-'));
  let child: ChildProcess | null = null;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child?.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every folder and file under a directory, with its permission bits. */
  function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
    const out = [{ path: dir, dir: true, mode: fs.statSync(dir).mode & 0o777 }];
    for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      const full = path.join(e.parentPath, e.name);
      if (e.isDirectory() || e.isFile()) out.push({ path: full, dir: e.isDirectory(), mode: fs.statSync(full).mode & 0o777 });
    }
    return out;
  }
  function expectOwnerOnly(dir: string) {
    const all = modes(dir);
    const loose = all.filter((m) => m.mode !== (m.dir ? 0o700 : 0o600)).map((m) => `${m.path} ${m.mode.toString(8)}`);
    expect(loose).toEqual([]);
    return all;
  }

  it('is for the server user only: tightened at start, and so is everything written later', async () => {
    // A folder an older version left readable by everybody.
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, 'old'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'old', 'export.csv'), 'a,b\n', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'old'), 0o755);

    // The embedded database in DATA_DIR in either test run: its files are what must be protected.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: '',
      LOGGERHEAD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      EXPERIENCE: 'false',
      EXPERIENCE_LIVE: 'false',
    };
    const proc = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const on = (d: Buffer) => {
        out += d.toString();
        const m = /Console:\s+http:\/\/localhost:(\d+)\//.exec(out);
        if (m) resolve(Number(m[1]));
      };
      proc.stdout?.on('data', on);
      proc.stderr?.on('data', on);
      proc.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
    const files = expectOwnerOnly(dataDir);
    // (the database is in there: the check covered its files)
    expect(files.some((f) => f.path.startsWith(path.join(dataDir, 'pg')) && !f.dir)).toBe(true);

    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/v1/control/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, type: 1 }),
    });
    const { token } = (await login.json()) as { token: string };
    const form = new FormData();
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b00000000049454e44ae426082',
      'hex',
    );
    form.append('file', new Blob([png], { type: 'image/png' }), 'me.png');
    const upload = await fetch(`${base}/v1/tenant/users/self/avatar`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const { avatar } = (await upload.json()) as { avatar: string };
    const after = expectOwnerOnly(dataDir);
    // The uploaded image is among the files checked.
    expect(after.some((f) => !f.dir && f.path.endsWith(path.basename(avatar)))).toBe(true);
  }, 120_000);
});
