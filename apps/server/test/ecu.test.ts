import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe('ECU management and fault-code files', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const base = () => `/v1/single-candtu/tenants/${tenant.tenantId}`;
  const upload = (type: string, name: string, body: string | Uint8Array, auth = tenant.auth) => {
    const m = multipart({ type, name }, { name: `${name}.bin`, bytes: typeof body === 'string' ? Buffer.from(body) : body });
    return t.app.inject({ method: 'POST', url: `${base()}/files`, headers: { authorization: auth, ...m.headers }, payload: m.payload });
  };

  it('imports fault-code files from CSV and JSON, refusing bad codes', async () => {
    const csv = await upload(
      'dtc',
      'engine-codes',
      'code,name\nP0101,"Mass air flow, range"\nU0100-87,Lost communication with ECM\n0xC10000,Bus off\n',
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.json()).toMatchObject({ type: 'dtc', name: 'engine-codes', entries: 3 });
    const codes = await t.app.inject({
      method: 'GET',
      url: `${base()}/files/${csv.json().id}/fault-codes`,
      headers: { authorization: tenant.auth },
    });
    expect(codes.json()).toEqual([
      { code: 'P0101', name: 'Mass air flow, range' },
      { code: 'U0100-87', name: 'Lost communication with ECM' },
      { code: '0XC10000', name: 'Bus off' },
    ]);
    const json = await upload('dtc', 'bms-codes', JSON.stringify([{ code: 'P0A80', name: 'Replace hybrid battery pack' }]));
    expect(json.json().entries).toBe(1);
    const bad = await upload('dtc', 'bad', 'code,name\nZ9999,Nope\n');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'ecu.bad-file' });
    expect((await upload('dtc', 'engine-codes', 'P0102,x')).json().code).toBe('can-dtu-10012');
    const unlockBad = await upload('unlock', 'u', '{"format":"loggerhead-unlock/1","level":1,"steps":[{"op":"eval"}]}');
    expect(unlockBad.statusCode).toBe(400);
  });

  it('ECUs: addresses by frame type, unique names, missing and in-use files', async () => {
    const dtc = (await upload('dtc', 'ecu-codes', 'P0300,Random misfire')).json();
    const mk = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `${base()}/ecus`, headers: { authorization: tenant.auth }, payload: body });
    const ok = await mk({
      name: 'Engine',
      physical_address: '0x7E0',
      response_address: '0x7E8',
      function_address: '0x7DF',
      frame_type: 'standard',
      dtc_file_id: dtc.id,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      physical_address: 0x7e0,
      response_address: 0x7e8,
      function_address: 0x7df,
      dtc_file_name: 'ecu-codes',
    });
    expect((await mk({ name: 'Engine', physical_address: 1, response_address: 2 })).json().code).toBe('can-dtu-10012');
    const big = await mk({ name: 'Gateway', physical_address: '0x18DA10F1', response_address: '0x18DAF110' });
    expect(big.statusCode).toBe(400);
    expect([big.json()].flat()[0].field).toBe('physical_address');
    expect(
      (await mk({ name: 'Gateway', physical_address: '0x18DA10F1', response_address: '0x18DAF110', frame_type: 'extended' })).statusCode,
    ).toBe(200);
    const missing = await mk({
      name: 'Body',
      physical_address: 1,
      response_address: 2,
      dtc_file_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('can-dtu.10005');
    const del = await t.app.inject({ method: 'DELETE', url: `${base()}/files/${dtc.id}`, headers: { authorization: tenant.auth } });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe('can-dtu-10011');
    const upd = await t.app.inject({
      method: 'PUT',
      url: `${base()}/ecus/${ok.json().id}`,
      headers: { authorization: tenant.auth },
      payload: { dtc_file_id: null },
    });
    expect(upd.json().dtc_file_id).toBeNull();
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${base()}/files/${dtc.id}`, headers: { authorization: tenant.auth } })).statusCode,
    ).toBe(204);
    // Another tenant sees none of it.
    const other = await makeTenant(t);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/v1/single-candtu/tenants/${other.tenantId}/ecus`,
      headers: { authorization: other.auth },
    });
    expect(theirs.json()).toEqual([]);
    // A sub-user with only the query key can read but not create.
    const reader = await makeSubUser(t, tenant, ['candtu:ecu:query', 'candtu:dtc:query']);
    expect((await t.app.inject({ method: 'GET', url: `${base()}/ecus`, headers: { authorization: reader.auth } })).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${base()}/ecus`,
          headers: { authorization: reader.auth },
          payload: { name: 'X', physical_address: 1, response_address: 2 },
        })
      ).statusCode,
    ).toBe(403);
  });
});
