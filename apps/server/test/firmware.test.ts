import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOnline, listenForDevices, multipart, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeSubUser, makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

describe.skipIf(!!process.env.TEST_MQTT_URL)('firmware management and upgrades', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let model: string;
  const image = randomBytes(300_000);
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    model = await publicType(t);
    await listenForDevices(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const base = () => `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}`;
  const upload = (fields: Record<string, string>, bytes: Uint8Array = image, auth = tenant.auth) => {
    const m = multipart(fields, { name: 'fw.bin', bytes });
    return t.app.inject({ method: 'POST', url: `${base()}/firmwares`, headers: { authorization: auth, ...m.headers }, payload: m.payload });
  };
  const notify = (version: string, body: Record<string, unknown>, auth = tenant.auth) =>
    t.app.inject({
      method: 'POST',
      url: `${base()}/firmwares/${model}/${version}/notify`,
      headers: { authorization: auth },
      payload: body,
    });
  const upgrades = async (thingsId: string) =>
    (await t.app.inject({ method: 'GET', url: `${base()}/things/${thingsId}/upgrades`, headers: { authorization: tenant.auth } })).json();

  it('manages firmware: version format, upload, list, description, public flag, delete', async () => {
    for (const bad of ['1.2', '100.1.1', 'a.b.c', '1.2.3.4']) {
      const r = await upload({ version: bad, model_id: model, type: 'self' });
      expect(r.statusCode, bad).toBe(400);
      expect([r.json()].flat()[0].code).toBe('firmware.bad-version');
    }
    const r = await upload({ version: '4.2.1', model_id: model, type: 'self', description: 'CAN FD fixes' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ version: '4.2.1', version_num: 40201, size: image.length, to_public: false, type: 'self' });
    expect((await upload({ version: '4.2.1', model_id: model, type: 'self' })).json().code).toBe('firmware.exists');
    const desc = await t.app.inject({ method: 'GET', url: '/v1/firmware/CANDTU-200/4.2.1/desc', headers: { authorization: tenant.auth } });
    expect(desc.json().description).toBe('CAN FD fixes');
    const other = await makeTenant(t);
    const hidden = await t.app.inject({ method: 'GET', url: '/v1/firmware/CANDTU-200/4.2.1/desc', headers: { authorization: other.auth } });
    expect(hidden.statusCode).toBe(404);
    const id = r.json().firmware_id;
    expect(
      (await t.app.inject({ method: 'PUT', url: `${base()}/firmwares/${id}/true`, headers: { authorization: tenant.auth } })).json()
        .to_public,
    ).toBe(true);
    const seen = await t.app.inject({
      method: 'GET',
      url: `/v1/out-firmware-mgmt/tenants/${other.tenantId}/firmwares`,
      headers: { authorization: other.auth },
    });
    expect(seen.json().list.map((f: { firmware_id: string }) => f.firmware_id)).toContain(id);
    // Only the owner deletes.
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/v1/out-firmware-mgmt/tenants/${other.tenantId}/firmwares/${id}`,
          headers: { authorization: other.auth },
        })
      ).statusCode,
    ).toBe(404);
    const tmp = (await upload({ version: '0.0.1', model_id: model, type: 'outer' }, randomBytes(10))).json();
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${base()}/firmwares?ids=${tmp.firmware_id}`, headers: { authorization: tenant.auth } }))
        .statusCode,
    ).toBe(204);
  });

  it('upgrades an online logger to flash success: download, verify, progress, new version', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    const states: string[] = [];
    const off = t.app.ctx.events.on('firmware.state', (e) => {
      if (e.thingsId === d.id) states.push(e.upgrade.state);
    });
    try {
      const r = await notify('4.2.1', { things_ids: [d.id] });
      expect(r.statusCode).toBe(200);
      expect(r.json().results[0].upgrade.state).toBe('busy');
      // A second upgrade while this one runs is refused.
      const again = await notify('4.2.1', { things_ids: [d.id] });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('things.busy');
      const [u] = await poll(
        () => upgrades(d.id),
        (l) => l[0]?.state === 'flash success',
        { ms: 10_000 },
      );
      expect(u).toMatchObject({ state: 'flash success', progress: 100, version: '4.2.1' });
      expect(Buffer.from(sim.firmware.image ?? []).equals(image)).toBe(true);
      expect(sim.firmware.version).toBe('4.2.1');
      const thing = await poll(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}`,
              headers: { authorization: tenant.auth },
            })
          ).json(),
        (x) => x.firmware === '4.2.1',
        { ms: 10_000 },
      );
      expect(thing.firmware).toBe('4.2.1');
      expect(states).toContain('busy');
      expect(states.at(-1)).toBe('flash success');
    } finally {
      off();
      await sim.close();
    }
  });

  it('a corrupted image is invalid and nothing is flashed; a flash error is flash failed', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    await sim.connect();
    try {
      // The stored file changes after its checksum was taken.
      const fw = (await upload({ version: '4.2.2', model_id: model, type: 'self' }, randomBytes(1000))).json();
      const file = `${t.config.dataDir}/firmware/${fw.firmware_id}.bin`;
      (await import('node:fs')).writeFileSync(file, randomBytes(1000));
      await notify('4.2.2', { things_ids: [d.id] });
      const [u] = await poll(
        () => upgrades(d.id),
        (l) => ['invalid', 'flash failed', 'flash success'].includes(l[0]?.state),
        { ms: 10_000 },
      );
      expect(u.state).toBe('invalid');
      expect(sim.firmware.image).toBeNull();

      await upload({ version: '4.2.3', model_id: model, type: 'self' }, randomBytes(1000));
      sim.firmware.failFlash = true;
      await notify('4.2.3', { things_ids: [d.id] });
      const [v] = await poll(
        () => upgrades(d.id),
        (l) => l[0]?.version === '4.2.3' && l[0]?.state !== 'busy',
        { ms: 10_000 },
      );
      expect(v).toMatchObject({ state: 'flash failed', message: 'flash write error' });
    } finally {
      await sim.close();
    }
  });

  it('refuses an offline device; a scheduled upgrade fires later', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const r = await notify('4.2.1', { things_ids: [d.id] });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ code: 'things.offline', message: 'device offline cannot upgrade' });
    await sim.connect();
    try {
      await poll(
        () => isOnline(t, d.id),
        (x) => x,
        { ms: 10_000 },
      );
      const s = await notify('4.2.1', { things_ids: [d.id], at: Date.now() + 2000 });
      expect(s.json().results[0].upgrade.state).toBe('scheduled');
      await new Promise((res) => setTimeout(res, 500));
      expect((await upgrades(d.id))[0].state).toBe('scheduled');
      const [u] = await poll(
        () => upgrades(d.id),
        (l) => l[0]?.state === 'flash success',
        { ms: 15_000 },
      );
      expect(u.started_at).toBeGreaterThanOrEqual(u.scheduled_at);
    } finally {
      await sim.close();
    }
  });

  it('upgrades many devices in one call, each with its own answer', async () => {
    const a = await remoteDevice(t, tenant);
    const b = await remoteDevice(t, tenant);
    await a.sim.connect();
    try {
      const r = await notify('4.2.1', { things_ids: [a.d.id, b.d.id] });
      expect(r.statusCode).toBe(200);
      const [ra, rb] = r.json().results;
      expect(ra).toMatchObject({ things_id: a.d.id, code: null });
      expect(ra.upgrade.state).toBe('busy');
      expect(rb).toEqual({ things_id: b.d.id, upgrade: null, code: 'things.offline', message: 'device offline cannot upgrade' });
      await poll(
        () => upgrades(a.d.id),
        (l) => l[0]?.state === 'flash success',
        { ms: 10_000 },
      );
    } finally {
      await a.sim.close();
    }
  });

  it('a device that stops reporting leaves its upgrade flash failed, not busy for ever', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    sim.agent.silent.add('common_fn.firmware_upgrade');
    await sim.connect();
    try {
      const r = await notify('4.2.1', { things_ids: [d.id] });
      const u = r.json().results[0].upgrade;
      // Bring the command's deadline near instead of waiting two minutes.
      await t.database.raw.query(
        `update device_commands set deadline_at = now() where correlation_id = (select correlation_id from firmware_upgrades where id = $1)`,
        [u.id],
      );
      const [v] = await poll(
        () => upgrades(d.id),
        (l) => l[0]?.state !== 'busy',
        { ms: 8000 },
      );
      expect(v).toMatchObject({ state: 'flash failed', code: 'command.no-response' });
    } finally {
      await sim.close();
    }
  });

  it('a read-only sub-user cannot upgrade', async () => {
    const { d } = await remoteDevice(t, tenant);
    const reader = await makeSubUser(
      t,
      tenant,
      ['firmware:firmware:notify-upgrade', 'firmware:firmware:query'],
      [{ thingsId: d.id, access: 'read' }],
    );
    expect((await notify('4.2.1', { things_ids: [d.id] }, reader.auth)).statusCode).toBe(403);
  });

  it('another tenant cannot upgrade the device, even with firmware of its own for the model', async () => {
    const { d } = await remoteDevice(t, tenant);
    const other = await makeTenant(t);
    const m = multipart({ version: '9.9.9', model_id: model, type: 'self' }, { name: 'fw.bin', bytes: image });
    const up = await t.app.inject({
      method: 'POST',
      url: `/v1/out-firmware-mgmt/tenants/${other.tenantId}/firmwares`,
      headers: { authorization: other.auth, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(200);
    const r = await t.app.inject({
      method: 'POST',
      url: `/v1/out-firmware-mgmt/tenants/${other.tenantId}/firmwares/${model}/9.9.9/notify`,
      headers: { authorization: other.auth },
      payload: { things_ids: [d.id] },
    });
    // The device is not found in that tenant: nothing is scheduled or sent.
    expect(r.statusCode).toBe(404);
    expect(await upgrades(d.id)).toEqual([]);
  });
});
