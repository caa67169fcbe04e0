import http from 'node:http';
import type { CanFrame } from '@loggerhead/can';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluginPool } from '../src/modules/plugin/plugin.engine.ts';
import { exportFile, upload } from './data-service.helpers.ts';
import { api, drain, type Forwarded, replay, rule, rulesUrl, trip } from './forward.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

const pluginsUrl = (tenant: TenantFixture, rest = '') => `/v1/data-mgmt/tenants/${tenant.tenantId}/plugins${rest}`;

/** A local webhook receiver keeping every message it was sent. */
function receiver() {
  const got: Forwarded[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      got.push(...(JSON.parse(raw) as { messages: Forwarded[] }).messages);
      res.writeHead(204).end();
    });
  });
  return {
    got,
    server,
    open: () => new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('data transform and export plugins', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  const hook = receiver();
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    port = await hook.open();
  });
  afterAll(async () => {
    hook.server.closeAllConnections();
    await hook.close();
    await t?.close();
  });
  const req = (...args: Parameters<ReturnType<typeof api>>) => api(t)(...args);

  it('stores plugins of its own tenant and refuses a malformed expression with plugin.bad-expression', async () => {
    const bad = await req('POST', pluginsUrl(a), a.auth, { name: 'broken', type: 'transform', expression: '{"a": data.x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'plugin.bad-expression', field: 'expression' });
    expect((await req('GET', pluginsUrl(a), a.auth)).json().total).toBe(0);

    const tooLong = await req('POST', pluginsUrl(a), a.auth, { name: 'long', type: 'transform', expression: `"${'x'.repeat(5000)}"` });
    expect(tooLong.statusCode).toBe(400);

    const created = await req('POST', pluginsUrl(a), a.auth, {
      name: 'kmh',
      type: 'transform',
      expression: '{"speed_ms": data.kmh / 3.6}',
    });
    expect(created.statusCode).toBe(200);
    const p = created.json();
    expect(p).toMatchObject({ name: 'kmh', type: 'transform', header: null });
    expect((await req('POST', pluginsUrl(a), a.auth, { name: 'kmh', type: 'export', expression: '1' })).json()).toMatchObject({
      code: 'plugin.duplicate',
    });
    const upd = await req('PUT', pluginsUrl(a, `/${p.id}`), a.auth, {
      name: 'kmh',
      type: 'transform',
      expression: '{"speed": data.kmh / 3.6}',
    });
    expect(upd.json().expression).toBe('{"speed": data.kmh / 3.6}');
    expect((await req('PUT', pluginsUrl(a, `/${p.id}`), a.auth, { name: 'kmh', type: 'transform', expression: '(' })).json()).toMatchObject(
      {
        code: 'plugin.bad-expression',
      },
    );
    expect((await req('GET', pluginsUrl(a, '?type=export'), a.auth)).json().total).toBe(0);
    expect((await req('GET', pluginsUrl(a, '?type=transform'), a.auth)).json().list.map((x: { id: string }) => x.id)).toEqual([p.id]);

    // Another tenant neither reaches A's path nor finds A's plugin through its own.
    expect((await req('GET', pluginsUrl(a), b.auth)).statusCode).toBe(403);
    expect((await req('GET', pluginsUrl(b, `/${p.id}`), b.auth)).json()).toMatchObject({ code: 'plugin.not-found' });
    expect((await req('DELETE', pluginsUrl(b, `/${p.id}`), b.auth)).statusCode).toBe(404);

    // A sub-user needs the plugin keys.
    const sub = await makeSubUser(t, a, ['tenant:label:query']);
    expect((await req('GET', pluginsUrl(a), sub.auth)).statusCode).toBe(403);
    const reader = await makeSubUser(t, a, ['data-mgmt:plugin:query']);
    expect((await req('GET', pluginsUrl(a), reader.auth)).json().total).toBe(1);
    expect((await req('POST', pluginsUrl(a), reader.auth, { name: 'x', type: 'transform', expression: '1' })).statusCode).toBe(403);

    expect((await req('DELETE', pluginsUrl(a, `/${p.id}`), a.auth)).json()).toEqual({ ok: true });
    expect((await req('GET', pluginsUrl(a, `/${p.id}`), a.auth)).statusCode).toBe(404);
  });

  it('test-runs an expression: maps and unit-converts, drops on false or nothing, and stops a runaway one', async () => {
    const run = (expression: string, input: unknown) => req('POST', pluginsUrl(a, '/test'), a.auth, { expression, input });
    const input = { kind: 'signals', data: { signals: [{ signal: 'speed', unit: 'km/h', values: [36, 72] }] } };
    const mapped = await run('{"speed_ms": data.signals[signal="speed"].values.($ / 3.6)}', input);
    expect(mapped.statusCode).toBe(200);
    expect(mapped.json()).toMatchObject({ kept: true, output: { speed_ms: [10, 20] } });
    expect((await run('kind = "frames" ? data', input)).json()).toMatchObject({ kept: false });
    expect((await run('false', input)).json()).toMatchObject({ kept: false });
    expect((await run('$missing', input)).json().kept).toBe(false);

    const bad = await run('data.(', input);
    expect(bad.json()).toMatchObject({ code: 'plugin.bad-expression' });
    const failed = await run('$error("no speed")', input);
    expect(failed.statusCode).toBe(400);
    expect(failed.json()).toMatchObject({ code: 'plugin.eval-failed' });
    expect(failed.json().message).toContain('no speed');

    // A loop without end (a tail call: no stack grows) and a recursion without end are both stopped.
    const t0 = Date.now();
    const loop = await run('($f := function($n) { $n < 0 ? 0 : $f($n + 1) }; $f(0))', input);
    expect(loop.json()).toMatchObject({ code: 'plugin.timeout' });
    const deep = await run('($f := function($n) { 1 + $f($n + 1) }; $f(0))', input);
    expect(deep.json()).toMatchObject({ code: 'plugin.timeout' });
    expect(Date.now() - t0).toBeLessThan(5000);
    const huge = await run('[1..5000000]', input);
    expect(huge.json()).toMatchObject({ code: 'plugin.timeout' });
    // A regular expression is not run on a huge string (one backtracking match cannot be stopped).
    const regex = await run('$contains(s, /(a+)+$/)', { s: 'a'.repeat(20_000) });
    expect(regex.json()).toMatchObject({ code: 'plugin.eval-failed' });
    expect((await run('$contains(s, /(a+)+$/)', { s: 'aaa' })).json()).toMatchObject({ kept: true, output: true });
  });

  it('a backtracking regular expression is stopped on its thread: health and another tenant are answered meanwhile', async () => {
    // 35 characters: on the server's thread this match would take minutes (each character doubles it).
    const payload = `${'a'.repeat(34)}!`;
    const replacedBefore = pluginPool().replaced;
    const order: string[] = [];
    const evil = req('POST', pluginsUrl(a, '/test'), a.auth, { expression: '$match(payload, /(a+)+$/)', input: { payload } }).then((r) => {
      order.push('evil');
      return r;
    });
    // Asked after the evaluation started: answered before it ends, because it runs elsewhere.
    await new Promise((r) => setTimeout(r, 20));
    const health = t.app.inject({ method: 'GET', url: '/v1/health' }).then((r) => {
      order.push('health');
      return r;
    });
    const other = req('POST', pluginsUrl(b, '/test'), b.auth, { expression: '$uppercase(s)', input: { s: 'ok' } }).then((r) => {
      order.push('other');
      return r;
    });
    const [e, h, o] = await Promise.all([evil, health, other]);
    expect(e.statusCode).toBe(400);
    expect(e.json()).toMatchObject({ code: 'plugin.timeout' });
    expect(h.statusCode).toBe(200);
    expect(o.json()).toMatchObject({ kept: true, output: 'OK' });
    expect(order[0]).toBe('health');
    // Its thread was terminated and replaced: the next evaluation runs.
    expect(pluginPool().replaced).toBeGreaterThan(replacedBefore);
    expect(
      (await req('POST', pluginsUrl(a, '/test'), a.auth, { expression: '$match(payload, /a+!/).match', input: { payload } })).json(),
    ).toMatchObject({
      kept: true,
      output: payload,
    });
  });

  it('a transform whose regular expression runs away dead-letters that message alone; its other messages and other rules are delivered', async () => {
    // The offline change backtracks for ever; the online change is mapped; frames are dropped.
    const evil = (
      await req('POST', pluginsUrl(a), a.auth, {
        name: 'runaway',
        type: 'transform',
        expression: `kind = "status" ? (data.online ? {"up": true} : $match("${'a'.repeat(34)}!", /(a+)+$/))`,
      })
    ).json();
    const plain = (
      await req('POST', pluginsUrl(b), b.auth, {
        name: 'plain',
        type: 'transform',
        expression: 'kind = "status" ? {"online": data.online}',
      })
    ).json();
    const make = async (tenant: TenantFixture, name: string, plugin: string) =>
      (
        await req('POST', rulesUrl(tenant), tenant.auth, {
          name,
          data_kinds: ['status', 'frames'],
          destination: { kind: 'http', url: `http://127.0.0.1:${port}/hook` },
          transform_plugin_id: plugin,
        })
      ).json();
    const ra = await make(a, 'runaway', evil.id);
    const rb = await make(b, 'plain', plain.id);
    const da = await makeDevice(t, a);
    const db = await makeDevice(t, b);
    await Promise.all([replay(t, da, trip(20, 1_760_000_200_000_000)), replay(t, db, trip(20, 1_760_000_200_000_000))]);
    await drain(t);
    const dead = await poll(
      async () => (await req('GET', rulesUrl(a, `/${ra.id}/dead-letters`), a.auth)).json(),
      (p) => p.total >= 1,
      { ms: 15_000 },
    );
    expect(dead.total).toBe(1);
    expect(dead.list[0].error).toContain('plugin.timeout');
    const ca = await poll(
      async () => (await rule(t, a, ra.id)).counters,
      (x) => x.delivered >= 1 && x.pending === 0,
      { ms: 15_000 },
    );
    expect(ca.delivered).toBe(1);
    expect(hook.got.filter((m) => m.rule_id === ra.id).map((m) => m.data)).toEqual([{ up: true }]);
    const gotB = await poll(
      () => hook.got.filter((m) => m.rule_id === rb.id),
      (x) => x.length >= 2,
      { ms: 15_000 },
    );
    expect(gotB.map((m) => m.data)).toEqual([{ online: true }, { online: false }]);
    await req('DELETE', rulesUrl(a, `/${ra.id}`), a.auth);
    await req('DELETE', rulesUrl(b, `/${rb.id}`), b.auth);
  });

  it('a forward rule with a transform plugin delivers the mapped messages and drops the filtered ones', async () => {
    // Status changes: only the device going online is sent, renamed.
    const plugin = (
      await req('POST', pluginsUrl(a), a.auth, {
        name: 'online-only',
        type: 'transform',
        expression: 'data.online ? {"state": "up", "device": third_things_id}',
      })
    ).json();
    const exportPlugin = (await req('POST', pluginsUrl(a), a.auth, { name: 'rows', type: 'export', expression: 'id' })).json();
    const body = (transform_plugin_id: string | null, name = 'mapped') => ({
      name,
      data_kinds: ['status', 'frames'],
      destination: { kind: 'http', url: `http://127.0.0.1:${port}/hook` },
      transform_plugin_id,
    });
    expect((await req('POST', rulesUrl(a), a.auth, body(exportPlugin.id))).json()).toMatchObject({ code: 'plugin.wrong-type' });
    const other = (await req('POST', pluginsUrl(b), b.auth, { name: 'theirs', type: 'transform', expression: 'data' })).json();
    expect((await req('POST', rulesUrl(a), a.auth, body(other.id))).json()).toMatchObject({ code: 'plugin.not-found' });

    const created = await req('POST', rulesUrl(a), a.auth, body(plugin.id));
    expect(created.statusCode).toBe(200);
    const r = created.json();
    expect(r.transform_plugin_id).toBe(plugin.id);
    // A plugin in use cannot be deleted.
    expect((await req('DELETE', pluginsUrl(a, `/${plugin.id}`), a.auth)).json()).toMatchObject({ code: 'plugin.in-use' });

    const d = await makeDevice(t, a);
    await replay(t, d, trip(50, 1_760_000_000_000_000));
    await drain(t);
    const c = await poll(
      async () => (await rule(t, a, r.id)).counters,
      (x) => x.delivered + x.filtered >= 3,
      { ms: 15_000 },
    );
    const mine = hook.got.filter((m) => m.rule_id === r.id);
    // Every frames message and the offline change were dropped; the online change came renamed.
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: 'status', things_id: d.id, data: { state: 'up', device: d.third_things_id } });
    expect(c.delivered).toBe(1);
    expect(c.filtered).toBeGreaterThanOrEqual(2);
    expect(c.pending).toBe(0);
    expect(c.dead_letters).toBe(0);
    await req('DELETE', rulesUrl(a, `/${r.id}`), a.auth);
  });

  it('a transform that fails on a message dead-letters it with the plugin error; a replay after the fix delivers it', async () => {
    const plugin = (
      await req('POST', pluginsUrl(a), a.auth, {
        name: 'fails',
        type: 'transform',
        expression: 'kind = "status" ? $error("not yet") : false',
      })
    ).json();
    const r = (
      await req('POST', rulesUrl(a), a.auth, {
        name: 'failing',
        data_kinds: ['status'],
        destination: { kind: 'http', url: `http://127.0.0.1:${port}/hook` },
        transform_plugin_id: plugin.id,
      })
    ).json();
    const d = await makeDevice(t, a);
    await replay(t, d, trip(5, 1_760_000_100_000_000));
    await drain(t);
    const dead = await poll(
      async () => (await req('GET', rulesUrl(a, `/${r.id}/dead-letters`), a.auth)).json(),
      (p) => p.total >= 2,
      { ms: 15_000 },
    );
    expect(dead.total).toBe(2);
    expect(dead.list[0].error).toContain('plugin.eval-failed');
    expect(dead.list[0].error).toContain('not yet');
    expect(hook.got.filter((m) => m.rule_id === r.id)).toHaveLength(0);

    await req('PUT', pluginsUrl(a, `/${plugin.id}`), a.auth, { name: 'fails', type: 'transform', expression: '{"online": data.online}' });
    expect((await req('POST', rulesUrl(a, `/${r.id}/dead-letters/replay`), a.auth, {})).json()).toEqual({ count: 2 });
    await drain(t);
    const got = await poll(
      () => hook.got.filter((m) => m.rule_id === r.id),
      (x) => x.length >= 2,
      { ms: 15_000 },
    );
    expect(got.map((m) => m.data)).toEqual([{ online: true }, { online: false }]);
  });

  it('an export plugin writes each row of a CSV export in its own format, with its header and extension', async () => {
    const T = 1_750_000_000_000_000;
    const frames: CanFrame[] = Array.from({ length: 40 }, (_, i) => ({
      ts: T + i * 1000,
      channel: i % 2,
      id: 0x100 + i,
      ext: false,
      fd: false,
      brs: false,
      esi: false,
      rtr: false,
      err: false,
      tx: false,
      data: new Uint8Array([i, 0xab, 0x0c]),
    }));
    const d = await makeDevice(t, a);
    await upload(t, a, d.id, frames);
    const plugin = (
      await req('POST', pluginsUrl(a), a.auth, {
        name: 'candump-ish',
        type: 'export',
        expression: 'channel = 1 ? id & "#" & data',
        header: 'id#data',
        file_extension: 'can',
      })
    ).json();
    const range = { begin_time: T / 1000, end_time: T / 1000 + 1000 };
    const out = await exportFile(t, a, d.id, { ...range, format: 'csv', plugin_id: plugin.id });
    expect(out.progress).toMatchObject({ status: 3, output_count: 20 });
    expect(out.progress.file_name).toMatch(/\.can$/);
    const expected = frames
      .filter((f) => f.channel === 1)
      .map((f) => `${f.id.toString(16).toUpperCase()}#${Buffer.from(f.data).toString('hex').toUpperCase()}`);
    expect(out.file?.body.trimEnd().split('\n')).toEqual(['id#data', ...expected]);

    // Objects are written as JSON lines.
    const json = (
      await req('POST', pluginsUrl(a), a.auth, { name: 'json-rows', type: 'export', expression: '{"t": ts_us, "len": dlc}' })
    ).json();
    const rows = await exportFile(t, a, d.id, { ...range, format: 'csv', plugin_id: json.id });
    expect(
      rows.file?.body
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(frames.map((f) => ({ t: f.ts, len: 3 })));
    expect(rows.progress.file_name).toMatch(/\.txt$/);

    // Only a CSV export, only an export plugin of the tenant.
    expect((await exportFile(t, a, d.id, { ...range, format: 'asc', plugin_id: plugin.id })).created).toMatchObject({
      code: 'plugin.wrong-type',
    });
    const transform = (await req('POST', pluginsUrl(a), a.auth, { name: 'not-export', type: 'transform', expression: 'data' })).json();
    expect((await exportFile(t, a, d.id, { ...range, format: 'csv', plugin_id: transform.id })).created).toMatchObject({
      code: 'plugin.wrong-type',
    });
    // A plugin that fails on a row fails the export with its error.
    const failing = (await req('POST', pluginsUrl(a), a.auth, { name: 'boom', type: 'export', expression: '$error("row " & id)' })).json();
    const bad = await exportFile(t, a, d.id, { ...range, format: 'csv', plugin_id: failing.id });
    expect(bad.progress).toMatchObject({ status: 7 });
    expect(bad.progress.error).toContain('plugin.eval-failed');
  });
});
