import { ErrorResponseSchema, permissionDef } from '@loggerhead/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { inputOf, jsonSchemaOf, nasty, toQuery, toSegment } from './input-fuzz.helpers.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Every route of the router (its own table), called with malformed path parameters, queries and
 * bodies generated from the route's schemas, as the caller allowed to reach its handler: no
 * answer is a 5xx, every 4xx carries the error shape `{code, message}`, and the server still
 * answers afterwards. A failure names the seed: `FUZZ_SEED=<seed>` replays the run (route i runs
 * with seed + i). A longer hunt: `FUZZ_RUNS=60 FUZZ_SEED=<any>`; `FUZZ_TRACE=<file>` logs every answer.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);
/** Requests per route: bounded so the file stays well under a minute on a busy machine. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

let t: TestApp;
let tenant: TenantFixture;
let admin: string;
let deviceId: string;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await makeTenant(t);
  admin = await loginAdmin(t.app);
  deviceId = (await makeDevice(t, tenant)).id;
  // Test management's Groovy worker (a JVM) starts with the first script validated or run; it is
  // started here, so that a fuzzed call is timed on the route's work, not on a JVM start on a busy
  // machine. Its answer is checked as any other: validating a one-line script finds no problem.
  const warm = await t.app.inject({
    method: 'POST',
    url: `/v1/test-mgmt/tenants/${tenant.tenantId}/scripts/validate`,
    headers: { authorization: tenant.auth },
    payload: { content: 'metric("one", 1)' },
  });
  expect(warm.statusCode, warm.body).toBe(200);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** The routes to call: all but HEAD twins, WebSockets and the API documentation's files. */
function routes(): RouteEntry[] {
  return t.app.routeTable.filter((r) => r.method !== 'HEAD' && !r.websocket && !r.url.startsWith('/v1/docs'));
}

function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
}

/** Ids of things the calls so far created or listed: later calls name them, to get past "not found". */
const seenIds: string[] = [];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function harvest(body: string) {
  if (seenIds.length >= 300 || (!body.startsWith('{') && !body.startsWith('['))) return;
  try {
    JSON.parse(body, (key, value) => {
      const own = value === tenant.tenantId || value === tenant.managerId;
      if ((key === 'id' || key.endsWith('_id')) && typeof value === 'string' && UUID_RE.test(value) && !own && !seenIds.includes(value)) {
        seenIds.push(value);
      }
      return value;
    });
  } catch {
    // not JSON after all (a file download): nothing to reuse
  }
}

/** Well-formed values for path parameters: the caller's own tenant, a real device, ids seen, fresh UUIDs. */
function goodParam(name: string, schema: Record<string, unknown> | null): fc.Arbitrary<unknown> {
  const seen = fc.nat({ max: 10_000 }).map((i) => seenIds[i % seenIds.length] ?? deviceId);
  if (name === 'tenant_id' || name === 'tenantId') return fc.constant(tenant.tenantId);
  if (name === 'things_id') return fc.oneof(fc.constant(deviceId), seen, fc.uuid());
  if (/(^id|_id|Id)$/.test(name)) return fc.oneof({ weight: 3, arbitrary: seen }, { weight: 1, arbitrary: fc.uuid() });
  const own = (schema?.properties as Record<string, Record<string, unknown>> | undefined)?.[name];
  return own ? inputOf({ ...schema, ...own }, 0) : fc.string({ minLength: 1, maxLength: 8 });
}

interface Case {
  method: string;
  url: string;
  payload?: string;
  contentType?: string;
}

/**
 * Requests for a route: a quarter well-formed throughout (they reach the handler and the database
 * with edge values the schemas allow), the rest malformed in one place — the path, the query or
 * the body — so the other parts do not get the request refused before the bad part is looked at.
 */
