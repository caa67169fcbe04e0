import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LINK_PROOF_HEADER, linkProof } from '@loggerhead/can/protocol/link-proof.ts';
import { downTopic, upTopic } from '@loggerhead/can/protocol/topics.ts';
import { ErrorCodes } from '@loggerhead/contract';
import type { MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { multipart } from './command.helpers.ts';
import { crashable, exited, freePort, nth, serverDatabase, spawnServer, startCopy } from './crash.helpers.ts';
import { ADMIN_PASSWORD, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { connectDevice, externalBroker } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { bind, ingestFrames, rampFrame, testDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, PASSWORD, publicType, type TenantFixture } from './things.fixtures.ts';

/** What a job killed with its server ends as (the console shows the reason in the user's language). */
const REASON = ErrorCodes['job.interrupted'].message;
// Two hours ago on the hour (µs): inside every retention rule.
const T0 = (Math.floor(Date.now() / 3_600_000) - 2) * 3_600_000_000;
const DAY_MS = 86_400_000;

/**
 * One server copy (A) runs a job and dies at a chosen statement, as a crash would leave it: what it
 * committed stays, nothing after it is written, its open transaction is rolled back, and it is never
 * closed. A new copy (B) then starts on the same database and data folder.
 */
interface Harness {
  a: TestApp;
  tenant: TenantFixture;
  crash: ReturnType<typeof crashable>;
  /** The database as the test sees it (not through copy A). */
  db: Database;
  restart(): Promise<TestApp>;
  device(t: TestApp, d: { third_things_id: string; things_key: string }): Promise<MqttClient>;
}

let shared: Awaited<ReturnType<typeof openTestDatabase>> | null = null;

/** Each case on the same database (migrated once), with copies of its own and a data folder of its own. */
async function harness(run: (h: Harness) => Promise<void>) {
  shared ??= await openTestDatabase();
  const { database } = shared;
  const config = testConfig();
  const crash = crashable(database);
  const a = await startCopy(config, crash.database);
  const clients: MqttClient[] = [];
  let b: TestApp | null = null;
  try {
    await run({
      a,
      tenant: await makeTenant(a),
      crash,
      db: database,
      async restart() {
        if (!crash.crashed) throw new Error('copy A is still alive');
        // The dead copy's broker stops listening (its sockets went with the process).
        void a.app.ctx.broker.close().catch(() => {});
        b = await startCopy(config, database);
        return b;
      },
      async device(t, d) {
        const c = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, d.third_things_id, d.things_key);
        clients.push(c);
        return c;
      },
    });
  } finally {
    for (const c of clients) c.end(true);
    await (b as TestApp | null)?.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  }
}

const get = async (t: TestApp, auth: string, url: string) =>
  (await t.app.inject({ method: 'GET', url, headers: { authorization: auth } })).json();
const respond = (c: MqttClient, deviceId: string, body: object) =>
  c.publishAsync(upTopic(deviceId, 'resp'), JSON.stringify(body), { qos: 1 });
const update = (sql: string) => (s: string) => s.trimStart().startsWith(sql);

async function ecuWithFiles(t: TestApp, tenant: TenantFixture) {
  const up = async (type: string, name: string, bytes: Uint8Array) => {
    const m = multipart({ type, name }, { name, bytes });
    const r = await t.app.inject({
      method: 'POST',
      url: `/v1/single-candtu/tenants/${tenant.tenantId}/files`,
      headers: { authorization: tenant.auth, ...m.headers },
      payload: m.payload,
    });
    return r.json().id as string;
  };
  const unlock = { format: 'loggerhead-unlock/1', level: 1, steps: [{ op: 'xor', hex: '5A3C96E1' }] };
  const r = await t.app.inject({
    method: 'POST',
    url: `/v1/single-candtu/tenants/${tenant.tenantId}/ecus`,
    headers: { authorization: tenant.auth },
    payload: {
      name: 'BMS',
      physical_address: 0x7e0,
      response_address: 0x7e8,
      firmware_file_id: await up('firmware', 'bms.bin', randomBytes(2000)),
      unlock_file_id: await up('unlock', 'bms-unlock.json', Buffer.from(JSON.stringify(unlock))),
    },
  });
  return r.json().id as string;
}

/** Every kind of long-running job, killed mid-way with its server, then the server started again. */
const kinds: { kind: string; ends: string; run: (h: Harness) => Promise<void> }[] = [
  {
    kind: 'data export',
    ends: 'failed with the reason; its half-written file deleted',
    async run({ a, tenant, crash, restart }) {
      const dev = await makeDevice(a, tenant);
      await ingestFrames(
        a,
        tenant.tenantId,
        dev.id,
        Array.from({ length: 500 }, (_, i) => rampFrame(T0 + i * 1000, i)),
        1,
      );
      const base = `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/downloads`;
      // Dies as it moves to "generating 90 %": the file is open and half written.
      crash.at((sql, p) => update('update download_tasks set status')(sql) && p[1] === 5);
      const created = await a.app.inject({
        method: 'POST',
        url: base,
        headers: { authorization: tenant.auth },
        payload: { begin_time: T0 / 1000, end_time: T0 / 1000 + 1000, format: 'candump' },
      });
      const id = created.json().id as string;
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the export to reach its last phase' });
      // The file being written (under a temporary name until it is complete).
      const folder = path.join(a.config.dataDir, 'files', 'exports', tenant.tenantId);
      const partials = () => (fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.startsWith(`${id}.log`)) : []);
      expect(partials()).toHaveLength(1);

      const b = await restart();
      expect(await get(b, tenant.auth, `${base}/${id}`)).toMatchObject({ status: 7, error: REASON, estimated_time: 0 });
      expect(partials()).toEqual([]);
      const file = await b.app.inject({ method: 'GET', url: `${base}/${id}/file`, headers: { authorization: tenant.auth } });
      expect(file.statusCode).toBe(409);
    },
  },
  {
    kind: 'quick delete',
    ends: 'resumed and done: every frame of the range gone',
    async run({ a, tenant, crash, db, restart }) {
      const dev = await makeDevice(a, tenant);
      const day0 = (Math.floor(Date.now() / DAY_MS) - 4) * DAY_MS;
      for (let d = 0; d < 3; d++)
        await ingestFrames(a, tenant.tenantId, dev.id, [rampFrame((day0 + d * DAY_MS + 3_600_000) * 1000, d)], d + 1);
      await db.raw.query(
        `update tenant_packages set quick_delete_things_num = 1, quick_delete_things_list = $2::jsonb where tenant_id = $1`,
        [tenant.tenantId, JSON.stringify([{ third_things_id: dev.third_things_id }])],
      );
      const chunks = async () =>
        (await db.raw.query<{ n: number }>('select count(*)::int as n from frame_chunks where things_id = $1', [dev.id])).rows[0].n;
      expect(await chunks()).toBe(3);
      // Dies deleting the second day (that delete is rolled back).
      crash.at(nth(2, (sql) => sql.includes('delete from frame_chunks')));
      const created = await a.app.inject({
        method: 'POST',
        url: `/v1/data-mgmt/tenants/${tenant.tenantId}/quick-delete-tasks`,
        headers: { authorization: tenant.auth },
        payload: { things_id: dev.id, password: PASSWORD },
      });
      expect(created.statusCode, created.body).toBe(201);
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the second day' });
      expect(await chunks()).toBe(2);

      const b = await restart();
      const url = `/v1/data-mgmt/tenants/${tenant.tenantId}/quick-delete-tasks/${created.json().id}`;
      await poll(async () => (await get(b, tenant.auth, url)).status >= 3, Boolean, { ms: 15_000, what: 'the resumed task' });
      expect(await get(b, tenant.auth, url)).toMatchObject({ status: 3, process_rate: 100, error: null });
      expect(await chunks()).toBe(0);
    },
  },
  {
    kind: 'DBC back-fill',
    ends: 'resumed and done: every stored frame decoded once',
    async run({ a, tenant, crash, restart }) {
      const dev = await makeDevice(a, tenant);
      await bind(a, tenant, dev.id, 0, { dbc_id: await testDbc(a, tenant), state: 'paused' });
      // 40 raw chunks of 10 frames: three steps of 16 chunks.
      for (let c = 0; c < 40; c++)
        await ingestFrames(
          a,
          tenant.tenantId,
          dev.id,
          Array.from({ length: 10 }, (_, i) => rampFrame(T0 + (c * 10 + i) * 10_000, c * 10 + i)),
          c + 1,
        );
      const binding = `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/channels/0/dbc-binding`;
      // Dies after storing the second step's samples, before noting its progress.
      crash.at(nth(2, (sql) => sql.includes('update dbc_backfills set done_frames')));
      const started = await a.app.inject({
        method: 'PUT',
        url: `${binding}/state`,
        headers: { authorization: tenant.auth },
        payload: { state: 'started', backfill: { begin_time: T0 / 1000, end_time: T0 / 1000 + 60_000 } },
      });
      expect(started.statusCode, started.body).toBe(200);
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the second step' });

      const b = await restart();
      await poll(async () => (await get(b, tenant.auth, `${binding}/backfill`)).state !== 'running', Boolean, {
        ms: 15_000,
        what: 'the back-fill',
      });
      expect(await get(b, tenant.auth, `${binding}/backfill`)).toMatchObject({ state: 'done', total_frames: 400, done_frames: 400 });
      const series = await get(b, tenant.auth, `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/signals`);
      expect(series.find((s: { signal: string }) => s.signal === 'Value')?.samples).toBe(400);
    },
  },
  {
    kind: 'DBC back-fill whose channel stopped decoding meanwhile',
    ends: 'interrupted, with the reason',
    async run({ a, tenant, crash, db, restart }) {
      const dev = await makeDevice(a, tenant);
      await bind(a, tenant, dev.id, 0, { dbc_id: await testDbc(a, tenant), state: 'paused' });
      for (let c = 0; c < 20; c++) await ingestFrames(a, tenant.tenantId, dev.id, [rampFrame(T0 + c * 10_000, c)], c + 1);
      const binding = `/v1/mapping-mgmt/tenants/${tenant.tenantId}/things/${dev.id}/channels/0/dbc-binding`;
      crash.at(nth(1, (sql) => sql.includes('update dbc_backfills set done_frames')));
      await a.app.inject({
        method: 'PUT',
        url: `${binding}/state`,
        headers: { authorization: tenant.auth },
        payload: { state: 'started', backfill: { begin_time: T0 / 1000, end_time: T0 / 1000 + 60_000 } },
      });
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the first step' });
      // Paused while the server was down (e.g. on another copy): the back-fill's input is gone.
      await db.raw.query('update channel_dbc_bindings set state = 0, updated_at = now() where things_id = $1', [dev.id]);

      const b = await restart();
      expect(await get(b, tenant.auth, `${binding}/backfill`)).toMatchObject({ state: 'interrupted', error: REASON });
    },
  },
  {
    kind: 'ECU flash',
    ends: 'failed with the reason, at the step it reached',
    async run({ a, tenant, crash, restart }) {
      const ecuId = await ecuWithFiles(a, tenant);
      const dev = await makeDevice(a, tenant);
      const base = `/v1/single-candtu/tenants/${tenant.tenantId}/things/${dev.id}/ecu-upgrade`;
      // Dies sending the first UDS request of the sequence.
      crash.at((sql, p) => sql.includes('insert into device_commands') && JSON.stringify(p).includes('uds.request'));
      const job = await a.app.inject({
        method: 'POST',
        url: base,
        headers: { authorization: tenant.auth },
        payload: { transport: { ecu_id: ecuId }, address: 0x8000 },
      });
      expect(job.statusCode, job.body).toBe(200);
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the first request' });

      const b = await restart();
      expect(await get(b, tenant.auth, `${base}/${job.json().id}`)).toMatchObject({
        state: 'failed',
        step: 'extended-session',
        reason: REASON,
      });
    },
  },
  ...(['sent to the device', 'being prepared'] as const).map((phase) => ({
    kind: `firmware upgrade ${phase}`,
    ends: phase === 'sent to the device' ? "waits for the device's report, then done" : 'failed with the reason',
    async run({ a, tenant, crash, db, restart, device }: Harness) {
      const model = await publicType(a);
      const m = multipart({ version: '4.2.1', model_id: model, type: 'self' }, { name: 'fw.bin', bytes: randomBytes(1000) });
      const base = `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}`;
      const fw = await a.app.inject({
        method: 'POST',
        url: `${base}/firmwares`,
        headers: { authorization: tenant.auth, ...m.headers },
        payload: m.payload,
      });
      expect(fw.statusCode, fw.body).toBe(200);
      const dev = await makeDevice(a, tenant);
      const onA = await device(a, dev);
      await poll(async () => (await db.raw.query('select 1 from things where id = $1 and is_online', [dev.id])).rows.length > 0, Boolean, {
        ms: 15_000,
      });
      const got: string[] = [];
      onA.on('message', (_topic, payload) => got.push(JSON.parse(payload.toString()).correlation_id));
      await onA.subscribeAsync(downTopic(dev.third_things_id, 'cmd'), { qos: 1 });
      // Sent: dies noting the command it just published. Being prepared: dies before sending it.
      crash.at(
        (sql, p) =>
          update('update firmware_upgrades set state = coalesce')(sql) &&
          (phase === 'sent to the device' ? p[5] !== null : p[1] === 'busy'),
      );
      void a.app.inject({
        method: 'POST',
        url: `${base}/firmwares/${model}/4.2.1/notify`,
        headers: { authorization: tenant.auth },
        payload: { things_ids: [dev.id], type: 'self' },
      });
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the upgrade to start' });
      onA.end(true);

      const b = await restart();
      const upgrades = () => get(b, tenant.auth, `${base}/things/${dev.id}/upgrades`);
      if (phase === 'being prepared') {
        expect((await upgrades())[0]).toMatchObject({ state: 'flash failed', code: 'job.interrupted', message: REASON });
        return;
      }
      expect(got).toHaveLength(1);
      expect((await upgrades())[0]).toMatchObject({ state: 'busy', code: null });
      // The device finishes flashing and reports to the new server.
      const onB = await device(b, dev);
      await respond(onB, dev.third_things_id, { correlation_id: got[0], code: 0, payload: { state: 'flash success', version: '4.2.1' } });
      await poll(async () => (await upgrades())[0].state !== 'busy', Boolean, { ms: 15_000, what: 'the report' });
      expect((await upgrades())[0]).toMatchObject({ state: 'flash success', progress: 100 });
    },
  })),
  ...(['sent to the device', 'being prepared'] as const).map((phase) => ({
    kind: `file recall ${phase}`,
    ends: phase === 'sent to the device' ? 'waits for the device, which uploads the file: done' : 'failed with the reason',
    async run({ a, tenant, crash, db, restart, device }: Harness) {
      const dev = await makeDevice(a, tenant);
      const base = `/v1/things/tenants/${tenant.tenantId}/things/${dev.id}/recall`;
      const file = Buffer.from('(1700000000.000000) can0 123#DEADBEEF\n');
      // The device is offline: the command is queued. Sent: dies noting it. Being prepared: dies storing it.
      crash.at((sql) =>
        phase === 'sent to the device'
          ? update('update recall_tasks set correlation_id')(sql)
          : sql.includes('insert into device_commands'),
      );
      void a.app.inject({
        method: 'POST',
        url: `${base}/files`,
        headers: { authorization: tenant.auth },
        payload: { filename: 'LOG/0001.log', size: file.length },
      });
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the recall to be sent' });
      const { rows } = await db.raw.query<{ id: string; token: string }>('select id, token from recall_tasks where things_id = $1', [
        dev.id,
      ]);

      const b = await restart();
      const task = () => get(b, tenant.auth, `${base}/tasks/${rows[0].id}`);
      if (phase === 'being prepared') {
        expect(await task()).toMatchObject({ state: 'failed', code: 'job.interrupted', message: REASON });
        return;
      }
      const waiting = await task();
      expect(waiting).toMatchObject({ state: 'sending', code: null });
      // The device comes online at the new server, gets the command, uploads the file and answers.
      const onB = await device(b, dev);
      const cmd = new Promise<string>((resolve) => onB.on('message', (_t, p) => resolve(JSON.parse(p.toString()).correlation_id)));
      await onB.subscribeAsync(downTopic(dev.third_things_id, 'cmd'), { qos: 1 });
      expect(await cmd).toBe(waiting.correlation_id);
      const put = await b.app.inject({
        method: 'PUT',
        url: `/v1/filemanager/recall-upload/${rows[0].token}?offset=0&total=${file.length}`,
        headers: { 'content-type': 'application/octet-stream', [LINK_PROOF_HEADER]: linkProof(dev.things_key, rows[0].token) },
        payload: file,
      });
      expect(put.json()).toEqual({ received: file.length });
      await respond(onB, dev.third_things_id, {
        correlation_id: waiting.correlation_id,
        code: 0,
        payload: { size: file.length, sha256: createHash('sha256').update(file).digest('hex') },
      });
      await poll(async () => (await task()).state !== 'sending' && (await task()).state !== 'fetching', Boolean, {
        ms: 15_000,
        what: 'the file',
      });
      expect(await task()).toMatchObject({ state: 'done', size: file.length, process_rate: 100 });
    },
  })),
  {
    kind: 'firmware upgrade whose report the device sent as the server died',
    ends: 'the stored report is applied: done',
    async run({ a, tenant, crash, db, restart, device }) {
      const model = await publicType(a);
      const m = multipart({ version: '4.2.1', model_id: model, type: 'self' }, { name: 'fw.bin', bytes: randomBytes(1000) });
      const base = `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}`;
      await a.app.inject({
        method: 'POST',
        url: `${base}/firmwares`,
        headers: { authorization: tenant.auth, ...m.headers },
        payload: m.payload,
      });
      const dev = await makeDevice(a, tenant);
      const onA = await device(a, dev);
      await poll(async () => (await db.raw.query('select 1 from things where id = $1 and is_online', [dev.id])).rows.length > 0, Boolean, {
        ms: 15_000,
      });
      const got: string[] = [];
      onA.on('message', (_topic, payload) => got.push(JSON.parse(payload.toString()).correlation_id));
      await onA.subscribeAsync(downTopic(dev.third_things_id, 'cmd'), { qos: 1 });
      await a.app.inject({
        method: 'POST',
        url: `${base}/firmwares/${model}/4.2.1/notify`,
        headers: { authorization: tenant.auth },
        payload: { things_ids: [dev.id], type: 'self' },
      });
      await poll(() => got.length === 1, Boolean, { ms: 15_000, what: 'the command' });
      // Dies applying the device's final report: the report is stored, the upgrade still busy.
      crash.at((sql) => sql.includes('from firmware_upgrades where things_id = $1 and correlation_id = $2'));
      // Not acknowledged: the server dies before it has stored and handled the message.
      void respond(onA, dev.third_things_id, {
        correlation_id: got[0],
        code: 0,
        payload: { state: 'flash success', version: '4.2.1' },
      }).catch(() => {});
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the report' });
      onA.end(true);
      const stored = await db.raw.query<{ state: string }>('select state from device_commands where correlation_id = $1', [got[0]]);
      expect(stored.rows[0].state).toBe('answered');

      const b = await restart();
      const [u] = await get(b, tenant.auth, `${base}/things/${dev.id}/upgrades`);
      expect(u).toMatchObject({ state: 'flash success', progress: 100 });
      const thing = await db.raw.query<{ firmware: string }>('select firmware from things where id = $1', [dev.id]);
      expect(thing.rows[0].firmware).toBe('4.2.1');
    },
  },
  {
    kind: 'file recall whose file arrived as the server died',
    ends: 'the received file is stored: done',
    async run({ a, tenant, crash, db, restart, device }) {
      const dev = await makeDevice(a, tenant);
      const onA = await device(a, dev);
      await poll(async () => (await db.raw.query('select 1 from things where id = $1 and is_online', [dev.id])).rows.length > 0, Boolean, {
        ms: 15_000,
      });
      await onA.subscribeAsync(downTopic(dev.third_things_id, 'cmd'), { qos: 1 });
      const base = `/v1/things/tenants/${tenant.tenantId}/things/${dev.id}/recall`;
      const file = Buffer.from('(1700000000.000000) can0 123#CAFE\n');
      const task = (
        await a.app.inject({
          method: 'POST',
          url: `${base}/files`,
          headers: { authorization: tenant.auth },
          payload: { filename: 'LOG/0002.log', size: file.length },
        })
      ).json();
      const { rows } = await db.raw.query<{ token: string }>('select token from recall_tasks where id = $1', [task.id]);
      await a.app.inject({
        method: 'PUT',
        url: `/v1/filemanager/recall-upload/${rows[0].token}?offset=0&total=${file.length}`,
        headers: { 'content-type': 'application/octet-stream', [LINK_PROOF_HEADER]: linkProof(dev.things_key, rows[0].token) },
        payload: file,
      });
      // Dies storing the file the device just finished sending.
      crash.at((sql) => sql.includes('from recall_tasks where things_id = $1 and correlation_id = $2'));
      void respond(onA, dev.third_things_id, {
        correlation_id: task.correlation_id,
        code: 0,
        payload: { size: file.length, sha256: createHash('sha256').update(file).digest('hex') },
      }).catch(() => {});
      await poll(() => crash.crashed, Boolean, { ms: 15_000, what: 'the answer' });
      onA.end(true);

      const b = await restart();
      expect(await get(b, tenant.auth, `${base}/tasks/${task.id}`)).toMatchObject({ state: 'done', size: file.length });
      const stored = await b.app.inject({
        method: 'GET',
        url: `/v1/filemanager/upload/commonfile/${dev.id}_LOG_0002.log`,
        headers: { authorization: tenant.auth },
      });
      expect(stored.rawPayload.equals(file)).toBe(true);
    },
  },
];

