import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

let t: TestApp;
let a: TenantFixture;
let b: TenantFixture;
let publicType: string;
let ownType: string;

const url = (tenant: TenantFixture, typeId: string, rest = '') =>
  `/v1/things/tenants/${tenant.tenantId}/device-types/${typeId}/schema${rest}`;

async function call(auth: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', u: string, payload?: unknown) {
  return t.app.inject({ method, url: u, headers: { authorization: auth }, payload: payload as Record<string, unknown> | undefined });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  b = await makeTenant(t);
  const types = await call(a.auth, 'GET', `/v1/things/tenants/${a.tenantId}/device-types`);
  publicType = types.json().find((x: { name: string }) => x.name === 'IOT-DEVICE').id;
  const own = await call(a.auth, 'POST', `/v1/things/tenants/${a.tenantId}/device-types`, {
    name: 'TEMP-SENSOR',
    can_channels: 0,
    thing_type: 1,
  });
  expect(own.statusCode).toBe(200);
  ownType = own.json().id;
});
afterAll(async () => {
  await t?.close();
});

describe('device type data groups and fields', () => {
  it('builds a schema of groups and fields and returns it in order', async () => {
    const g = await call(a.auth, 'POST', url(a, ownType, '/groups'), { name: 'engine', display_name: 'Engine', sort: 2 });
    expect(g.statusCode).toBe(201);
    const g2 = await call(a.auth, 'POST', url(a, ownType, '/groups'), { name: 'body', sort: 1 });
    expect(g2.statusCode).toBe(201);
    const engine = g.json().id as string;

    const rpm = await call(a.auth, 'POST', url(a, ownType, `/groups/${engine}/fields`), {
      name: 'rpm',
      display_name: 'Engine speed',
      display_format: 'accuracy',
      accuracy: 1,
      notes: 'r/min',
    });
    expect(rpm.statusCode).toBe(201);
    expect(rpm.json()).toMatchObject({ name: 'rpm', display_format: 'accuracy', accuracy: 1, is_display: true, is_array: false });
    const raw = await call(a.auth, 'POST', url(a, ownType, `/groups/${engine}/fields`), {
      name: '_raw_bytes',
      display_format: 'hex_bytes',
      is_array: true,
      is_display: false,
      sort: 5,
    });
    expect(raw.statusCode).toBe(201);

    const schema = (await call(a.auth, 'GET', url(a, ownType))).json();
    expect(schema.groups.map((x: { name: string }) => x.name)).toEqual(['body', 'engine']);
    const eng = schema.groups[1];
    expect(eng.display_name).toBe('Engine');
    expect(eng.fields.map((f: { name: string }) => f.name)).toEqual(['rpm', '_raw_bytes']);
    expect(eng.fields[1]).toMatchObject({ is_array: true, is_display: false, display_format: 'hex_bytes' });
    expect(schema.groups[0].fields).toEqual([]);
  });

  it('refuses field names that are not letters, digits and underscore or start with a digit', async () => {
    const g = await call(a.auth, 'POST', url(a, ownType, '/groups'), { name: 'names' });
    const gid = g.json().id;
    for (const name of ['1st', 'speed-kmh', 'temp C', '温度', '']) {
      const res = await call(a.auth, 'POST', url(a, ownType, `/groups/${gid}/fields`), { name });
      expect(res.statusCode, name).toBe(400);
    }
    const bad = await call(a.auth, 'POST', url(a, ownType, `/groups/${gid}/fields`), { name: 'ok', display_format: 'binary' });
    expect(bad.statusCode).toBe(400);
    for (const name of ['a', '_x1', 'Speed_2']) {
      const res = await call(a.auth, 'POST', url(a, ownType, `/groups/${gid}/fields`), { name });
      expect(res.statusCode, name).toBe(201);
    }
  });

  it('keeps names unique per type (groups) and per group (fields)', async () => {
    const g = await call(a.auth, 'POST', url(a, ownType, '/groups'), { name: 'dup' });
    const again = await call(a.auth, 'POST', url(a, ownType, '/groups'), { name: 'dup' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('device-type.group-name-taken');
    const gid = g.json().id;
    await call(a.auth, 'POST', url(a, ownType, `/groups/${gid}/fields`), { name: 'v' });
    const dupField = await call(a.auth, 'POST', url(a, ownType, `/groups/${gid}/fields`), { name: 'v' });
    expect(dupField.statusCode).toBe(409);
    expect(dupField.json().code).toBe('device-type.field-name-taken');
  });

  it('updates only the named properties and deletes fields and groups', async () => {
    const g = (await call(a.auth, 'POST', url(a, ownType, '/groups'), { name: 'upd', description: 'keep me' })).json();
    const f = (
      await call(a.auth, 'POST', url(a, ownType, `/groups/${g.id}/fields`), {
        name: 'ts',
        display_format: 'time',
        time_unit: 's',
        notes: 'kept',
      })
    ).json();
    const put = await call(a.auth, 'PUT', url(a, ownType, `/groups/${g.id}/fields/${f.id}`), { display_name: 'Timestamp' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'ts', display_name: 'Timestamp', display_format: 'time', time_unit: 's', notes: 'kept' });
    const gp = await call(a.auth, 'PUT', url(a, ownType, `/groups/${g.id}`), { display_name: 'Updated' });
    expect(gp.json()).toMatchObject({ name: 'upd', display_name: 'Updated', description: 'keep me' });

    expect((await call(a.auth, 'DELETE', url(a, ownType, `/groups/${g.id}/fields/${f.id}`))).statusCode).toBe(204);
    expect((await call(a.auth, 'PUT', url(a, ownType, `/groups/${g.id}/fields/${f.id}`), { notes: 'x' })).statusCode).toBe(404);
    await call(a.auth, 'POST', url(a, ownType, `/groups/${g.id}/fields`), { name: 'gone_with_group' });
    expect((await call(a.auth, 'DELETE', url(a, ownType, `/groups/${g.id}`))).statusCode).toBe(204);
    const schema = (await call(a.auth, 'GET', url(a, ownType))).json();
    expect(schema.groups.find((x: { id: string }) => x.id === g.id)).toBeUndefined();
  });

  it('gives each tenant its own schema of a public type and hides private types', async () => {
    const mine = await call(a.auth, 'POST', url(a, publicType, '/groups'), { name: 'telemetry' });
    expect(mine.statusCode).toBe(201);
    const theirs = (await call(b.auth, 'GET', url(b, publicType))).json();
    expect(theirs.groups).toEqual([]);
    // B may name a group of the same public type the same way: the schemas are separate.
    expect((await call(b.auth, 'POST', url(b, publicType, '/groups'), { name: 'telemetry' })).statusCode).toBe(201);

    // A's own type does not exist for B, whatever the path says.
    expect((await call(b.auth, 'GET', url(b, ownType))).statusCode).toBe(404);
    expect((await call(b.auth, 'GET', url(a, ownType))).statusCode).toBe(403);
    expect((await call(b.auth, 'PUT', url(b, publicType, `/groups/${mine.json().id}`), { name: 'stolen' })).statusCode).toBe(404);
  });

  it('lets a sub-user read with the query grant and change only with the update grant', async () => {
    const reader = await makeSubUser(t, a, ['things:info-model:query']);
    expect((await call(reader.auth, 'GET', url(a, ownType))).statusCode).toBe(200);
    expect((await call(reader.auth, 'POST', url(a, ownType, '/groups'), { name: 'sub' })).statusCode).toBe(403);
    const writer = await makeSubUser(t, a, ['things:info-model:query', 'things:info-model:update']);
    expect((await call(writer.auth, 'POST', url(a, ownType, '/groups'), { name: 'sub' })).statusCode).toBe(201);
  });
});
