import fs from 'node:fs';
import { PERMISSIONS, resolveTextRefs } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { sweepRetention } from '../src/modules/data/retention.job.ts';
import { DriveSim } from '../src/modules/experience/demo-drive.ts';
import { LiveDemo } from '../src/modules/experience/demo-live.ts';
import { DEMO_DEVICES, DEMO_RETENTION_DAYS, HISTORY_MS } from '../src/modules/experience/demo-seed.ts';
import { experienceOf } from '../src/modules/experience/experience.module.ts';
import { createTestApp, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';

/** A stored text as a reader of the tenant's language (zh, the default) reads it. */
const zh = (s: string) => resolveTextRefs('zh', s);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ experience: true });
  await seeded(t.app);
});

/** The demo is seeded in the background once the app is ready: wait for it. */
async function seeded(app: TestApp['app']) {
  const result = await experienceOf(app)?.seeded;
  if (!result) throw new Error('the experience demo was not seeded');
  return result;
}
afterAll(async () => {
  await t?.close();
});

const expSession = () => t.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' });

/** A demo session: GET helper and the demo tenant's id. */
async function demo(app = t.app) {
  const token = (await app.inject({ method: 'POST', url: '/v1/control/sessions/experience' })).json().token;
  const headers = { authorization: `Bearer ${token}` };
  const tenantId = (await app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers })).json().tenant_id as string;
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  return { tenantId, get };
}

interface DemoThing {
  id: string;
  name: string;
  third_things_id: string;
}

/** What the seed stores, counted in the database: a second start must leave every count as it was. */
async function seededCounts(raw: TestApp['database']['raw']) {
  const n = async (sql: string) => (await raw.query<{ n: number }>(sql)).rows[0].n;
  const demoTenant = `(select id from tenants where is_demo)`;
  return {
    things: await n(`select count(*)::int as n from things where tenant_id = ${demoTenant}`),
    types: await n(`select count(*)::int as n from device_types where tenant_id = ${demoTenant}`),
    vehicles: await n(`select count(*)::int as n from vehicles where tenant_id = ${demoTenant}`),
    dbcs: await n(`select count(*)::int as n from dbc_files where tenant_id = ${demoTenant}`),
    fences: await n(`select count(*)::int as n from fences where tenant_id = ${demoTenant}`),
    rules: await n(`select count(*)::int as n from trigger_rules where tenant_id = ${demoTenant}`),
    frames: await n(`select coalesce(sum(frame_count), 0)::int as n from frame_chunks where tenant_id = ${demoTenant}`),
    fixes: await n(`select count(*)::int as n from gps_fixes where tenant_id = ${demoTenant}`),
    events: await n(`select count(*)::int as n from alert_events where tenant_id = ${demoTenant}`),
    series: await n(`select count(*)::int as n from signal_series where tenant_id = ${demoTenant}`),
  };
}

