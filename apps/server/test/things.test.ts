import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { deviceId, makeDevice, makeSubUser, makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

describe('devices (things) API', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  const url = (tenant: TenantFixture, rest = '') => `/v1/things/tenants/${tenant.tenantId}/things${rest}`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists device types with their CAN channel counts', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${a.tenantId}/device-types`,
      headers: { authorization: a.auth },
    });
    expect(res.statusCode).toBe(200);
    const byName = Object.fromEntries(res.json().map((d: { name: string; can_channels: number }) => [d.name, d.can_channels]));
    expect(byName['CANDTU-400']).toBe(4);
    expect(byName['IOT-DEVICE']).toBe(0);
  });

  it('creates a device with an id and a key, and channels from its type', async () => {
    const id = deviceId();
    const res = await t.app.inject({
      method: 'POST',
      url: url(a),
      headers: { authorization: a.auth },
      payload: { third_things_id: id, name: 'Bus 12', info_model_id: await publicType(t, 'CANDTU-400') },
    });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.things_key).toMatch(/^[0-9a-f]{32}$/);
    expect(d.third_things_id).toBe(id);
    expect(d.attributes.channels.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3]);
    expect(d.is_online).toBe(false);
  });

  it.each([
    ['lower case', 'abcdef0123456789abcd'],
    ['19 digits', '0123456789ABCDEF012'],
    ['21 digits', '0123456789ABCDEF01234'],
    ['not hex', '0123456789ABCDEFGHIJ'],
  ])('refuses a device ID that is %s with things.invalid-id', async (_, id) => {
    const res = await t.app.inject({
      method: 'POST',
      url: url(a),
      headers: { authorization: a.auth },
      payload: { third_things_id: id, name: 'x', info_model_id: await publicType(t) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('things.invalid-id');
  });

  it('refuses a duplicate device ID, even from another tenant', async () => {
    const d = await makeDevice(t, a);
    const res = await t.app.inject({
      method: 'POST',
      url: url(b),
      headers: { authorization: b.auth },
      payload: { third_things_id: d.third_things_id, name: 'copy', info_model_id: await publicType(t) },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('things.duplicate-id');
  });

  it("refuses a device beyond the package's things_num with quota.limit-reached", async () => {
    const c = await makeTenant(t);
    await t.database.raw.query('update tenant_packages set things_num = 2 where tenant_id = $1', [c.tenantId]);
    await makeDevice(t, c);
    await makeDevice(t, c);
    const res = await t.app.inject({
      method: 'POST',
      url: url(c),
      headers: { authorization: c.auth },
      payload: { third_things_id: deviceId(), name: 'third', info_model_id: await publicType(t) },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('quota.limit-reached');
  });

  it('requires name and type', async () => {
    const noName = await t.app.inject({
      method: 'POST',
      url: url(a),
      headers: { authorization: a.auth },
      payload: { third_things_id: deviceId(), info_model_id: await publicType(t) },
    });
    expect(noName.statusCode).toBe(400);
    const noType = await t.app.inject({
      method: 'POST',
      url: url(a),
      headers: { authorization: a.auth },
      payload: { third_things_id: deviceId(), name: 'x' },
    });
    expect(noType.statusCode).toBe(400);
  });

  it('updates, favourites, re-generates the key and deletes', async () => {
    const d = await makeDevice(t, a);
    // Device labels refer to the tenant's label registry.
    const fleet = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/tenant/tenants/${a.tenantId}/labels`,
        headers: { authorization: a.auth },
        payload: { label: 'fleet' },
      })
    ).json();
    const up = await t.app.inject({
      method: 'PUT',
      url: url(a, `/${d.id}`),
      headers: { authorization: a.auth },
      payload: { name: 'Renamed', labels: [{ tenantLabelId: fleet.id, labelValue: 'north' }] },
    });
    expect(up.statusCode).toBe(200);
    expect(up.json().name).toBe('Renamed');
    const fav = await t.app.inject({
      method: 'PUT',
      url: url(a, `/${d.id}/collected`),
      headers: { authorization: a.auth },
      payload: { collected: true },
    });
    expect(fav.json().collected).toBe(true);
    const favs = await t.app.inject({ method: 'GET', url: url(a, '?collected=1'), headers: { authorization: a.auth } });
    expect(favs.json().list.map((x: { id: string }) => x.id)).toContain(d.id);
    const byLabel = await t.app.inject({ method: 'GET', url: url(a, `?label=${fleet.id}`), headers: { authorization: a.auth } });
    expect(byLabel.json().list.map((x: { id: string }) => x.id)).toEqual([d.id]);
    const key = await t.app.inject({ method: 'POST', url: url(a, `/${d.id}/key`), headers: { authorization: a.auth } });
    expect(key.statusCode).toBe(200);
    expect(key.json().things_key).not.toBe(d.things_key);
    const del = await t.app.inject({ method: 'DELETE', url: url(a, `/${d.id}`), headers: { authorization: a.auth } });
    expect(del.statusCode).toBe(204);
    const gone = await t.app.inject({ method: 'GET', url: url(a, `/${d.id}`), headers: { authorization: a.auth } });
    expect(gone.statusCode).toBe(404);
  });

  it("keeps tenants apart: another tenant's device is not found and its path is forbidden", async () => {
    const d = await makeDevice(t, a);
    const cross = await t.app.inject({ method: 'GET', url: url(a, `/${d.id}`), headers: { authorization: b.auth } });
    expect(cross.statusCode).toBe(403);
    const own = await t.app.inject({ method: 'GET', url: url(b, `/${d.id}`), headers: { authorization: b.auth } });
    expect(own.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: url(b), headers: { authorization: b.auth } });
    expect(list.json().list.map((x: { id: string }) => x.id)).not.toContain(d.id);
  });

  it('shows a sub-user only the devices granted to it, read-only ones without key and not writable', async () => {
    const c = await makeTenant(t);
    const readable = await makeDevice(t, c);
    const writable = await makeDevice(t, c);
    const hidden = await makeDevice(t, c);
    const sub = await makeSubUser(
      t,
      c,
      ['things:things:page', 'things:things:queryone', 'things:things:update', 'things:things:delete'],
      [
        { thingsId: readable.id, access: 'read' },
        { thingsId: writable.id, access: 'write' },
      ],
    );
    const list = await t.app.inject({ method: 'GET', url: url(c), headers: { authorization: sub.auth } });
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(2);
    const ids = list.json().list.map((x: { id: string }) => x.id);
    expect(ids.sort()).toEqual([readable.id, writable.id].sort());
    const ro = list.json().list.find((x: { id: string }) => x.id === readable.id);
    expect(ro.access).toBe('read');
    expect(ro.things_key).toBe('');
    expect((await t.app.inject({ method: 'GET', url: url(c, `/${hidden.id}`), headers: { authorization: sub.auth } })).statusCode).toBe(
      404,
    );
    const denied = await t.app.inject({
      method: 'PUT',
      url: url(c, `/${readable.id}`),
      headers: { authorization: sub.auth },
      payload: { name: 'no' },
    });
    expect(denied.statusCode).toBe(403);
    const allowed = await t.app.inject({
      method: 'PUT',
      url: url(c, `/${writable.id}`),
      headers: { authorization: sub.auth },
      payload: { name: 'yes' },
    });
    expect(allowed.statusCode).toBe(200);
    // The manager sees all three.
    const all = await t.app.inject({ method: 'GET', url: url(c), headers: { authorization: c.auth } });
    expect(all.json().total).toBe(3);
  });

  it('refuses a sub-user without the permission key with http.403', async () => {
    const sub = await makeSubUser(t, a, []);
    const res = await t.app.inject({ method: 'GET', url: url(a), headers: { authorization: sub.auth } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('http.403');
  });

  it('refuses page × size over 10000 with data.over-10000', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(a, '?current_page=11&page_size=1000'), headers: { authorization: a.auth } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('data.over-10000');
  });

  it('imports devices from CSV, reporting bad lines, and exports them again', async () => {
    const c = await makeTenant(t);
    const good1 = deviceId();
    const good2 = deviceId();
    const csv = [
      'third_things_id,name,type,description',
      `${good1},Van 1,CANDTU-200,first`,
      'bad-id,Van 2,CANDTU-200,',
      `${good2},"Van, 3",CANDTU-400,`,
      `${good1},Dup,CANDTU-200,`,
    ].join('\n');
    const res = await t.app.inject({
      method: 'POST',
      url: url(c, '/import'),
      headers: { authorization: c.auth, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(2);
    expect(res.json().errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [3, 'things.invalid-id'],
      [5, 'things.duplicate-id'],
    ]);
    const out = await t.app.inject({ method: 'GET', url: url(c, '/export'), headers: { authorization: c.auth } });
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-type']).toMatch(/text\/csv/);
    expect(out.body).toContain(`${good2},"Van, 3",CANDTU-400`);
    expect(out.body).toContain(`${good1},Van 1,CANDTU-200,first`);
  });

  it('reports a device status and an empty event log', async () => {
    const d = await makeDevice(t, a);
    const st = await t.app.inject({ method: 'GET', url: url(a, `/${d.id}/status`), headers: { authorization: a.auth } });
    expect(st.statusCode).toBe(200);
    expect(st.json()).toMatchObject({ is_online: false, frames_stored: 0, malformed_count: 0 });
    expect(st.json().channels.map((c: { name: string }) => c.name)).toEqual(['CAN0', 'CAN1']);
    const ev = await t.app.inject({ method: 'GET', url: url(a, `/${d.id}/events`), headers: { authorization: a.auth } });
    expect(ev.json()).toMatchObject({ total: 0, list: [] });
  });
});

describe('vehicles API', () => {
  let t: TestApp;
  let a: TenantFixture;
  const url = (rest = '') => `/v1/things/tenants/${a.tenantId}/vehicles${rest}`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a vehicle whose channels are bound to device CAN channels', async () => {
    const d = await makeDevice(t, a);
    const res = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: { authorization: a.auth },
      payload: { name: 'Truck 7', vin: 'wdb9634031l123456', channels: [{ name: 'powertrain', things_id: d.id, channel: 1 }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().vin).toBe('WDB9634031L123456');
    expect(res.json().channels[0]).toMatchObject({ things_id: d.id, channel: 1, third_things_id: d.third_things_id });
    const list = await t.app.inject({ method: 'GET', url: url(), headers: { authorization: a.auth } });
    expect(list.json().total).toBe(1);
  });

  it.each([
    ['with an I', 'WDB9634031I123456'],
    ['with an O', 'WDB9634031O123456'],
    ['with a Q', 'WDB9634031Q123456'],
    ['16 long', 'WDB9634031L12345'],
  ])('refuses a VIN %s', async (_, vin) => {
    const res = await t.app.inject({ method: 'POST', url: url(), headers: { authorization: a.auth }, payload: { name: 'x', vin } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('things.invalid-vin');
  });

  it('refuses a channel the device does not have', async () => {
    const d = await makeDevice(t, a);
    const res = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: { authorization: a.auth },
      payload: { name: 'x', channels: [{ name: 'body', things_id: d.id, channel: 2 }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('things.bad-channel');
  });

  it('updates and deletes', async () => {
    const c = await t.app.inject({ method: 'POST', url: url(), headers: { authorization: a.auth }, payload: { name: 'Old' } });
    const id = c.json().id;
    const u = await t.app.inject({
      method: 'PUT',
      url: url(`/${id}`),
      headers: { authorization: a.auth },
      payload: { name: 'New', vin: '1HGCM82633A004352' },
    });
    expect(u.json()).toMatchObject({ name: 'New', vin: '1HGCM82633A004352' });
    const dup = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: { authorization: a.auth },
      payload: { name: 'Twin', vin: '1HGCM82633A004352' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('things.duplicate-vin');
    expect((await t.app.inject({ method: 'DELETE', url: url(`/${id}`), headers: { authorization: a.auth } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: url(`/${id}`), headers: { authorization: a.auth } })).statusCode).toBe(404);
  });
});