describe('long-running jobs killed with their server end visibly: resumed and done, or failed with a reason', () => {
  afterAll(async () => {
    await shared?.drop();
  });
  for (const { kind, ends, run } of kinds) it(`${kind}: ${ends}`, () => harness(run));
});

describe('several server copies on one database (external broker)', () => {
  let stopBroker: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await stopBroker?.();
  });

  it("a starting copy leaves a live copy's job alone; once that copy dies, a live copy fails the job within the lease", async () => {
    const broker = await externalBroker();
    stopBroker = broker.stop;
    const { database, drop } = await openTestDatabase();
    const dataDir = testConfig().dataDir;
    // The lease as short as a loaded test machine allows: a copy is renewed every second.
    const config = (port: number) => testConfig({ mqttUrl: broker.url, dataDir, port, jobLeaseSeconds: 3 });
    const crash = crashable(database);
    const a = await startCopy(config(18_001), crash.database);
    let b: TestApp | null = null;
    try {
      const tenant = await makeTenant(a);
      const ecuId = await ecuWithFiles(a, tenant);
      const dev = await makeDevice(a, tenant);
      const base = `/v1/single-candtu/tenants/${tenant.tenantId}/things/${dev.id}/ecu-upgrade`;
      // The device is offline: copy A's flash waits for its first answer.
      const job = (
        await a.app.inject({
          method: 'POST',
          url: base,
          headers: { authorization: tenant.auth },
          payload: { transport: { ecu_id: ecuId }, address: 0x8000 },
        })
      ).json();
      b = await startCopy(config(18_002), database);
      const state = async () => (await get(b as TestApp, tenant.auth, `${base}/${job.id}`)) as { state: string; reason: string | null };
      // B's start-up and a few of its periodic passes: A is alive, its job runs on.
      await new Promise((r) => setTimeout(r, 3500));
      expect(await state()).toMatchObject({ state: 'running', reason: null });

      crash.now();
      await poll(async () => (await state()).state !== 'running', Boolean, { ms: 20_000, what: 'the dead copy’s job to end' });
      expect(await state()).toMatchObject({ state: 'failed', reason: REASON });
    } finally {
      void a.app.ctx.broker.close().catch(() => {});
      await (b as TestApp | null)?.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the real server killed with SIGKILL mid-job', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-jobs-kill-'));
  const children: ChildProcess[] = [];
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && !c.signalCode) c.kill('SIGKILL');
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('an ECU flash running in the killed process is failed with the reason as the server starts again', async () => {
    const db = await serverDatabase(dataDir);
    const { database, url } = db;
    drop = db.drop;
    // Tenant, ECU, files and device made through the API of a copy that then stops in order.
    const setup = await startCopy(testConfig({ dataDir }), database);
    const tenant = await makeTenant(setup);
    const ecuId = await ecuWithFiles(setup, tenant);
    const dev = await makeDevice(setup, tenant);
    await setup.close();
    await database.close();

    const port = await freePort();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      // The key the setup copy recorded in the database: the process must hold the same one.
      SECRETS_KEY: (setup.config.secretsKey as Buffer).toString('base64'),
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOGGERHEAD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      WEB_DIR: '',
      EXPERIENCE: 'false',
      MQTT_URL: '',
    };
    const base = `http://127.0.0.1:${port}/v1/single-candtu/tenants/${tenant.tenantId}/things/${dev.id}/ecu-upgrade`;
    const call = async (method: string, u: string, body?: object) =>
      (
        await fetch(u, {
          method,
          headers: { authorization: tenant.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        })
      ).json();

    let server = await spawnServer(env);
    children.push(server);
    // The logger is offline: the flash waits in the server for the ECU's first answer.
    const job = (await call('POST', base, { transport: { ecu_id: ecuId }, address: 0x8000 })) as { id: string };
    expect(job).toMatchObject({ state: 'running', step: 'extended-session' });
    server.kill('SIGKILL');
    await exited(server);

    server = await spawnServer(env);
    children.push(server);
    // Ended by the time the server says it is running: no waiting for a time-out.
    expect(await call('GET', `${base}/${job.id}`)).toMatchObject({ state: 'failed', step: 'extended-session', reason: REASON });
    server.kill('SIGTERM');
    await exited(server);
  }, 300_000); // two server starts on PGlite files
});
