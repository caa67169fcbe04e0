import fs from 'node:fs';
import path from 'node:path';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { DEFAULT_DASHBOARD_TYPE, defaultDashboardName, GRANTABLE_KEYS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, multipart, rampFrame, testDbc } from './signals.fixtures.ts';
import { deviceId, makeDevice, makeSubUser, makeTenant, PASSWORD, type TenantFixture } from './things.fixtures.ts';

/**
 * Spec §6: a readable device may be looked at, not changed. Every write route of a device-scoped
 * resource — the device, its data, commands, files, rules, panels, and the tenant-wide objects
 * bound to it (DBC files, signal strategies, fences, vehicles) — answers a sub-user holding every
 * permission key but only read access to the device with 403, and changes nothing. A sub-user
 * with the same keys and write access gets past the check on each, which shows the 403 comes
 * from the device access and not from a missing key or a bad request.
 */
let t: TestApp;
let a: TenantFixture;
let reader: { userId: string; auth: string };
let writer: { userId: string; auth: string };
type Who = 'reader' | 'writer';
const rows: {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  url: string | ((who: Who) => string);
  payload?: object | (() => object);
  multipart?: boolean;
}[] = [];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, auth: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: auth, ...headers }, ...(payload ? { payload } : {}) });

/** Every row of every table that has a tenant_id, for this tenant, as one digest per table. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows: tables } = await t.database.raw.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
       join information_schema.tables tb on tb.table_name = c.table_name and tb.table_schema = c.table_schema
      where c.column_name = 'tenant_id' and c.table_schema = current_schema() and tb.table_type = 'BASE TABLE'
        and c.table_name !~ '_p[0-9]{8}$'`,
  );
  // What any call touches by itself: who is signed in, and the operation log.
  const moving = new Set(['sessions', 'op_logs', 'users']);
  const out: Record<string, string> = {};
  for (const { table_name: name } of tables) {
    if (moving.has(name)) continue;
    const r = await t.database.raw.query<{ d: string }>(
      `select coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as d from ${name} x where tenant_id = $1`,
      [a.tenantId],
    );
    out[name] = r.rows[0].d;
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await makeTenant(t);
  const T = a.tenantId;
  // Two CAN channels and no CAN FD: a UDS call asking for FD is refused at once after the access
  // check, instead of waiting for the offline device.
  const plain = await call('POST', `/v1/things/tenants/${T}/device-types`, a.auth, { name: 'PLAIN-2', can_channels: 2, thing_type: 0 });
  expect(plain.statusCode, plain.body).toBe(200);
  const type = plain.json().id as string;
  const dev = await makeDevice(t, a, { info_model_id: type });
  const D = dev.id;

  // The device's CAN0 bound to a DBC file, CAN1 to a strategy of it; a panel, fence, vehicle,
  // rule, alert event, export, recalled file and firmware around it.
  const dbcId = await testDbc(t, a);
  const strategy = await call('POST', `/v1/mapping-mgmt/tenants/${T}/signal-strategies`, a.auth, {
    dbc_id: dbcId,
    signals: [{ message: 'RAMP', signal: 'Value' }],
  });
  expect(strategy.statusCode, strategy.body).toBe(200);
  const S = strategy.json().id;
  expect((await bind(t, a, D, 0, { dbc_id: dbcId, state: 'started' })).statusCode).toBe(200);
  expect((await bind(t, a, D, 1, { strategy_id: S, state: 'started' })).statusCode).toBe(200);
  const dash = await call('POST', `/v1/data-mgmt/tenants/${T}/dashboards`, a.auth, {
    business_type: DEFAULT_DASHBOARD_TYPE,
    name: defaultDashboardName(a.managerId),
  });
  const panels = `/v1/data-mgmt/tenants/${T}/dashboards/${dash.json().id}/panels`;
  const panel = (over: object = {}) => ({
    name: 'Speed',
    chart_type: 'number',
    things_id: D,
    channel: 0,
    signals: [{ message: 'RAMP', signal: 'Value' }],
    ...over,
  });
  const P = await call('POST', panels, a.auth, panel());
  expect(P.statusCode, P.body).toBe(201);
  const circle = (over: object = {}) => ({
    name: `depot ${Math.random().toString(36).slice(2, 7)}`,
    type: 'region',
    region: { shape: 'circle', center: { lat: 31.2, lon: 121.5 }, radius: 1000 },
    ...over,
  });
  const fence = await call('POST', `/v1/fence/tenants/${T}/fences`, a.auth, circle({ things_ids: [D] }));
  expect(fence.statusCode, fence.body).toBe(200);
  const F = fence.json().id;
  const vehicle = await call('POST', `/v1/things/tenants/${T}/vehicles`, a.auth, {
    name: 'Truck 1',
    channels: [{ name: 'PT', things_id: D, channel: 0 }],
  });
  expect(vehicle.statusCode, vehicle.body).toBe(200);
  const V = vehicle.json().id;
  const rule = (over: object = {}) => ({
    name: `rule ${Math.random().toString(36).slice(2, 8)}`,
    things_id: D,
    channel: 0,
    frame_id: '0x123',
    conditions: [{ source: 'data', start_byte: 0, length: 1, op: '>', value: 100 }],
    ...over,
  });
  const R = await call('POST', `/v1/alert-mgmt/tenants/${T}/trigger-rules`, a.auth, rule({ share: true }));
  expect(R.statusCode, R.body).toBe(200);
  const E = await t.database.raw.query<{ id: string }>(
    `insert into alert_events (tenant_id, rule_id, rule_name, owner_id, share, things_id, level, source_type, event_data)
     values ($1, $2, 'r', $3, true, $4, 'ordinary', 'trigger', '{}') returning id`,
    [T, R.json().id, a.managerId, D],
  );
  const X = await call('POST', `/v1/data-mgmt/tenants/${T}/things/${D}/downloads`, a.auth, {
    begin_time: 0,
    end_time: 1000,
    format: 'csv',
  });
  expect(X.statusCode, X.body).toBe(200);
  const recalled = `${D}_trip.log`;
  const log = writeLog([rampFrame(Date.now() * 1000, 40)], 'candump');
  await t.database.raw.query(
    `insert into recall_files (tenant_id, things_id, name, filename, size, sha256) values ($1,$2,$3,'trip.log',$4,'x')`,
    [T, D, recalled, log.length],
  );
  fs.mkdirSync(path.join(t.config.dataDir, 'recall', T), { recursive: true });
  fs.writeFileSync(path.join(t.config.dataDir, 'recall', T, recalled), log);
  await t.database.raw.query(
    `insert into firmwares (tenant_id, version, version_num, model_id, type, file_name, size, sha256) values ($1,'01.00.00',10000,$2,'self','fw.bin',1,'x')`,
    [T, type],
  );

  reader = await makeSubUser(t, a, [...GRANTABLE_KEYS], [{ thingsId: D, access: 'read' }]);
  writer = await makeSubUser(t, a, [...GRANTABLE_KEYS], [{ thingsId: D, access: 'write' }]);
  // A trigger rule is changed by its owner only: one rule of each, as made while each could write.
  const ruleOf: Record<Who, string> = { reader: '', writer: '' };
  for (const [who, user] of [
    ['reader', reader],
    ['writer', writer],
  ] as const) {
    const made = await call('POST', `/v1/alert-mgmt/tenants/${T}/trigger-rules`, a.auth, rule({ share: true }));
    await t.database.raw.query('update trigger_rules set owner_id = $2 where id = $1', [made.json().id, user.userId]);
    ruleOf[who] = `/v1/alert-mgmt/tenants/${T}/trigger-rules/${made.json().id}`;
  }

  const things = `/v1/things/tenants/${T}/things/${D}`;
  const mapping = `/v1/mapping-mgmt/tenants/${T}`;
  const binding = `${mapping}/things/${D}/channels/0/dbc-binding`;
  const data = `/v1/data-mgmt/tenants/${T}/things/${D}`;
  const uds = `/v1/single-candtu/tenants/${T}/things/${D}`;
  const transport = { channel: 0, request_address: 0x7e0, response_address: 0x7e8, fd: true };
  const some = '00000000-0000-4000-8000-000000000001';
  // Destructive rows last: the write-access run below goes through them in this order.
  rows.push(
    { name: 'update the device', method: 'PUT', url: things, payload: { name: 'renamed' } },
    { name: 'new device key', method: 'POST', url: `${things}/key` },
    {
      name: 'add a child device',
      method: 'POST',
      url: `/v1/things/tenants/${T}/things`,
      payload: () => ({ third_things_id: deviceId(), name: 'child', info_model_id: type, parent_things_id: D }),
    },
    {
      name: 'add a vehicle on the device',
      method: 'POST',
      url: `/v1/things/tenants/${T}/vehicles`,
      payload: () => ({ name: `v${Math.random()}`, channels: [{ name: 'c', things_id: D, channel: 1 }] }),
    },
    { name: 'change a vehicle on the device', method: 'PUT', url: `/v1/things/tenants/${T}/vehicles/${V}`, payload: { name: 'Truck 2' } },
    { name: 'change a bound DBC file', method: 'PUT', url: `${mapping}/dbc-files/${dbcId}`, payload: { name: 'renamed-dbc' } },
    { name: 'change a bound strategy', method: 'PUT', url: `${mapping}/signal-strategies/${S}`, payload: { remark: 'changed' } },
    { name: 'bind a channel', method: 'PUT', url: binding, payload: { dbc_id: dbcId, state: 'paused' } },
    { name: 'pause parsing', method: 'PUT', url: `${binding}/state`, payload: { state: 'paused' } },
    { name: 'stop a back-fill', method: 'DELETE', url: `${binding}/backfill` },
    { name: 'add a fence on the device', method: 'POST', url: `/v1/fence/tenants/${T}/fences`, payload: () => circle({ things_ids: [D] }) },
    { name: 'change a fence of the device', method: 'PUT', url: `/v1/fence/tenants/${T}/fences/${F}`, payload: () => circle() },
    {
      name: 'unbind a fence from the device',
      method: 'PUT',
      url: `/v1/fence/tenants/${T}/fences/${F}/things`,
      payload: { things_ids: [] },
    },
    { name: 'add a trigger rule', method: 'POST', url: `/v1/alert-mgmt/tenants/${T}/trigger-rules`, payload: () => rule() },
    { name: 'change a trigger rule', method: 'PUT', url: (who) => ruleOf[who], payload: () => rule() },
    { name: 'switch a trigger rule', method: 'PUT', url: (who) => `${ruleOf[who]}/status/0` },
    {
      name: 'handle an alert event',
      method: 'PUT',
      url: `/v1/alert-data-mgmt/tenants/${T}/events/${E.rows[0].id}/handle`,
      payload: { handler_status: 1 },
    },
    { name: "delete the device's alert events", method: 'DELETE', url: `/v1/alert-data-mgmt/tenants/${T}/events?things_id=${D}` },
    { name: 'upload a log', method: 'POST', url: `${data}/uploads`, multipart: true },
    { name: "cancel another user's export", method: 'DELETE', url: `${data}/downloads/${X.json().id}` },
    {
      name: 'quick-delete the data',
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${T}/quick-delete-tasks`,
      payload: { things_id: D, password: PASSWORD },
    },
    { name: 'import a recalled file', method: 'POST', url: `/v1/filemanager/tenants/${T}/files/import`, payload: { name: recalled } },
    { name: 'send a command', method: 'POST', url: `${things}/messages`, payload: { operation_name: 'common_fn.get_status' } },
    { name: 'cancel a command', method: 'POST', url: `${things}/messages/${some}/cancel` },
    { name: 'write the configuration', method: 'PUT', url: `${things}/config`, payload: { timer_period_ms: 1000 } },
    { name: 'import a configuration', method: 'POST', url: `${things}/config/import`, payload: { config: { timer_period_ms: 1000 } } },
    { name: 'list the SD card', method: 'POST', url: `${things}/recall/list`, payload: {} },
    { name: 'recall a file', method: 'POST', url: `${things}/recall/files`, payload: { filename: 'a.log', size: 10 } },
    { name: 'recall a batch', method: 'POST', url: `${things}/recall/batch`, payload: { files: [{ filename: 'a.log', size: 10 }] } },
    { name: 'cancel a recall', method: 'POST', url: `${things}/recall/tasks/${some}/cancel` },
    {
      name: 'delete a file on the device',
      method: 'POST',
      url: `${things}/recall/device-files/delete`,
      payload: { filter: { name: 'a.log' } },
    },
    {
      name: 'upgrade the firmware',
      method: 'POST',
      url: `/v1/out-firmware-mgmt/tenants/${T}/firmwares/${type}/01.00.00/notify`,
      payload: { things_ids: [D] },
    },
    { name: 'cancel an upgrade', method: 'POST', url: `/v1/out-firmware-mgmt/tenants/${T}/things/${D}/upgrades/${some}/cancel` },
    { name: 'send a UDS request', method: 'POST', url: `${uds}/uds/request`, payload: { transport, pdu: '10 01' } },
    { name: 'read DTCs', method: 'POST', url: `${uds}/uds/dtcs/read`, payload: { transport } },
    { name: 'clear DTCs', method: 'POST', url: `${uds}/uds/dtcs/clear`, payload: { transport } },
    { name: 'upgrade an ECU', method: 'POST', url: `${uds}/ecu-upgrade`, payload: { transport } },
    { name: 'cancel an ECU upgrade', method: 'POST', url: `${uds}/ecu-upgrade/${some}/cancel` },
    { name: 'add a panel', method: 'POST', url: panels, payload: () => panel({ name: `p${Math.floor(Math.random() * 1000)}` }) },
    { name: 'change a panel', method: 'PUT', url: `${panels}/${P.json().id}`, payload: panel({ name: 'Speed 2' }) },
    { name: 'delete a panel', method: 'DELETE', url: `${panels}/${P.json().id}` },
    { name: 'delete a trigger rule', method: 'DELETE', url: (who) => ruleOf[who] },
    { name: 'delete an alert event', method: 'DELETE', url: `/v1/alert-data-mgmt/tenants/${T}/events/${E.rows[0].id}` },
    { name: 'delete a recalled file', method: 'DELETE', url: `/v1/out-filemanager/tenants/${T}/files?name=${recalled}` },
    { name: 'delete a bound strategy', method: 'DELETE', url: `${mapping}/signal-strategies/${S}` },
    { name: 'delete a bound DBC file', method: 'DELETE', url: `${mapping}/dbc-files/${dbcId}` },
    { name: 'unbind a channel', method: 'DELETE', url: binding },
    { name: 'delete a fence of the device', method: 'DELETE', url: `/v1/fence/tenants/${T}/fences/${F}` },
    { name: 'delete a vehicle on the device', method: 'DELETE', url: `/v1/things/tenants/${T}/vehicles/${V}` },
    { name: 'delete the device', method: 'DELETE', url: things },
  );
});
afterAll(async () => {
  await t?.close();
});

const urlOf = (r: (typeof rows)[number], who: Who) => (typeof r.url === 'function' ? r.url(who) : r.url);

function send(r: (typeof rows)[number], who: Who) {
  const auth = who === 'reader' ? reader.auth : writer.auth;
  if (r.multipart) {
    const m = multipart({}, { name: 'trip.log', content: writeLog([rampFrame(Date.now() * 1000, 7)], 'candump') });
    return call(r.method, urlOf(r, who), auth, m.payload, m.headers);
  }
  const payload = typeof r.payload === 'function' ? r.payload() : r.payload;
  return call(r.method, urlOf(r, who), auth, payload);
}

describe('write routes of device-scoped resources', () => {
  it('covers the write routes', () => {
    expect(rows.length).toBeGreaterThanOrEqual(45);
  });

  it('refuse a read-only sub-user with 403 and change nothing', async () => {
    const before = await snapshot();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['things', 'channel_dbc_bindings', 'dbc_files', 'fences', 'vehicles']));
    for (const r of rows) {
      const res = await send(r, 'reader');
      expect(res.statusCode, `${r.name}: ${r.method} ${urlOf(r, 'reader')} ${res.body}`).toBe(403);
      expect(res.json().code, r.name).toBe('http.403');
      expect(await snapshot(), r.name).toEqual(before);
    }
  });

  it('let a sub-user with write access past the same check', async () => {
    for (const r of rows) {
      const res = await send(r, 'writer');
      const refused = res.statusCode === 403 && res.json().code === 'http.403';
      expect(refused, `${r.name}: ${r.method} ${urlOf(r, 'writer')} ${res.body}`).toBe(false);
      expect(res.statusCode, `${r.name}: ${res.body}`).toBeLessThan(500);
    }
  });
});

describe('exports', () => {
  it('are cancelled by who started them, or a user who may change the device', async () => {
    const dev = await makeDevice(t, a);
    const owner = await makeSubUser(t, a, [...GRANTABLE_KEYS], [{ thingsId: dev.id, access: 'read' }]);
    const other = await makeSubUser(t, a, [...GRANTABLE_KEYS], [{ thingsId: dev.id, access: 'read' }]);
    const base = `/v1/data-mgmt/tenants/${a.tenantId}/things/${dev.id}/downloads`;
    const start = async () => (await call('POST', base, owner.auth, { begin_time: 0, end_time: 1000, format: 'csv' })).json().id as string;
    const mine = await start();
    const no = await call('DELETE', `${base}/${mine}`, other.auth);
    expect(no.statusCode).toBe(403);
    expect(no.json().code).toBe('http.403');
    expect((await call('DELETE', `${base}/${mine}`, owner.auth)).statusCode).toBe(204);
    const next = await start();
    expect((await call('DELETE', `${base}/${next}`, a.auth)).statusCode).toBe(204);
  });
});
