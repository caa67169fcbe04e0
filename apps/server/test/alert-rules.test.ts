import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let device: { id: string };

const url = (tenant: TenantFixture, rest = '') => `/v1/alert-mgmt/tenants/${tenant.tenantId}/trigger-rules${rest}`;

function rawRule(over: Record<string, unknown> = {}) {
  return {
    name: `rule ${Math.random().toString(36).slice(2, 8)}`,
    things_id: device.id,
    channel: 0,
    frame_id: '0x123',
    conditions: [{ source: 'data', start_byte: 0, length: 1, op: '>', value: 100 }],
    ...over,
  };
}

async function create(tenant: TenantFixture, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: url(tenant), headers: { authorization: tenant.auth }, payload: body });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  b = await makeTenant(t);
  device = await makeDevice(t, a);
});
afterAll(async () => {
  await t?.close();
});

describe('trigger rules', () => {
  it('documents the alert, event, fence and GPS routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    for (const p of [
      '/v1/alert-mgmt/tenants/{tenant_id}/trigger-rules',
      '/v1/alert-mgmt/tenants/{tenant_id}/trigger-rules/{id}/status/{status}',
      '/v1/alert-mgmt/tenants/{tenant_id}/trigger-rules/import',
      '/v1/alert-data-mgmt/tenants/{tenant_id}/events',
      '/v1/fence/tenants/{tenant_id}/fences',
      '/v1/things/tenants/{tenant_id}/things/{things_id}/gps',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths['/v1/alert-mgmt/tenants/{tenant_id}/trigger-rules'].post.requestBody).toBeDefined();
  });

  it('creates a raw-frame rule with every field and returns it as stored', async () => {
    const body = rawRule({
      name: '<b>Overheat</b> & <script>alert(1)</script>',
      frame_format: 'extended',
      frame_type: 'data',
      frame_id: 0x18fef100,
      level: 'urgent',
      share: true,
      description: 'engine temperature',
      alert_description: 'Coolant too hot',
      condition_join: 'or',
      conditions: [
        { source: 'data', start_byte: 1, length: 2, byte_order: 'motorola', op: 'in', min: 10, max: 20 },
        { source: 'data', start_byte: 0, op: 'mask', mask: 'F0FF', pattern: 'A012' },
        { source: 'length', op: '!=', value: 8 },
        { source: 'data', start_byte: 3, op: 'change' },
      ],
      actions: {
        email: ['ops@example.com'],
        sms: ['13900000000'],
        voice: [],
        command: { operation_name: 'common_fn.set_config', operation_params: { a: 1 } },
      },
      frequency: { notify_interval_s: 3600, command_interval_s: 120 },
      recover_action: { email: ['ops@example.com'] },
    });
    const res = await create(a, body);
    expect(res.statusCode, res.body).toBe(200);
    const rule = res.json();
    // HTML in a name is data: stored and returned exactly as typed.
    expect(rule.name).toBe('<b>Overheat</b> & <script>alert(1)</script>');
    expect(rule.frame_id).toBe(0x18fef100);
    expect(rule.level).toBe('urgent');
    expect(rule.status).toBe(1);
    expect(rule.conditions).toHaveLength(4);
    expect(rule.actions.command.operation_name).toBe('common_fn.set_config');
    expect(rule.recover_action.email).toEqual(['ops@example.com']);
    const got = await t.app.inject({ method: 'GET', url: url(a, `/${rule.id}`), headers: { authorization: a.auth } });
    expect(got.json().name).toBe('<b>Overheat</b> & <script>alert(1)</script>');
    const list = await t.app.inject({ method: 'GET', url: url(a, `?things_id=${device.id}`), headers: { authorization: a.auth } });
    expect(list.json().list.map((r: { id: string }) => r.id)).toContain(rule.id);
  });

  it('validates frame id ranges, names, conditions and frequency minimums', async () => {
    const bad = [
      rawRule({ frame_id: 0x800 }), // standard ids stop at 0x7FF
      rawRule({ frame_format: 'extended', frame_id: 0x20000000 }),
      rawRule({ name: '' }),
      rawRule({ name: 'x'.repeat(51) }),
      rawRule({ conditions: [] }),
      rawRule({ conditions: [{ source: 'data', op: '>' }] }), // no value
      rawRule({ conditions: [{ source: 'data', op: 'in', min: 5, max: 1 }] }),
      rawRule({ conditions: [{ source: 'data', op: 'mask', mask: 'FF', pattern: '0102' }] }),
      rawRule({ conditions: [{ source: 'signal', message: 'RAMP', signal: 'Value', op: '>', value: 1 }] }), // raw rule, signal condition
      rawRule({ frequency: { notify_interval_s: 60 } }), // e-mail at most once per 30 minutes
      rawRule({ frequency: { command_interval_s: 10 } }), // command at most once per minute
      rawRule({ actions: { email: ['not-an-email'] } }),
    ];
    for (const body of bad) {
      const res = await create(a, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const ok = await create(a, rawRule({ frame_id: 0x7ff }));
    expect(ok.statusCode).toBe(200);
    const dupe = await create(a, rawRule({ name: ok.json().name }));
    expect(dupe.statusCode).toBe(409);
    expect(dupe.json().code).toBe('alert.name-used');
    const badChannel = await create(a, rawRule({ channel: 9 }));
    expect(badChannel.statusCode).toBe(400);
  });

  it('needs a DBC bound to the channel for a signal rule, and takes the frame id from the DBC message', async () => {
    const body = {
      name: 'ramp high',
      things_id: device.id,
      data_type: 'signal',
      channel: 1,
      conditions: [{ source: 'signal', message: 'RAMP', signal: 'Value', op: '>', value: 50 }],
    };
    const unbound = await create(a, body);
    expect(unbound.statusCode).toBe(400);
    expect(unbound.json().code).toBe('alert.not-bound');
    const dbc = await testDbc(t, a);
    expect((await bind(t, a, device.id, 1, { dbc_id: dbc })).statusCode).toBe(200);
    const unknown = await create(a, { ...body, conditions: [{ source: 'signal', message: 'RAMP', signal: 'Nope', op: '>', value: 1 }] });
    expect(unknown.json().code).toBe('alert.unknown-signal');
    const two = await create(a, {
      ...body,
      conditions: [body.conditions[0], { source: 'signal', message: 'RAMP', signal: 'Counter', op: '>', value: 1 }],
    });
    expect(two.statusCode).toBe(400);
    const ok = await create(a, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().frame_id).toBe(0x100);
    expect(ok.json().frame_format).toBe('standard');
  });

  it('is deleted only when disabled', async () => {
    const rule = (await create(a, rawRule())).json();
    const del = await t.app.inject({ method: 'DELETE', url: url(a, `/${rule.id}`), headers: { authorization: a.auth } });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe('alert.rule-enabled');
    const off = await t.app.inject({ method: 'PUT', url: url(a, `/${rule.id}/status/0`), headers: { authorization: a.auth } });
    expect(off.json().status).toBe(0);
    const del2 = await t.app.inject({ method: 'DELETE', url: url(a, `/${rule.id}`), headers: { authorization: a.auth } });
    expect(del2.statusCode).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: url(a, `/${rule.id}`), headers: { authorization: a.auth } });
    expect(gone.statusCode).toBe(404);
  });

  it('updates a rule, keeping the name unique', async () => {
    const r1 = (await create(a, rawRule())).json();
    const r2 = (await create(a, rawRule())).json();
    const clash = await t.app.inject({
      method: 'PUT',
      url: url(a, `/${r2.id}`),
      headers: { authorization: a.auth },
      payload: rawRule({ name: r1.name }),
    });
    expect(clash.statusCode).toBe(409);
    const ok = await t.app.inject({
      method: 'PUT',
      url: url(a, `/${r2.id}`),
      headers: { authorization: a.auth },
      payload: rawRule({ name: `${r2.name}-2`, level: 'urgent' }),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().level).toBe('urgent');
  });

  it('refuses another tenant', async () => {
    const rule = (await create(a, rawRule())).json();
    for (const req of [
      { method: 'GET' as const, url: url(a), headers: { authorization: b.auth } },
      { method: 'GET' as const, url: url(a, `/${rule.id}`), headers: { authorization: b.auth } },
      { method: 'PUT' as const, url: url(a, `/${rule.id}/status/0`), headers: { authorization: b.auth } },
    ]) {
      expect((await t.app.inject(req)).statusCode).toBe(403);
    }
    // Through its own tenant path, tenant B neither sees A's rule nor can use A's device.
    expect((await t.app.inject({ method: 'GET', url: url(b, `/${rule.id}`), headers: { authorization: b.auth } })).statusCode).toBe(404);
    expect((await create(b, rawRule())).statusCode).toBe(404);
  });

  it('allows at most 20 rules per user and reports import failures per rule', async () => {
    const c = await makeTenant(t);
    const d = await makeDevice(t, c);
    const mine = (over: Record<string, unknown> = {}) => ({ ...rawRule(over), things_id: d.id });
    for (let i = 0; i < 19; i++) expect((await create(c, mine({ name: `r${i}` }))).statusCode).toBe(200);
    const exported = await t.app.inject({ method: 'GET', url: url(c, `/export?things_id=${d.id}`), headers: { authorization: c.auth } });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().rules).toHaveLength(19);
    const imp = await t.app.inject({
      method: 'POST',
      url: url(c, '/import'),
      headers: { authorization: c.auth },
      payload: {
        rules: [
          exported.json().rules[0],
          { ...exported.json().rules[1], name: 'fresh' },
          { ...exported.json().rules[2], name: 'one too many' },
        ],
      },
    });
    expect(imp.statusCode).toBe(200);
    const results = imp.json().results;
    expect(results[0]).toMatchObject({ ok: false, code: 'alert.name-used' });
    expect(results[1]).toMatchObject({ ok: true });
    expect(results[2]).toMatchObject({ ok: false, code: 'alert.user-limit' });
    expect(imp.json().imported).toBe(1);
    const over = await create(c, mine({ name: 'twenty-first' }));
    expect(over.statusCode).toBe(403);
    expect(over.json().details.resource).toBe('rule_capacity');

    // System limit: the package's alert_rule total across the tenant's users.
    await t.database.raw.query('update tenant_packages set alert_rule = 20, rule_capacity = 30 where tenant_id = $1', [c.tenantId]);
    t.app.ctx.events.emit('package.changed', { tenantId: c.tenantId });
    const sys = await t.app.inject({
      method: 'POST',
      url: url(c, '/import'),
      headers: { authorization: c.auth },
      payload: { things_id: d.id, rules: [{ ...exported.json().rules[3], name: 'system full' }] },
    });
    expect(sys.json().results[0]).toMatchObject({ ok: false, code: 'alert.system-limit' });
  });

  it('shows shared rules to sub-users of the device and lets only the owner change them', async () => {
    const shared = (await create(a, rawRule({ share: true }))).json();
    const privateRule = (await create(a, rawRule({ share: false }))).json();
    const sub = await makeSubUser(
      t,
      a,
      ['alert:trigger-rule:query', 'alert:trigger-rule:updateStatus'],
      [{ thingsId: device.id, access: 'write' }],
    );
    const list = await t.app.inject({
      method: 'GET',
      url: url(a, `?things_id=${device.id}&page_size=100`),
      headers: { authorization: sub.auth },
    });
    const ids = list.json().list.map((r: { id: string }) => r.id);
    expect(ids).toContain(shared.id);
    expect(ids).not.toContain(privateRule.id);
    const flip = await t.app.inject({ method: 'PUT', url: url(a, `/${shared.id}/status/0`), headers: { authorization: sub.auth } });
    expect(flip.statusCode).toBe(403);
  });
});