describe('read-only experience account', () => {
  it('opens a session for the seeded demo manager without a password', async () => {
    const res = await expSession();
    expect(res.statusCode).toBe(200);
    const auth = `Bearer ${res.json().token}`;
    const self = (await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: auth } })).json();
    expect(self).toMatchObject({
      username: 'demo',
      isManager: true,
      readOnly: true,
      tenantInfo: { name: 'demo', is_demo: true, status: 1 },
    });
  });

  it('reads but never writes', async () => {
    const auth = `Bearer ${(await expSession()).json().token}`;
    const tenantId = (await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: auth } })).json()
      .tenant_id;
    const h = { authorization: auth };
    expect((await t.app.inject({ method: 'GET', url: `/v1/tenant/tenants/${tenantId}/users`, headers: h })).statusCode).toBe(200);
    const writes = [
      { method: 'PUT' as const, url: '/v1/tenant/users/self', payload: { nick_name: 'Hacker' } },
      { method: 'PUT' as const, url: '/v1/tenant/users/self/password', payload: { old_password: 'x', password: 'Passw0rd!' } },
      { method: 'PUT' as const, url: '/v1/tenant/users/self/tenant', payload: { city: 'Nowhere' } },
      { method: 'POST' as const, url: `/v1/tenant/tenants/${tenantId}/users`, payload: { username: 'intruder', mobile: '13912345678' } },
      {
        method: 'PUT' as const,
        url: `/v1/tenant/tenants/${tenantId}/customization`,
        payload: { data: [{ key: 'systemName', value: 'x' }] },
      },
      { method: 'PUT' as const, url: '/v1/tenant/users/self/configs', payload: { key: 'cols', value: '["a"]' } },
    ];
    for (const w of writes) {
      const res = await t.app.inject({ ...w, headers: h });
      expect(res.statusCode, w.url).toBe(403);
      expect(res.json().code).toBe('http.403');
    }
    const privileges = (await t.app.inject({ method: 'GET', url: '/v1/control/privileges/self', headers: h })).json();
    // The console keeps checking the keys of a read-only manager (its editing buttons are hidden).
    expect(privileges.tenant_manager).toBe(true);
    expect(privileges.read_only).toBe(true);
    const names = privileges.apis.map((a: { name: string }) => a.name);
    expect(names).toContain('things:things:query');
    expect(names).not.toContain('things:things:create');
    expect(names.length).toBeLessThan(PERMISSIONS.length / 2);
  });

  it('lists the seeded demo devices, with two hours of frames, decoded curves, a GPS track and alert events', async () => {
    const { tenantId, get } = await demo();
    const page = await get(`/v1/things/tenants/${tenantId}/things?current_page=1&page_size=20`);
    expect(page.total).toBe(DEMO_DEVICES.length);
    const things = page.list as DemoThing[];
    // The seed stores catalogue references; a reader who asks for no language reads the tenant's (zh).
    expect(things.map((d) => d.name).sort()).toEqual(DEMO_DEVICES.map((d) => zh(d.name)).sort());
    for (const d of things) expect(d.third_things_id).toMatch(/^[0-9A-F]{20}$/);
    // Read-only: every device comes as a read grant, without the access key a logger connects with.
    for (const d of things) expect(d).toMatchObject({ access: 'read', things_key: '' });
    expect(await get(`/v1/things/tenants/${tenantId}/things/${things[0].id}`)).toMatchObject({ access: 'read', things_key: '' });
    // The demo's device labels refer to labels of its registry, with the seed's values.
    const registry = (await get(`/v1/tenant/tenants/${tenantId}/labels/batch`)) as { id: string; label: string }[];
    expect(registry.map((l) => l.label)).toEqual(['fleet', 'model']);
    const nameOf = new Map(registry.map((l) => [l.id, l.label]));
    for (const spec of DEMO_DEVICES) {
      const d = things.find((x) => x.name === zh(spec.name)) as DemoThing & { labels: { tenantLabelId: string; labelValue: string }[] };
      expect(d.labels.map((l) => ({ label: nameOf.get(l.tenantLabelId), labelValue: l.labelValue }))).toEqual(
        spec.labels.map((l) => ({ ...l, labelValue: zh(l.labelValue) })),
      );
    }

    const end = Date.now();
    const begin = end - HISTORY_MS - 60_000;
    for (const d of things) {
      const base = `/v1/data-mgmt/tenants/${tenantId}/things/${d.id}`;
      const frames = await get(`${base}/frames?begin_time=${begin}&end_time=${end}&current_page=1&page_size=20`);
      expect(frames.total, d.name).toBeGreaterThan(10_000);
      // DBC messages and frames outside the DBC alike.
      const ids = new Set(
        (await get(`${base}/frames?begin_time=${begin}&end_time=${end}&page_size=200`)).list.map((f: { id: number }) => f.id),
      );
      expect(ids.has(0x1f0)).toBe(true);
      expect(ids.has(0x5a0)).toBe(true);

      const binding = await get(`/v1/mapping-mgmt/tenants/${tenantId}/things/${d.id}/channels/0/dbc-binding`);
      expect(binding).toMatchObject({ state: 'started', dbc_name: 'demo-vehicle' });

      const curve = await get(
        `${base}/signals/curve?signal=VEHICLE_DYNAMICS.VehicleSpeed&channel=0&begin_time=${begin}&end_time=${end}&width=200`,
      );
      expect(curve.t.length).toBeGreaterThan(10);
      expect(Math.max(...curve.max)).toBeGreaterThan(30);
      expect(Math.min(...curve.min)).toBeGreaterThanOrEqual(0);
      // The multiplexed page: coolant only from page 0 frames, warm after driving a while.
      const coolant = await get(
        `${base}/signals/curve?signal=ENV_STATUS.CoolantTemp&channel=0&begin_time=${begin}&end_time=${end}&width=50`,
      );
      expect(coolant.t.length).toBeGreaterThan(0);
      expect(Math.max(...coolant.max)).toBeGreaterThan(60);

      // History data: the gear, a value-table signal of a Motorola-ordered message, row by row.
      const data = await get(
        `${base}/signals/data?signals=TRANSMISSION.GearPosition&channel=0&begin_time=${begin}&end_time=${end}&page_size=50`,
      );
      expect(data.total).toBeGreaterThan(1000);
      for (const row of data.list) expect(row.value).toBeGreaterThanOrEqual(0);
      expect(new Set(data.list.map((r: { signal: string }) => r.signal))).toEqual(new Set(['GearPosition']));

      const track = await get(`/v1/things/tenants/${tenantId}/things/${d.id}/gps?begin_time=${begin}&end_time=${end}`);
      expect(track.total).toBeGreaterThan(100);
      expect(track.distance_m).toBeGreaterThan(10_000);
    }

    const events = await get(`/v1/alert-data-mgmt/tenants/${tenantId}/events?current_page=1&page_size=50`);
    expect(events.total).toBeGreaterThanOrEqual(2);
    const sources = new Set(events.list.map((e: { source_type: string }) => e.source_type));
    expect(sources).toEqual(new Set(['trigger', 'fence']));
    const fences = await get(`/v1/fence/tenants/${tenantId}/fences?current_page=1&page_size=10`);
    expect(fences.total).toBe(1);
    expect(fences.list[0].things_ids).toHaveLength(DEMO_DEVICES.length);

    // The default dashboard shows the live truck: its panels, with values stored.
    const boards = await get(`/v1/data-mgmt/tenants/${tenantId}/dashboards`);
    expect(boards.list).toHaveLength(1);
    const panelsUrl = `/v1/data-mgmt/tenants/${tenantId}/dashboards/${boards.list[0].id}/panels`;
    const panels = (await get(panelsUrl)).list as { id: string; chart_type: string; things_name: string }[];
    expect(panels.map((p) => p.chart_type)).toEqual(['number', 'gauge', 'number', 'line', 'line']);
    for (const p of panels) expect(p.things_name).toBe(zh(DEMO_DEVICES[0].name));
    const speed = (await get(`${panelsUrl}/${panels[0].id}/values`)).list;
    expect(speed).toEqual([expect.objectContaining({ signal: 'VehicleSpeed', unit: 'km/h', value: expect.any(Number) })]);
  });

  it("reads the demo's names and units in the reader's language: zh by default, en when asked", async () => {
    const { tenantId } = await demo();
    const token = (await expSession()).json().token;
    const read = async (url: string, lang?: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}`, ...(lang ? { 'accept-language': lang } : {}) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    type Type = { id: string; name: string; display_name: string | null; description: string | null; public: boolean };
    const types = async (lang?: string) => (await read(`/v1/things/tenants/${tenantId}/device-types`, lang)) as Type[];
    // Stored once, as references: the words are chosen on read.
    const { rows } = await t.database.raw.query<{ name: string }>('select name from device_types where tenant_id = $1', [tenantId]);
    expect(rows.map((r) => r.name)).toEqual(['{{text:seed.demo.type.name}}']);
    const demoType = (list: Type[]) => list.find((x) => !x.public);
    expect(demoType(await types('en'))).toMatchObject({
      name: 'Demo CAN logger',
      display_name: 'Demo CAN logger (2 CAN channels)',
      description: 'A two-channel CAN logger with GPS',
    });
    expect(demoType(await types('zh-CN,zh;q=0.9'))).toMatchObject({ name: '演示 CAN 记录仪', description: '带 GPS 的双通道 CAN 记录仪' });
    expect(demoType(await types())?.name).toBe('演示 CAN 记录仪');
    // The platform's types too (migration 0290).
    const candtu = (list: Type[]) => list.find((x) => x.name === 'CANDTU-200')?.description;
    expect(candtu(await types('en'))).toBe('CAN/CAN FD logger, 2 channels');
    expect(candtu(await types('zh'))).toBe('CAN/CAN FD 记录仪，2 路通道');

    // A unit of the DBC (degC) as each reader writes it, and a device name inside another answer.
    const boards = await read(`/v1/data-mgmt/tenants/${tenantId}/dashboards`);
    const panelsUrl = `/v1/data-mgmt/tenants/${tenantId}/dashboards/${boards.list[0].id}/panels`;
    const panels = (lang: string) => read(panelsUrl, lang) as Promise<{ list: { id: string; name: string; things_name: string }[] }>;
    const en = (await panels('en')).list;
    expect(en.map((p) => p.name)).toEqual(['Vehicle speed', 'Battery SOC', 'Coolant temperature', 'Speed and throttle', 'Battery current']);
    expect(en[0].things_name).toBe('Demo truck 1');
    expect((await panels('zh')).list.map((p) => p.name)).toEqual(['车速', '电池 SOC', '冷却液温度', '车速与油门', '电池电流']);
    const coolant = en[2].id;
    const unit = async (lang: string) => (await read(`${panelsUrl}/${coolant}/values`, lang)).list[0].unit;
    expect(await unit('en')).toBe('°C');
    expect(await unit('zh')).toBe('℃');
  });

  it('is seeded once across restarts and absent when disabled', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      const counts = [];
      for (let i = 0; i < 2; i++) {
        const config = testConfig({ experience: true });
        const app = await buildApp(config, { database, logger: false });
        await app.ready();
        await seeded(app);
        await app.close();
        fs.rmSync(config.dataDir, { recursive: true, force: true });
        counts.push(await seededCounts(database.raw));
      }
      const { rows } = await database.raw.query<{ n: number }>('select count(*)::int as n from tenants where is_demo');
      expect(rows[0].n).toBe(1);
      for (const [k, v] of Object.entries(counts[0])) expect(v, k).toBeGreaterThan(0);
      expect(counts[1]).toEqual(counts[0]);

      // A start that stopped before a device's history was marked done: the history is made again,
      // in place of what was stored, not beside it.
      const truck = (
        await database.raw.query<{ id: string }>(
          `select id from things where name = $1 and tenant_id = (select id from tenants where is_demo)`,
          [DEMO_DEVICES[1].name],
        )
      ).rows[0].id;
      await database.raw.query(`delete from device_events where things_id = $1 and kind = 'upload'`, [truck]);
      const config = testConfig({ experience: true });
      const app = await buildApp(config, { database, logger: false });
      await app.ready();
      await seeded(app);
      await app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
      const again = await seededCounts(database.raw);
      expect(again.frames).toBe(counts[0].frames);
      expect(again.fixes).toBe(counts[0].fixes);
      expect(again.things).toBe(counts[0].things);
      const marker = await database.raw.query(`select 1 from device_events where things_id = $1 and kind = 'upload'`, [truck]);
      expect(marker.rows).toHaveLength(1);

      // The demo package's short retention applies: three days on, its frames and fixes are gone…
      const demoTenant = (await database.raw.query<{ id: string }>('select id from tenants where is_demo')).rows[0].id;
      const pkg = await database.raw.query<{ days: number }>(
        'select maximum_data_retention_days as days from tenant_packages where tenant_id = $1',
        [demoTenant],
      );
      expect(pkg.rows[0].days).toBe(DEMO_RETENTION_DAYS);
      await sweepRetention({ raw: database.raw, writer: null }, Date.now() + (DEMO_RETENTION_DAYS + 2) * 86_400_000);
      const swept = await seededCounts(database.raw);
      expect(swept.frames).toBe(0);
      expect(swept.fixes).toBe(0);
      // …and the next start gives the vehicles their history again.
      const renewed = testConfig({ experience: true });
      const app2 = await buildApp(renewed, { database, logger: false });
      await app2.ready();
      expect((await seeded(app2)).created.histories).toBe(DEMO_DEVICES.length);
      await app2.close();
      fs.rmSync(renewed.dataDir, { recursive: true, force: true });
      expect((await seededCounts(database.raw)).frames).toBe(counts[0].frames);
    } finally {
      await drop();
    }
    const off = await createTestApp({ experience: false });
    try {
      expect((await off.app.inject({ method: 'POST', url: '/v1/control/sessions/experience' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('live demo logger', () => {
  it('is on by default and set with EXPERIENCE_LIVE', () => {
    expect(loadConfig({}).experienceLive).toBe(true);
    expect(loadConfig({ EXPERIENCE_LIVE: 'off' }).experienceLive).toBe(false);
    expect(loadConfig({ EXPERIENCE_LIVE: 'false', EXPERIENCE: 'true' }).experience).toBe(true);
    expect(() => loadConfig({ EXPERIENCE_LIVE: 'sometimes' })).toThrow(/^EXPERIENCE_LIVE: /);
  });

  it('connects to the embedded broker as the first demo device and its frames reach the history', async () => {
    const live = await createTestApp({ experience: true, experienceLive: true });
    try {
      await seeded(live.app);
      const { tenantId, get } = await demo(live.app);
      const since = Date.now();
      const things = (await get(`/v1/things/tenants/${tenantId}/things?current_page=1&page_size=20`)).list as DemoThing[];
      const truck = things.find((d) => d.name === zh(DEMO_DEVICES[0].name)) as DemoThing;
      const base = `/v1/data-mgmt/tenants/${tenantId}/things/${truck.id}`;
      // Decoded like any logger's frames; the decoded values are stored a step after the frames,
      // so the curve is polled with them.
      const curveUrl = () =>
        `${base}/signals/curve?signal=ENGINE_DATA.EngineSpeed&channel=0&begin_time=${since}&end_time=${Date.now() + 1000}&width=50`;
      const { fresh, online, fixes, points } = await poll(
        async () => {
          const fresh: number = (await get(`${base}/frames?begin_time=${since}&end_time=${Date.now() + 60_000}&page_size=10`)).total;
          const online: boolean = (await get(`/v1/things/tenants/${tenantId}/things/${truck.id}`)).is_online;
          const fixes: number = (
            await get(`/v1/things/tenants/${tenantId}/things/${truck.id}/gps?begin_time=${since}&end_time=${Date.now() + 60_000}`)
          ).total;
          const points: number = fresh > 0 ? (await get(curveUrl())).t.length : 0;
          return { fresh, online, fixes, points };
        },
        (s) => s.fresh > 0 && s.online && s.fixes > 0 && s.points > 0,
        { ms: 60_000, every: 250, what: 'the live demo logger: frames, online, GPS fixes and a curve' },
      );
      expect(fresh).toBeGreaterThan(0);
      expect(online).toBe(true);
      expect(fixes).toBeGreaterThan(0);
      expect(points).toBeGreaterThan(0);
      // Only the first device is live.
      for (const other of things.filter((d) => d.id !== truck.id)) {
        expect((await get(`/v1/things/tenants/${tenantId}/things/${other.id}`)).is_online).toBe(false);
      }
    } finally {
      await live.close();
    }
  });
});

describe('live demo logger refused', () => {
  it('logs a refused connection and keeps trying, without throwing, and stops when asked', async () => {
    const plain = await createTestApp();
    const warnings: string[] = [];
    const live = new LiveDemo({
      broker: () => `mqtt://127.0.0.1:${plain.app.ctx.broker.port()}`,
      deviceId: 'F00DF00DF00DF00DF00D',
      key: async () => 'not-the-key',
      sim: new DriveSim(1),
      log: { info: () => {}, warn: (_o, m) => warnings.push(m) },
    });
    try {
      live.start();
      await poll(
        () => warnings.length,
        (n) => n > 0,
        { ms: 30_000, every: 100, what: 'a warning from the refused demo logger' },
      );
      expect(warnings).toContain('demo logger not connected, trying again later');
      expect(live.sentFrames).toBe(0);
      // The server still answers.
      expect((await plain.app.inject({ method: 'GET', url: '/v1/health' })).statusCode).toBe(200);
    } finally {
      await live.stop();
      await plain.close();
    }
  });
});
