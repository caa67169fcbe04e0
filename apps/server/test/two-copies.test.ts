import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { batch } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { startMosquitto, startS3, tryConnect } from './services.helpers.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

/**
 * A deployment of two server copies that share everything but their own folders: one database, one
 * Mosquitto whose device accounts the servers keep (dynamic security), one S3 bucket for files.
 */
describe('two server copies with Mosquitto dynamic security and an S3 bucket', () => {
  let mosquitto: Awaited<ReturnType<typeof startMosquitto>>;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let shared: { database: Database; drop: () => Promise<void> };
  const dirs: string[] = [];
  let a: TestApp;
  let b: TestApp;

  async function copy(port: number): Promise<TestApp> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-copy-'));
    dirs.push(dataDir);
    // The configured port only names the copy's broker session; two copies on one host differ in it.
    const config = testConfig({ dataDir, port, mqttUrl: mosquitto.url, mqttDynsec: true, s3: s3.settings });
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    return { app, config, database: shared.database, close: () => app.close() };
  }

  beforeAll(async () => {
    mosquitto = await startMosquitto();
    s3 = await startS3('deployment');
    shared = await openTestDatabase();
    a = await copy(41001);
    b = await copy(41002);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
    await mosquitto?.stop();
    await s3?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a device added on copy A connects through the broker, and its export made on A downloads from B', async () => {
    const tenant = await makeTenant(a);
    const dev = await makeDevice(a, tenant);
    const device = await poll(
      () => tryConnect(mosquitto.port, dev.third_things_id, dev.things_key),
      (r) => r.ok,
    );
    expect(device.ok).toBe(true);
    const t0 = (Math.floor(Date.now() / 1000) - 600) * 1_000_000;
    for (let seq = 0; seq < 5; seq++)
      await device.client.publishAsync(upTopic(dev.third_things_id, 'frames'), batch(seq, t0 + seq * 100_000), { qos: 1 });
    device.client.end(true);
    const base = `/v1/data-mgmt/tenants/${tenant.tenantId}/things/${dev.id}`;
    const page = await poll(
      async () =>
        (
          await b.app.inject({
            method: 'GET',
            url: `${base}/frames?begin_time=${t0 / 1000 - 1}&end_time=${t0 / 1000 + 10_000}&page_size=1&current_page=1`,
            headers: { authorization: tenant.auth },
          })
        ).json(),
      (p) => p.total === 500,
      { ms: 15_000 },
    );
    expect(page.total).toBe(500);

    const created = await a.app.inject({
      method: 'POST',
      url: `${base}/downloads`,
      headers: { authorization: tenant.auth },
      payload: { begin_time: t0 / 1000 - 1, end_time: t0 / 1000 + 10_000, format: 'csv' },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    const done = await poll(
      async () => (await a.app.inject({ method: 'GET', url: `${base}/downloads/${id}`, headers: { authorization: tenant.auth } })).json(),
      (s) => s.status === 3 || s.status === 7,
      { ms: 15_000 },
    );
    expect(done.status).toBe(3);
    const file = await b.app.inject({ method: 'GET', url: `${base}/downloads/${id}/file`, headers: { authorization: tenant.auth } });
    expect(file.statusCode).toBe(200);
    const lines = file.body.trim().split('\n');
    expect(lines).toHaveLength(501); // header + every frame the device sent
    expect(lines[1].split(',')[0]).toBe(String(t0));
  });
});
