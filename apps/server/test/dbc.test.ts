import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, hasToyota, multipart, TEST_DBC, TOYOTA, testDbc, uploadDbc } from './signals.fixtures.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('DBC files (mapping-mgmt)', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let other: TenantFixture;
  const url = (tn: TenantFixture, rest = '') => `/v1/mapping-mgmt/tenants/${tn.tenantId}/dbc-files${rest}`;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    other = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.skipIf(!hasToyota)('uploads a real opendbc file with its messages and signals, protocol 2 by default', async () => {
    const text = readFileSync(TOYOTA, 'utf8');
    const res = await uploadDbc(t, tenant, 'toyota_nodsu_pt_generated.dbc', text);
    expect(res.statusCode).toBe(200);
    const f = res.json();
    // Independent counts: BO_ and SG_ statements at line starts.
    expect(f.message_count).toBe(text.match(/^BO_ /gm)?.length);
    expect(f.signal_count).toBe(text.match(/^\s+SG_ /gm)?.length);
    expect(f).toMatchObject({
      name: 'toyota_nodsu_pt_generated',
      protocol: 2,
      file_name: 'toyota_nodsu_pt_generated.dbc',
      size: Buffer.byteLength(text),
    });

    const msgs = await t.app.inject({
      method: 'GET',
      url: url(tenant, `/${f.id}/messages?keyword=speed`),
      headers: { authorization: tenant.auth },
    });
    expect(msgs.statusCode).toBe(200);
    const speed = msgs.json().find((m: { name: string }) => m.name === 'SPEED');
    // BO_ 180 SPEED: 8 XXX / SG_ SPEED : 47|16@0+ (0.01,0) [0|250] "km/h"
    expect(speed).toMatchObject({ id: 180, ext: false, length: 8 });
    expect(speed.signals.find((s: { name: string }) => s.name === 'SPEED')).toMatchObject({
      start_bit: 47,
      length: 16,
      byte_order: 'motorola',
      factor: 0.01,
      unit: 'km/h',
    });

    const content = await t.app.inject({ method: 'GET', url: url(tenant, `/${f.id}/content`), headers: { authorization: tenant.auth } });
    expect(content.body).toBe(text);
  });

  it('answers a malformed file with 400 naming the line and column', async () => {
    const bad = 'VERSION ""\n\nBO_ 100 MSG: 8 X\n SG_ A : 0|8@1+ (1,0) [0|255] "" X\n SG_ B : zz|8@1+ (1,0) [0|255] "" X\n';
    const res = await uploadDbc(t, tenant, 'broken.dbc', bad);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('mapping.dbc-invalid');
    const col = bad.split('\n')[4].indexOf('zz') + 1;
    expect(body.details).toMatchObject({ line: 5, col });
    expect(body.message).toContain(`Line 5, column ${col}`);
  });

  it('refuses other extensions, files over 10 MB and a duplicate name', async () => {
    expect((await uploadDbc(t, tenant, 'x.txt', TEST_DBC)).json().code).toBe('mapping.dbc-type');
    const huge = `${TEST_DBC}\nCM_ "${'x'.repeat(10 * 1024 * 1024)}";\n`;
    const big = await uploadDbc(t, tenant, 'big.dbc', huge);
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('mapping.dbc-too-large');
    expect((await uploadDbc(t, tenant, 'dup.dbc', TEST_DBC)).statusCode).toBe(200);
    const again = await uploadDbc(t, tenant, 'dup.dbc', TEST_DBC);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('mapping.dbc-name-used');
    // The name field wins over the file name.
    const named = await uploadDbc(t, tenant, 'dup.dbc', TEST_DBC, { name: 'Powertrain', protocol: '1' });
    expect(named.json()).toMatchObject({ name: 'Powertrain', protocol: 1 });
  });

  it('lists 100 per page by default, filters by keyword', async () => {
    await testDbc(t, tenant, 'listme-a.dbc');
    const res = await t.app.inject({ method: 'GET', url: url(tenant, '?keyword=listme'), headers: { authorization: tenant.auth } });
    expect(res.json()).toMatchObject({ total: 1, page_size: 100, current_page: 1 });
    expect(res.json().list[0].name).toBe('listme-a');
  });

  it('replaces the file and renames', async () => {
    const id = await testDbc(t, tenant);
    const more = `${TEST_DBC}\nBO_ 768 EXTRA: 2 ECU\n SG_ Flag : 0|1@1+ (1,0) [0|1] "" ECU\n`;
    const body = multipart({ name: 'Renamed' }, { name: 'v2.dbc', content: more });
    const res = await t.app.inject({
      method: 'PUT',
      url: url(tenant, `/${id}`),
      headers: { authorization: tenant.auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Renamed', file_name: 'v2.dbc', message_count: 3, signal_count: 4 });
    const json = await t.app.inject({
      method: 'PUT',
      url: url(tenant, `/${id}`),
      headers: { authorization: tenant.auth },
      payload: { protocol: 3 },
    });
    expect(json.json()).toMatchObject({ name: 'Renamed', protocol: 3, message_count: 3 });
    const bad = multipart({}, { name: 'v3.dbc', content: 'BO_ x' });
    const broken = await t.app.inject({
      method: 'PUT',
      url: url(tenant, `/${id}`),
      headers: { authorization: tenant.auth, ...bad.headers },
      payload: bad.payload,
    });
    expect(broken.statusCode).toBe(400);
  });

  it('refuses deleting a file while a channel is bound to it, allows it after unbind', async () => {
    const id = await testDbc(t, tenant);
    const dev = await makeDevice(t, tenant);
    expect((await bind(t, tenant, dev.id, 1, { dbc_id: id })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'DELETE', url: url(tenant, `/${id}`), headers: { authorization: tenant.auth } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('mapping.dbc-in-use');
    const unbind = await t.app.inject({
      method: 'DELETE',
      url: `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/channels/1/dbc-binding`,
      headers: { authorization: tenant.auth },
    });
    expect(unbind.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: url(tenant, `/${id}`), headers: { authorization: tenant.auth } })).statusCode).toBe(
      204,
    );
    expect((await t.app.inject({ method: 'GET', url: url(tenant, `/${id}`), headers: { authorization: tenant.auth } })).statusCode).toBe(
      404,
    );
  });

  it('keeps tenants apart', async () => {
    const id = await testDbc(t, tenant);
    // Another tenant's path: refused; its own path with our id: not found.
    expect((await t.app.inject({ method: 'GET', url: url(tenant, `/${id}`), headers: { authorization: other.auth } })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'GET', url: url(other, `/${id}`), headers: { authorization: other.auth } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: url(other, `/${id}`), headers: { authorization: other.auth } })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: url(other), headers: { authorization: other.auth } })).json().total).toBe(0);
    const dev = await makeDevice(t, other);
    expect((await bind(t, other, dev.id, 0, { dbc_id: id })).statusCode).toBe(404);
  });

  it('needs the mapping:dbc keys for sub-users', async () => {
    const none = await makeSubUser(t, tenant, []);
    expect((await t.app.inject({ method: 'GET', url: url(tenant), headers: { authorization: none.auth } })).statusCode).toBe(403);
    const reader = await makeSubUser(t, tenant, ['mapping:dbc:query']);
    expect((await t.app.inject({ method: 'GET', url: url(tenant), headers: { authorization: reader.auth } })).statusCode).toBe(200);
    const body = multipart({}, { name: 'sub.dbc', content: TEST_DBC });
    const up = await t.app.inject({
      method: 'POST',
      url: url(tenant),
      headers: { authorization: reader.auth, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode).toBe(403);
  });
});
