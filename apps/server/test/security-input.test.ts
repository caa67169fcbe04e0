import { ErrorResponseSchema, permissionDef } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.ts';
import { MAX_DEPTH } from '../src/lib/input-guard.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { jsonSchemaOf } from './input-fuzz.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Bad input is a 400 with the error shape and the field, decided by class for every route of the
 * router: ids in paths are UUIDs checked before any query; a NUL character anywhere in a path,
 * query or body is refused; what the database still refuses is a 4xx too (and logged as a warning).
 */

/** Path parameters named like ids that are not UUID columns, and why. */
const NOT_UUID: Record<string, string> = {
  correlation_id: 'a command’s correlation text, chosen by the caller or the device (text column)',
};

const lines: string[] = [];
let t: TestApp;
let tenant: TenantFixture;
let admin: string;
let deviceId: string;

beforeAll(async () => {
  t = await createTestApp(
    { logLevel: 'warn' },
    {
      logLines: lines,
      beforeReady: (app, database) => {
        // A route that hands its query value to the database unchecked: what the safety net is for.
        app.get('/v1/test-only/cast/:type', { config: { public: true } }, async (req) => {
          const { type } = req.params as { type: string };
          const { v } = req.query as { v: string };
          const cast = { uuid: 'uuid', int: 'int', time: 'timestamptz', json: 'jsonb', num: 'numeric(3)' }[type] ?? 'text';
          const sql = type === 'broken' ? 'select v from no_such_table where v = $1' : `select $1::${cast} as v`;
          const { rows } = await database.raw.query(sql, [v]);
          return rows[0];
        });
      },
    },
  );
  tenant = await makeTenant(t);
  admin = await loginAdmin(t.app);
  deviceId = (await makeDevice(t, tenant)).id;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const UUID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const isId = (name: string) => /(^id|_id|Id)$/.test(name);
const routes = () =>
  t.app.routeTable.filter(
    (r) => r.method !== 'HEAD' && !r.websocket && !r.url.startsWith('/v1/docs') && !r.url.startsWith('/v1/test-only'),
  );
const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);

/** The caller allowed past a route's permission check: the system manager for system keys. */
function callerOf(r: RouteEntry): Record<string, string> {
  if (r.config.public) return {};
  const system = r.config.permission && permissionDef(r.config.permission)?.scope === 'system';
  return { authorization: system ? admin : tenant.auth };
}

/** A path of a route with well-formed values, `override` replacing one parameter. */
function pathOf(r: RouteEntry, override: Record<string, string> = {}): string {
  const props = (jsonSchemaOf(r.schema.params)?.properties ?? {}) as Record<string, { enum?: unknown[]; type?: string }>;
  return paramNames(r.url).reduce((url, name) => {
    let v = override[name];
    if (v === undefined) {
      if (name === 'tenant_id' || name === 'tenantId') v = tenant.tenantId;
      else if (name === 'things_id') v = deviceId;
      else if (isId(name)) v = UUID;
      else if (name === 'ids')
        v = UUID; // a list of ids, here of one
      else if (props[name]?.enum) v = String(props[name].enum?.[0]);
      else if (props[name]?.type === 'integer' || props[name]?.type === 'number') v = '1';
      else v = 'x1';
    }
    return url.replace(`:${name}`, v);
  }, r.url);
}

const hasBody = (r: RouteEntry) => r.method !== 'GET' && r.method !== 'DELETE';

async function call(r: RouteEntry, url: string, payload?: unknown) {
  return t.app.inject({
    method: r.method as 'GET',
    url,
    headers: callerOf(r),
    ...(hasBody(r) ? { payload: (payload ?? {}) as object } : {}),
  });
}

function expectErrorShape(body: unknown) {
  expect(ErrorResponseSchema.safeParse(body).success, JSON.stringify(body)).toBe(true);
}

describe('ids in paths', () => {
  it('every id parameter of every route is declared a UUID, unless listed with its reason', () => {
    const loose: string[] = [];
    for (const r of routes()) {
      const props = (jsonSchemaOf(r.schema.params)?.properties ?? {}) as Record<string, { format?: string }>;
      for (const name of paramNames(r.url)) {
        if (!isId(name) || name in NOT_UUID) continue;
        if (props[name]?.format !== 'uuid') loose.push(`${r.method} ${r.url} :${name}`);
      }
    }
    expect(loose).toEqual([]);
  });

  it('a non-UUID id is a 400 naming the parameter on every route, before any handler runs', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of routes()) {
      for (const name of paramNames(r.url)) {
        if (!isId(name) || name in NOT_UUID) continue;
        for (const bad of ['not-a-uuid', '1', `${UUID}0`, "1'or'1'='1"]) {
          const res = await call(r, pathOf(r, { [name]: encodeURIComponent(bad) }));
          checked++;
          const body = res.json();
          if (res.statusCode !== 400 || body.code !== 'http.400' || body.field !== name) {
            wrong.push(`${r.method} ${r.url} :${name}=${bad} → ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(wrong).toEqual([]);
  });
});

describe('URLs the router cannot read', () => {
  it('a bad percent-encoding or an over-long parameter gets the error shape with an http code, not the framework’s', async () => {
    const bad = await t.app.inject({ method: 'GET', url: `/v1/things/tenants/${tenant.tenantId}/things/%E0%A4%A` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'http.400', message: 'The URL is not valid' });
    const long = await t.app.inject({ method: 'GET', url: `/v1/things/tenants/${'x'.repeat(500)}/things` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ code: 'http.414', message: 'A path parameter is too long' });
  });
});

describe('NUL characters and deep nesting', () => {
  /** The first string property of a schema part, or a name the schema does not know. */
  function stringField(schema: unknown): string {
    const props = (jsonSchemaOf(schema)?.properties ?? {}) as Record<string, { type?: unknown; format?: string }>;
    const names = Object.entries(props);
    return names.find(([, p]) => p.type === 'string' && !p.format)?.[0] ?? names[0]?.[0] ?? 'extra';
  }

  it('in any path parameter, query field or body field of any route: a 400 naming the field', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of routes()) {
      const tries: { where: string; field: string; url: string; payload?: unknown }[] = [];
      for (const name of paramNames(r.url)) tries.push({ where: 'path', field: name, url: pathOf(r, { [name]: 'a%00b' }) });
      const q = stringField(r.schema.querystring);
      tries.push({ where: 'query', field: q, url: `${pathOf(r)}?${q}=a%00b` });
      if (hasBody(r)) {
        const b = stringField(r.schema.body);
        tries.push({ where: 'body', field: b, url: pathOf(r), payload: { [b]: 'a\u0000b' } });
        tries.push({ where: 'body', field: `${b}.0.k`, url: pathOf(r), payload: { [b]: [{ k: '\u0000' }] } });
      }
      for (const c of tries) {
        const res = await call(r, c.url, c.payload);
        checked++;
        const body = res.json();
        if (res.statusCode !== 400 || body.code !== 'http.400' || body.field !== c.field || !/NUL/.test(body.message)) {
          wrong.push(`${r.method} ${r.url} ${c.where} ${c.field} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(wrong).toEqual([]);
  });

  it('nesting deeper than the limit, in any body: a 400 naming where, also where a route parses JSON itself', async () => {
    // (sent as text: serialising an object this deep overflows the stack, what the limit spares the server)
    const deep = `{"v":${'[{"a":'.repeat(2500)}1${'}]'.repeat(2500)}}`;
    const wrong: string[] = [];
    for (const r of routes().filter(hasBody)) {
      const res = await t.app.inject({
        method: r.method as 'POST',
        url: pathOf(r),
        headers: { ...callerOf(r), 'content-type': 'application/json' },
        payload: deep,
      });
      const body = res.json();
      if (
        res.statusCode !== 400 ||
        body.code !== 'http.400' ||
        !/^v(\.|$)/.test(body.field) ||
        !/nested deeper than 64/.test(body.message)
      ) {
        wrong.push(`${r.method} ${r.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The limit is where it says: MAX_DEPTH levels pass (the body, its list, an item, then arrays), one more does not.
    const nested = (arrays: number) => {
      let v: unknown = 1;
      for (let i = 0; i < arrays; i++) v = [v];
      return { key: 'deep', value: [{ v }] };
    };
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/v1/tenant/users/self/configs', headers: { authorization: tenant.auth }, payload });
    expect((await put(nested(MAX_DEPTH - 3))).body).not.toMatch(/nested deeper/);
    expect((await put(nested(MAX_DEPTH - 2))).json()).toMatchObject({ code: 'http.400', message: expect.stringMatching(/nested deeper/) });
  });

  it('in a key of a body: a 400 too', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/tenant/users/self/configs',
      headers: { authorization: tenant.auth },
      payload: { key: 'k', value: [{ 'a\u0000': 1 }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'http.400', field: 'value.0.a\\u0000' });
  });

  it('the review’s example: ?keyword=%00 on a device list', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${tenant.tenantId}/things?keyword=%00`,
      headers: { authorization: tenant.auth },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'http.400', message: 'keyword: must not contain a NUL character', field: 'keyword' });
  });
});

describe('control characters in names', () => {
  /** The name fields (keys ending in `name`) of a schema part, with the items of its lists of objects. */
  function nameFields(schema: unknown): { field: string; value: (v: string) => unknown }[] {
    const props = (jsonSchemaOf(schema)?.properties ?? {}) as Record<string, { type?: unknown; items?: unknown }>;
    const out: { field: string; value: (v: string) => unknown }[] = [];
    for (const [k, p] of Object.entries(props)) {
      if (/name$/i.test(k)) out.push({ field: k, value: (v) => ({ [k]: p.type === 'array' ? [v] : v }) });
      const items = (p.items ?? {}) as { properties?: Record<string, unknown> };
      for (const inner of Object.keys(items.properties ?? {}).filter((n) => /name$/i.test(n)))
        out.push({ field: `${k}.0.${inner}`, value: (v) => ({ [k]: [{ [inner]: v }] }) });
    }
    return out;
  }

  it('a CR LF in any name field of any route, in the query or the body: a 400 naming the field, before any handler runs', async () => {
    const wrong: string[] = [];
    const seen: string[] = [];
    for (const r of routes()) {
      const tries: { field: string; url: string; payload?: unknown }[] = [];
      for (const f of nameFields(r.schema.querystring)) tries.push({ field: f.field, url: `${pathOf(r)}?${f.field}=a%0D%0Ab` });
      if (hasBody(r)) for (const f of nameFields(r.schema.body)) tries.push({ field: f.field, url: pathOf(r), payload: f.value('a\r\nb') });
      for (const c of tries) {
        seen.push(`${r.method} ${r.url} ${c.field}`);
        const res = await call(r, c.url, c.payload);
        const body = res.json();
        if (
          res.statusCode !== 400 ||
          body.code !== 'http.400' ||
          !String(body.field).startsWith(c.field) ||
          !/control characters/.test(body.message)
        )
          wrong.push(`${r.method} ${r.url} ${c.field} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    // The class is large: devices, device types, fences, rules, users, tenants, tasks, files, …
    expect(seen.length).toBeGreaterThan(60);
    expect(seen).toEqual(expect.arrayContaining([expect.stringMatching(/^POST \/v1\/things\/tenants\/:tenant_id\/things name$/)]));
    expect(wrong).toEqual([]);
  });

  it('every control character is refused in a device name, nothing is written; other text and other fields keep theirs', async () => {
    const create = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/things/tenants/${tenant.tenantId}/things`,
        headers: { authorization: tenant.auth },
        payload,
      });
    const before = (await t.database.raw.query<{ n: number }>('select count(*)::int as n from things')).rows[0].n;
    for (const c of ['\r\n', '\n', '\t', '\u001b', '\u007f', '\u0085', '\u009f']) {
      const res = await create({ third_things_id: 'AB'.repeat(10), name: `van${c}2`, info_model_id: UUID });
      expect([JSON.stringify(c), res.statusCode, res.json().field]).toEqual([JSON.stringify(c), 400, 'name']);
    }
    expect((await t.database.raw.query<{ n: number }>('select count(*)::int as n from things')).rows[0].n).toBe(before);
    // Names in any script, with spaces and signs, pass; a description may hold a line break.
    const ok = await makeDevice(t, tenant, { name: '冷链车 A-1 (北区)', description: 'first line\nsecond line' });
    expect(ok.id).toBeTruthy();
    // A name from an imported file is refused the same way.
    const imported = await t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/import`,
      headers: { authorization: tenant.auth, 'content-type': 'text/csv' },
      payload: `third_things_id,name,type,description\n${'CD'.repeat(10)},"van\t2",CANDTU-200,\n`,
    });
    expect(imported.json()).toMatchObject({ created: 0, errors: [{ line: 2, code: 'http.400' }] });
  });
});

describe('values the database refuses (the safety net behind the schemas)', () => {
  it.each([
    ['uuid', 'nope', '22P02'],
    ['int', '99999999999', '22003'],
    ['num', '12345', '22003'],
    ['time', '2024-02-30T10:00:00Z', '22008'],
    ['json', '{"a":"\\u0000"}', '22P05'],
  ])('a %s cast of %j is a 400 with the error shape, logged as a warning with its SQLSTATE', async (type, v, state) => {
    lines.length = 0;
    const res = await t.app.inject({ method: 'GET', url: `/v1/test-only/cast/${type}?v=${encodeURIComponent(v)}` });
    expect(res.statusCode).toBe(400);
    expectErrorShape(res.json());
    expect(res.json().code).toBe('http.400');
    // No internals: neither the database's own text nor the value in the answer.
    expect(res.body).not.toMatch(/syntax|for type|field value|numeric field|Unicode|UTF8/);
    expect(res.body).not.toContain(v);
    const warn = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'database refused a request value');
    expect(warn).toMatchObject({ level: 40, sqlState: state, route: '/v1/test-only/cast/:type' });
  });

  it('an error of the server itself stays a 500 without internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/test-only/cast/broken?v=1' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'http.500', message: 'Internal server error' });
  });
});