function requests(r: RouteEntry): fc.Arbitrary<Case> {
  const params = jsonSchemaOf(r.schema.params);
  const querySchema = jsonSchemaOf(r.schema.querystring);
  const bodySchema = jsonSchemaOf(r.schema.body);
  const names = paramNames(r.url);
  const withBody = r.method !== 'GET' && r.method !== 'DELETE';
  const path = (bad: boolean) =>
    fc
      .tuple(
        ...names.map((name) =>
          (bad
            ? fc.oneof({ weight: 2, arbitrary: goodParam(name, params) }, { weight: 1, arbitrary: nasty })
            : goodParam(name, params)
          ).map(toSegment),
        ),
      )
      .map((values) => names.reduce((url, name, i) => url.replace(`:${name}`, values[i]), r.url.replace(/\*$/, 'x')));
  const query = (bad: boolean) => inputOf(querySchema, bad ? 2 : 0).map(toQuery);
  const json = (bad: boolean) =>
    inputOf(bodySchema, bad ? 2 : 0).map((v) => ({ payload: JSON.stringify(v ?? {}), contentType: 'application/json' }));
  const body = (bad: boolean): fc.Arbitrary<Pick<Case, 'payload' | 'contentType'>> =>
    !withBody
      ? fc.constant({})
      : !bad
        ? json(false)
        : fc.oneof(
            { weight: 6, arbitrary: json(true) },
            {
              weight: 1,
              arbitrary: fc.constantFrom(
                { payload: '{"a":', contentType: 'application/json' },
                { payload: '\u0000', contentType: 'application/json' },
                { payload: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: 'application/json' },
                { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
                { payload: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n', contentType: 'multipart/form-data; boundary=x' },
                { payload: 'abc', contentType: 'text/plain' },
              ),
            },
          );
  const build = (where: 'none' | 'path' | 'query' | 'body') =>
    fc
      .tuple(path(where === 'path'), query(where === 'query'), body(where === 'body'))
      .map(([p, q, b]) => ({ method: r.method, url: p + q, ...b }));
  return fc.oneof(build('none'), build('path'), build('query'), build('body'));
}

/** Who may call a route: the system manager for system keys, else the tenant's manager. */
function callerOf(r: RouteEntry): string | undefined {
  if (r.config.public) return undefined;
  return r.config.permission && permissionDef(r.config.permission)?.scope === 'system' ? admin : tenant.auth;
}

/** The answer, or null when none comes within a generous bound (a hang is a failure too). */
async function answer<T>(p: Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), 15_000);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('every route, malformed input', () => {
  it(
    'answers 4xx with the error shape, never a 5xx',
    async () => {
      const failures: string[] = [];
      const statuses: Record<number, number> = {};
      const reached = new Set<string>();
      const perRoute: string[] = [];
      const all = routes();
      expect(all.length).toBeGreaterThan(200);
      for (const [i, r] of all.entries()) {
        if (process.env.FUZZ_TRACE)
          (await import('node:fs')).appendFileSync(process.env.FUZZ_TRACE, `${r.method} ${r.url} ${Date.now()}\n`);
        const auth = callerOf(r);
        let seen = '';
        const out = await fc.check(
          fc.asyncProperty(requests(r), async (c) => {
            const res = await answer(
              t.app.inject({
                method: c.method as 'GET',
                url: c.url,
                headers: { ...(auth ? { authorization: auth } : {}), ...(c.contentType ? { 'content-type': c.contentType } : {}) },
                ...(c.payload !== undefined ? { payload: c.payload } : {}),
              }),
            );
            if (!res) {
              seen = 'no answer';
              return false;
            }
            seen = `${res.statusCode} ${res.body.slice(0, 200)}`;
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            if (process.env.FUZZ_TRACE) perRoute.push(`${res.statusCode} ${r.method} ${r.url} ${res.body.slice(0, 80)}`);
            if (res.statusCode < 300) {
              reached.add(`${r.method} ${r.url}`);
              harvest(res.body);
            }
            if (res.statusCode >= 500) return false;
            if (res.statusCode >= 400) {
              let body: unknown;
              try {
                body = res.json();
              } catch {
                return false;
              }
              // the spec's shape, with the server's own codes (never a framework's internal ones)
              return (
                ErrorResponseSchema.safeParse(body).success &&
                [body].flat().every((b) => !/^(FST_|ERR_)/.test((b as { code: string }).code))
              );
            }
            return true;
          }),
          { seed: SEED + i, numRuns: RUNS, endOnFailure: true },
        );
        if (out.failed) {
          const c = out.counterexample?.[0] as Case | undefined;
          failures.push(
            `${r.method} ${r.url} (FUZZ_SEED=${SEED}): ${c?.method} ${c?.url?.slice(0, 300)} ${c?.payload?.slice(0, 300) ?? ''} → ${seen}`,
          );
        }
      }
      if (process.env.FUZZ_TRACE) {
        const missed = all.map((r) => `${r.method} ${r.url}`).filter((k) => !reached.has(k));
        (await import('node:fs')).appendFileSync(
          process.env.FUZZ_TRACE,
          `${JSON.stringify(statuses)}\nnever 2xx:\n${missed.join('\n')}\n${perRoute.join('\n')}\n`,
        );
      }
      expect(failures).toEqual([]);
      // The generated input is not all refused at the door: many routes got through to a 2xx.
      expect(reached.size).toBeGreaterThan(all.length / 5);
      const health = await t.app.inject({ method: 'GET', url: '/v1/health' });
      expect(health.statusCode).toBe(200);
    },
    Math.max(120_000, RUNS * 15_000),
  );
});
