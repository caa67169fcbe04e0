import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import { createTestApp, openTestDatabase, type TestApp } from './helper.ts';
import { deviceId, makeDevice, makeSubUser, makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

/** The tenant's label registry (spec §7 /tenant/tenants/{tenant_id}/labels) and device labels referring to it. */
describe('labels', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (tenant: TenantFixture, rest = '') => `/v1/tenant/tenants/${tenant.tenantId}/labels${rest}`;
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', u: string, auth: string, payload?: object) =>
    t.app.inject({ method, url: u, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  const things = (tenant: TenantFixture, rest = '') => `/v1/things/tenants/${tenant.tenantId}/things${rest}`;

  it('creates, lists, reads, updates and batch-reads labels of its own tenant only', async () => {
    const fleet = await req('POST', url(a), a.auth, { label: 'fleet', description: 'Where it runs', label_value: 'Shanghai' });
    expect(fleet.statusCode).toBe(200);
    expect(fleet.json()).toMatchObject({ label: 'fleet', description: 'Where it runs', label_value: 'Shanghai', things_count: 0 });
    const id = fleet.json().id;

    expect((await req('POST', url(a), a.auth, { label: 'fleet' })).json()).toMatchObject({ code: 'label.duplicate', field: 'label' });
    expect((await req('POST', url(a), a.auth, { label: '  ' })).statusCode).toBe(400);
    // Another tenant may use the same name.
    expect((await req('POST', url(b), b.auth, { label: 'fleet' })).statusCode).toBe(200);

    const list = (await req('GET', `${url(a)}?keyword=FLE`, a.auth)).json();
    expect(list.total).toBe(1);
    expect(list.list.map((l: { id: string }) => l.id)).toEqual([id]);

    const upd = await req('PUT', url(a, `/${id}`), a.auth, { label: 'fleet-east', description: null, label_value: 'Pudong' });
    expect(upd.json()).toMatchObject({ id, label: 'fleet-east', description: null, label_value: 'Pudong' });
    expect((await req('GET', url(a, `/${id}`), a.auth)).json().label).toBe('fleet-east');

    const other = (await req('POST', url(a), a.auth, { label: 'model' })).json();
    const batch = (await req('GET', url(a, '/batch'), a.auth)).json();
    expect(batch.map((l: { label: string }) => l.label)).toEqual(['fleet-east', 'model']);
    const some = (await req('GET', url(a, `/batch?ids=${other.id}`), a.auth)).json();
    expect(some.map((l: { id: string }) => l.id)).toEqual([other.id]);
    expect((await req('GET', url(a, '/batch?ids=nope'), a.auth)).statusCode).toBe(400);

    // Tenant B cannot reach A's registry, nor read A's label through its own.
    expect((await req('GET', url(a), b.auth)).statusCode).toBe(403);
    expect((await req('GET', url(b, `/${id}`), b.auth)).json()).toMatchObject({ code: 'label.not-found' });
    expect((await req('PUT', url(b, `/${id}`), b.auth, { label: 'x' })).statusCode).toBe(404);
    expect((await req('DELETE', url(b, `/${id}`), b.auth)).statusCode).toBe(404);
    expect((await req('GET', url(a, `/${id}`), a.auth)).statusCode).toBe(200);
  });

  it('refuses a device label that is not in the registry, filters devices by label and value', async () => {
    const type = await publicType(t);
    const route = (await req('POST', url(a), a.auth, { label: 'route' })).json();
    const bLabel = (await req('POST', url(b), b.auth, { label: 'route-b' })).json();

    const unknown = await req('POST', things(a), a.auth, {
      third_things_id: deviceId(),
      name: 'Van',
      info_model_id: type,
      labels: [{ tenantLabelId: 'route', labelValue: '7' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'things.unknown-label', field: 'labels', details: { tenantLabelId: ['route'] } });
    // Another tenant's label is no label of this one.
    const foreign = await req('POST', things(a), a.auth, {
      third_things_id: deviceId(),
      name: 'Van',
      info_model_id: type,
      labels: [{ tenantLabelId: bLabel.id, labelValue: '7' }],
    });
    expect(foreign.json()).toMatchObject({ code: 'things.unknown-label' });

    const d7 = await makeDevice(t, a, { name: 'Van 7', labels: [{ tenantLabelId: route.id, labelValue: '7' }] });
    const d9 = await makeDevice(t, a, { name: 'Van 9', labels: [{ tenantLabelId: route.id, labelValue: '9' }] });
    const plain = await makeDevice(t, a, { name: 'Van plain' });

    const twice = await req('PUT', things(a, `/${plain.id}`), a.auth, {
      labels: [
        { tenantLabelId: route.id, labelValue: '1' },
        { tenantLabelId: route.id, labelValue: '2' },
      ],
    });
    expect(twice.json()).toMatchObject({ code: 'things.duplicate-label' });
    const bad = await req('PUT', things(a, `/${plain.id}`), a.auth, { labels: [{ tenantLabelId: bLabel.id, labelValue: '1' }] });
    expect(bad.json()).toMatchObject({ code: 'things.unknown-label' });
    expect((await req('GET', things(a, `/${plain.id}`), a.auth)).json().labels).toEqual([]);

    const ids = async (q: string) =>
      (await req('GET', `${things(a)}?${q}`, a.auth))
        .json()
        .list.map((d: { id: string }) => d.id)
        .sort();
    expect(await ids(`label=${route.id}`)).toEqual([d7.id, d9.id].sort());
    expect(await ids(`label=${route.id}&label_value=9`)).toEqual([d9.id]);
    expect((await req('GET', url(a, `/${route.id}`), a.auth)).json().things_count).toBe(2);

    // Deleting the label takes it off its devices.
    const del = await req('DELETE', url(a, `/${route.id}`), a.auth);
    expect(del.json()).toEqual({ deleted: 1, things_updated: 2 });
    expect((await req('GET', things(a, `/${d7.id}`), a.auth)).json().labels).toEqual([]);
    expect(await ids(`label=${route.id}`)).toEqual([]);
    expect((await req('DELETE', url(a, `/${route.id}`), a.auth)).json()).toMatchObject({ code: 'label.not-found' });
    expect((await req('DELETE', url(a, '/not-an-id'), a.auth)).statusCode).toBe(400);
  });

  it('holds the registry to the package label_num', async () => {
    const c = await makeTenant(t);
    await t.database.raw.query('update tenant_packages set label_num = 2 where tenant_id = $1', [c.tenantId]);
    expect((await req('POST', url(c), c.auth, { label: 'one' })).statusCode).toBe(200);
    const two = (await req('POST', url(c), c.auth, { label: 'two' })).json();
    const three = await req('POST', url(c), c.auth, { label: 'three' });
    expect(three.statusCode).toBe(403);
    expect(three.json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'label_num', limit: 2, current: 2 } });
    // Deleting one makes room again.
    expect((await req('DELETE', url(c, `/${two.id}`), c.auth)).statusCode).toBe(200);
    expect((await req('POST', url(c), c.auth, { label: 'three' })).statusCode).toBe(200);
  });

  it('checks the label keys of a sub-user on the server', async () => {
    const reader = await makeSubUser(t, a, ['tenant:label:query']);
    const none = await makeSubUser(t, a, []);
    expect((await req('GET', url(a), none.auth)).json()).toMatchObject({ code: 'http.403' });
    expect((await req('GET', url(a, '/batch'), none.auth)).statusCode).toBe(403);
    expect((await req('GET', url(a), reader.auth)).statusCode).toBe(200);
    expect((await req('POST', url(a), reader.auth, { label: 'sneaky' })).statusCode).toBe(403);
    const writer = await makeSubUser(t, a, ['tenant:label:query', 'tenant:label:create', 'tenant:label:delete']);
    const made = await req('POST', url(a), writer.auth, { label: 'by-sub' });
    expect(made.statusCode).toBe(200);
    expect((await req('PUT', url(a, `/${made.json().id}`), writer.auth, { label: 'renamed' })).statusCode).toBe(403);
    expect((await req('DELETE', url(a, `/${made.json().id}`), writer.auth)).statusCode).toBe(200);
  });

  it('migrates the labels devices carried into the registry, keeping every value', async () => {
    const { database, drop } = await openTestDatabase({ empty: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-mig-'));
    try {
      const src = path.join(import.meta.dirname, '../src/db/migrations');
      const all = fs.readdirSync(src).filter((f) => /^\d{4}_.+\.sql$/.test(f));
      const copy = (upTo: string) => {
        for (const f of all.filter((x) => x <= upTo)) fs.copyFileSync(path.join(src, f), path.join(dir, f));
      };
      copy('0100_zzz');
      await migrate(database.raw, dir);
      const raw = database.raw;
      const type = (await raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`)).rows[0].id;
      const tenant = async (name: string) =>
        (await raw.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [name])).rows[0].id;
      const thing = async (tid: string, labels: unknown) =>
        (
          await raw.query<{ id: string }>(
            `insert into things (tenant_id, third_things_id, name, info_model_id, things_key, labels) values ($1,$2,'d',$3,'k',$4::jsonb) returning id`,
            [tid, deviceId(), type, JSON.stringify(labels)],
          )
        ).rows[0].id;
      const t1 = await tenant('one');
      const t2 = await tenant('two');
      const a1 = await thing(t1, [
        { tenantLabelId: 'fleet', labelValue: 'Shanghai' },
        { tenantLabelId: 'model', labelValue: 'Hybrid truck', description: 'kept' },
      ]);
      const a2 = await thing(t1, [{ tenantLabelId: 'fleet', labelValue: 'Beijing' }]);
      const b1 = await thing(t2, [{ tenantLabelId: 'fleet', labelValue: 'Wuhan' }]);
      const none = await thing(t2, []);

      copy('0110_zzz');
      expect(await migrate(raw, dir)).toContain('0110_labels_groups.sql');
      const reg = (await raw.query<{ id: string; tenant_id: string; label: string }>('select id, tenant_id, label from tenant_labels'))
        .rows;
      const idOf = (tid: string, label: string) => reg.find((r) => r.tenant_id === tid && r.label === label)?.id;
      expect(reg.map((r) => `${r.tenant_id === t1 ? 1 : 2}:${r.label}`).sort()).toEqual(['1:fleet', '1:model', '2:fleet']);
      const labelsOf = async (id: string) =>
        (await raw.query<{ labels: unknown }>('select labels from things where id = $1', [id])).rows[0].labels;
      expect(await labelsOf(a1)).toEqual([
        { tenantLabelId: idOf(t1, 'fleet'), labelValue: 'Shanghai' },
        { tenantLabelId: idOf(t1, 'model'), labelValue: 'Hybrid truck', description: 'kept' },
      ]);
      expect(await labelsOf(a2)).toEqual([{ tenantLabelId: idOf(t1, 'fleet'), labelValue: 'Beijing' }]);
      expect(await labelsOf(b1)).toEqual([{ tenantLabelId: idOf(t2, 'fleet'), labelValue: 'Wuhan' }]);
      expect(idOf(t1, 'fleet')).not.toBe(idOf(t2, 'fleet'));
      expect(await labelsOf(none)).toEqual([]);
    } finally {
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
