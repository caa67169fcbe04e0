import net from 'node:net';
import {
  AVATAR_MAX_BYTES,
  ErrorResponseSchema,
  MAX_CONFIG_FILE_BYTES,
  MAX_SCRIPT_CHARS,
  ORDER_RECEIPT_MAX_BYTES,
  WORK_ORDER_IMAGE_MAX_BYTES,
} from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../src/lib/input-guard.ts';
import { MAX_UPLOAD_PART } from '../src/modules/recall/recall.routes.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Bodies over their limit are a 413 with the error shape — JSON bodies over the 2 MB body limit,
 * multipart uploads over MAX_UPLOAD_MB, raw uploads over their route's limit — and the client gets
 * to read it: the server reads the rest of the body before it closes the connection. The client
 * here is the strict kind, over a real socket: it writes the whole request, then reads.
 */

const MAX_UPLOAD = 1024 * 1024; // MAX_UPLOAD_MB of this file's server
let t: TestApp;
let port: number;
let tenant: TenantFixture;
let admin: string;
let deviceId: string;

beforeAll(async () => {
  t = await createTestApp({ maxUploadBytes: MAX_UPLOAD });
  tenant = await makeTenant(t);
  admin = await loginAdmin(t.app);
  deviceId = (await makeDevice(t, tenant)).id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes the whole request (waiting on the socket as it fills), then reads the whole answer. */
async function send(method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  const socket = net.connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  let failure: Error | null = null;
  let closed = false;
  socket.on('data', (c) => received.push(c));
  socket.on('error', (e) => {
    failure = e;
  });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('close', () => {
    closed = true;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-length': String(body.length), connection: 'close', ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
  for (let i = 0; i < body.length && !closed; i += 64 * 1024) {
    if (!socket.write(body.subarray(i, i + 64 * 1024))) {
      await new Promise<void>((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
  }
  await ended;
  if (failure) throw new Error(`${method} ${path}: the connection failed before the answer was read: ${(failure as Error).message}`);
  const text = Buffer.concat(received).toString('utf8');
  const [top, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...headerLines] = top.split('\r\n');
  const parsed: Record<string, string> = {};
  for (const l of headerLines) {
    const i = l.indexOf(':');
    parsed[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  let payload = rest.join('\r\n\r\n');
  if (parsed['transfer-encoding'] === 'chunked') payload = unchunk(payload);
  return { status: Number(statusLine.split(' ')[1]), headers: parsed, body: payload };
}

function unchunk(s: string): string {
  let out = '';
  let rest = s;
  for (;;) {
    const i = rest.indexOf('\r\n');
    const n = Number.parseInt(rest.slice(0, i), 16);
    if (!n) return out;
    out += rest.slice(i + 2, i + 2 + n);
    rest = rest.slice(i + 2 + n + 2);
  }
}

const BOUNDARY = 'loggerheadLimitBoundary';
function multipart(size: number, fields: Record<string, string> = {}, filename = 'file.bin'): Buffer {
  const parts = Object.entries(fields).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return Buffer.concat([
    Buffer.from(
      `${parts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.alloc(size, 0x41),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

function expect413(a: Answer, label: string) {
  expect(a.status, `${label}: ${a.body.slice(0, 200)}`).toBe(413);
  const body = JSON.parse(a.body);
  expect(ErrorResponseSchema.safeParse(body).success, label).toBe(true);
  expect([body].flat()[0].code, label).toMatch(/^http\.413$|too-large$/);
}

/**
 * Every route that takes a file or a raw body, with the limit it is held to. The test below checks
 * the list is whole: a POST or PUT route without a JSON body schema is either here or takes no body.
 */
const UPLOADS: {
  route: string;
  kind: 'multipart' | 'raw';
  type?: string;
  limit: () => number;
  fields?: Record<string, string>;
  /** The route is the system manager's (default: the tenant's manager). */
  admin?: true;
  /** Query the route requires beside its body. */
  query?: string;
}[] = [
  { route: 'PUT /v1/tenant/users/self/avatar', kind: 'multipart', limit: () => Math.min(AVATAR_MAX_BYTES, MAX_UPLOAD) },
  {
    route: 'POST /v1/workorder/tenants/:tenant_id/images',
    kind: 'multipart',
    limit: () => Math.min(WORK_ORDER_IMAGE_MAX_BYTES, MAX_UPLOAD),
  },
  { route: 'POST /v1/things/tenants/:tenant_id/things/import', kind: 'multipart', limit: () => MAX_UPLOAD },
  { route: 'POST /v1/things/tenants/:tenant_id/things/import', kind: 'raw', type: 'text/csv', limit: () => 4 * 1024 * 1024 },
  { route: 'POST /v1/data-mgmt/tenants/:tenant_id/things/:things_id/uploads', kind: 'multipart', limit: () => MAX_UPLOAD },
  { route: 'POST /v1/mapping-mgmt/tenants/:tenant_id/dbc-files', kind: 'multipart', limit: () => MAX_UPLOAD, fields: { name: 'big' } },
  { route: 'PUT /v1/mapping-mgmt/tenants/:tenant_id/dbc-files/:id', kind: 'multipart', limit: () => MAX_UPLOAD },
  {
    route: 'POST /v1/out-firmware-mgmt/tenants/:tenantId/firmwares',
    kind: 'multipart',
    limit: () => MAX_UPLOAD,
    fields: { version: '1.0.0' },
  },
  { route: 'POST /v1/single-candtu/tenants/:tenant_id/files', kind: 'multipart', limit: () => MAX_UPLOAD, fields: { type: 'dtc' } },
  { route: 'POST /v1/things/tenants/:tenant_id/things/:things_id/config/import', kind: 'multipart', limit: () => MAX_UPLOAD },
  {
    route: 'POST /v1/things/tenants/:tenant_id/things/:things_id/config/import',
    kind: 'raw',
    type: 'application/json',
    limit: () => MAX_CONFIG_FILE_BYTES + 1024,
  },
  {
    route: 'POST /v1/test-mgmt/tenants/:tenant_id/scripts/import',
    kind: 'multipart',
    limit: () => Math.min(MAX_SCRIPT_CHARS * 4 + 4096, MAX_UPLOAD),
  },
  {
    route: 'POST /v1/billing/tenants/:tenant_id/orders/:id/receipt',
    kind: 'multipart',
    limit: () => Math.min(ORDER_RECEIPT_MAX_BYTES, MAX_UPLOAD),
  },
  { route: 'POST /v1/out-web/deploy/web/save', kind: 'multipart', limit: () => MAX_UPLOAD, admin: true, query: '?version=9.9.9' },
  { route: 'PUT /v1/filemanager/recall-upload/:token', kind: 'raw', type: 'application/octet-stream', limit: () => MAX_UPLOAD_PART },
  { route: 'POST /v1/filemanager/recall-upload/:token', kind: 'raw', type: 'application/octet-stream', limit: () => MAX_UPLOAD_PART },
];

/** POST and PUT routes that take no body at all (actions named by their path). */
const NO_BODY = [
  'POST /v1/data-mgmt/tenants/:tenant_id/clean-tasks/:id/run',
  'PUT /v1/data-mgmt/tenants/:tenant_id/clean-tasks/:id/status/:status',
  'POST /v1/control/oidc/link',
  'POST /v1/control/sessions/experience',
  'POST /v1/control/sessions/monitor',
  'POST /v1/things/tenants/:tenant_id/things/:things_id/key',
  'PUT /v1/alert-mgmt/tenants/:tenant_id/trigger-rules/:id/status/:status',
  'PUT /v1/alert-mgmt/tenants/:tenant_id/things-forward-rules/:id/status/:status',
  'PUT /v1/job-mgmt/tenants/:tenant_id/jobs/:job_id/status/:status',
  'POST /v1/things/tenants/:tenant_id/things/:things_id/messages/:correlation_id/cancel',
  'POST /v1/things/tenants/:tenant_id/things/:things_id/recall/tasks/:id/cancel',
  'PUT /v1/out-firmware-mgmt/tenants/:tenantId/firmwares/:id/:toPublic',
  'POST /v1/out-firmware-mgmt/tenants/:tenantId/things/:things_id/upgrades/:id/cancel',
  'POST /v1/single-candtu/tenants/:tenant_id/things/:things_id/ecu-upgrade/:id/cancel',
  'POST /v1/test-mgmt/tenants/:tenant_id/runs/:id/cancel',
  'POST /v1/out-web/deploy/web/rollback',
  'POST /v1/out-web/deploy/web/built-in',
  'POST /v1/out-web/user/logout',
  'POST /v1/billing/tenants/:tenant_id/orders/:id/pay',
  'POST /v1/billing/tenants/:tenant_id/orders/:id/cancel',
  'PUT /v1/data-mgmt/tenants/:tenant_id/statistics-tasks/:id/status/:status',
  'POST /v1/out-hmi/tenants/:tenant_id/screens/:id/publish',
  'POST /v1/out-hmi/tenants/:tenant_id/screens/:id/unpublish',
];

function pathOf(url: string): string {
  return url
    .replace(/:tenant_id|:tenantId/g, tenant.tenantId)
    .replace(':things_id', deviceId)
    .replace(':token', 'a'.repeat(48))
    .replace(/:[A-Za-z_]+/g, '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b');
}

describe('upload routes', () => {
  it('are all in the table (every POST/PUT route without a JSON body schema takes a file or no body)', () => {
    const listed = new Set([...UPLOADS.map((u) => u.route), ...NO_BODY]);
    const unlisted = t.app.routeTable
      .filter((r) => (r.method === 'POST' || r.method === 'PUT') && !r.schema.body && !r.websocket)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => !listed.has(k));
    expect(unlisted).toEqual([]);
    const known = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    expect([...listed].filter((k) => !known.has(k))).toEqual([]);
  });

  it.each(UPLOADS.map((u) => [`${u.route} (${u.type ?? u.kind})`, u] as const))(
    '%s over its limit: 413 with the error shape, read by a client that writes everything first',
    async (_label, u) => {
      const [method, url] = u.route.split(' ');
      const size = u.limit() + 256 * 1024;
      const body = u.kind === 'multipart' ? multipart(size, u.fields) : Buffer.alloc(size, u.type === 'application/json' ? 0x20 : 0x41);
      const type = u.kind === 'multipart' ? MULTIPART : (u.type as string);
      const auth: Record<string, string> = url.includes('recall-upload') ? {} : { authorization: u.admin ? admin : tenant.auth };
      expect413(await send(method, pathOf(url) + (u.query ?? ''), { 'content-type': type, ...auth }, body), u.route);
    },
  );

  it('a multipart form cut short is a 400 with the error shape on every multipart route', async () => {
    const wrong: string[] = [];
    for (const u of UPLOADS.filter((x) => x.kind === 'multipart')) {
      const [method, url] = u.route.split(' ');
      const cut = multipart(10, u.fields).subarray(0, -20);
      const res = await t.app.inject({
        method: method as 'POST',
        url: pathOf(url) + (u.query ?? ''),
        headers: { 'content-type': MULTIPART, authorization: u.admin ? admin : tenant.auth },
        payload: cut,
      });
      const ok = res.statusCode >= 400 && res.statusCode < 500 && ErrorResponseSchema.safeParse(res.json()).success;
      if (!ok) wrong.push(`${u.route} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('JSON bodies', () => {
  it('over the body limit (the review’s 11 MB): 413 http.413, read by a client that writes everything first', async () => {
    const body = Buffer.from(JSON.stringify({ title: 'x'.repeat(11 * 1024 * 1024) }));
    const a = await send('POST', '/v1/out-web/notice', { 'content-type': 'application/json', authorization: admin }, body);
    expect413(a, 'notice');
    expect(JSON.parse(a.body).code).toBe('http.413');
    // A public route and a tenant route alike; just over the limit too.
    const justOver = Buffer.alloc(JSON_BODY_LIMIT + 1, 0x20);
    expect413(await send('POST', '/v1/control/sessions', { 'content-type': 'application/json' }, justOver), 'login');
    const things = `/v1/things/tenants/${tenant.tenantId}/things`;
    expect413(await send('POST', things, { 'content-type': 'application/json', authorization: tenant.auth }, justOver), 'things');
  });

  it('under the limit still reaches the route (the limit is not lower than it says)', async () => {
    const body = Buffer.from(JSON.stringify({ username: 'x'.repeat(JSON_BODY_LIMIT - 100), password: 'p', type: 1 }));
    const a = await send('POST', '/v1/control/sessions', { 'content-type': 'application/json' }, body);
    expect(a.status).toBe(400); // refused by the schema (name too long), not by size
    expect(JSON.parse(a.body).code).not.toBe('http.413');
  });

  it('a big body refused before it is read (no token) is answered, not reset', async () => {
    const a = await send(
      'POST',
      `/v1/things/tenants/${tenant.tenantId}/things/import`,
      { 'content-type': MULTIPART },
      multipart(3 * 1024 * 1024),
    );
    expect(a.status).toBe(401);
    expect(ErrorResponseSchema.safeParse(JSON.parse(a.body)).success).toBe(true);
  });

  it('the server answers afterwards', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(res.status).toBe(200);
  });
});
