import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { audit, type FleetDevice, storedBatches, streamFleet } from './fleet-audit.helpers.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * The server's connections to its PostgreSQL server lost mid-stream, as a crash of the database
 * server looks to a client: every backend of the server's database is terminated, and for a while
 * no new connection is let in. The server answers 503 meanwhile (health too, at once), acknowledges
 * nothing it did not store, and comes back by itself. On a PostgreSQL server of its own whatever
 * the test lane (TEST_DATABASE_URL, else the local one CI and `scripts/test.sh` run).
 */
const SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('a server whose database connections are lost mid-stream', () => {
  let shared: { database: Database; url: string | null; drop: () => Promise<void> };
  let t: TestApp;
  let admin: pg.Client;
  let name = '';
  let tenant: TenantFixture;

  beforeAll(async () => {
    shared = await openTestDatabase({ server: SERVER });
    name = new URL(shared.url as string).pathname.slice(1);
    admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    const config = testConfig();
    const app = await buildApp(config, { database: shared.database, logger: false });
    await app.ready();
    t = { app, config, database: shared.database, close: () => app.close() };
    tenant = await makeTenant(t);
  }, 60_000);
  afterAll(async () => {
    await admin?.query(`alter database ${name} allow_connections true`).catch(() => {});
    await admin?.end();
    await t?.close();
    await shared?.drop();
    if (t) fs.rmSync(t.config.dataDir, { recursive: true, force: true });
  });

  const cut = async () => {
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
  };
  const health = async () => {
    const started = Date.now();
    const res = await t.app.inject({ method: 'GET', url: '/v1/health' });
    return { status: res.statusCode, db: res.json().db, ms: Date.now() - started };
  };

  it('answers 503 while the database is gone, acknowledges nothing it did not store, and recovers by itself', async () => {
    const devices: FleetDevice[] = [];
    for (let i = 0; i < 6; i++) {
      const d = await makeDevice(t, tenant);
      devices.push({ deviceId: d.third_things_id, key: d.things_key, thingsId: d.id });
    }
    const port = t.app.ctx.broker.port() as number;
    const t0 = (Math.floor(Date.now() / 1000) - 3600) * 1_000_000;
    const fleet = streamFleet(`mqtt://127.0.0.1:${port}`, devices, { t0, window: 5 });
    await poll(fleet.ackedCount, (n) => n >= 300, { ms: 30_000, what: '300 batches acknowledged' });

    await cut();
    // The database is gone: health says so within its bound, an API call is a 503 with its code.
    const down = await poll(health, (h) => h.status === 503, { ms: 10_000, what: 'health 503' });
    expect(down.db).toBe('down');
    expect(down.ms).toBeLessThan(5000);
    const api = await t.app.inject({
      method: 'GET',
      url: `/v1/things/tenants/${tenant.tenantId}/things`,
      headers: { authorization: tenant.auth },
    });
    expect(api.statusCode).toBe(503);
    expect(api.json().code).toBe('db.unavailable');
    // Nothing is acknowledged while nothing can be stored.
    const atCut = fleet.ackedCount();
    await new Promise((r) => setTimeout(r, 2000));
    const whileDown = fleet.ackedCount() - atCut;
    // At most what was committed just before the cut and not yet acknowledged then (each device's window).
    expect(whileDown).toBeLessThanOrEqual(devices.length * 5);

    await admin.query(`alter database ${name} allow_connections true`);
    await poll(health, (h) => h.status === 200, { ms: 20_000, what: 'health 200 again' });
    const back = fleet.ackedCount();
    await poll(fleet.ackedCount, (n) => n >= back + 300, { ms: 60_000, what: '300 more batches acknowledged' });
    await fleet.stop();
    const result = await poll(
      async () =>
        audit(
          fleet.acked,
          await storedBatches(
            t.database.raw,
            devices.map((d) => d.thingsId),
          ),
        ),
      (a) => a.lost === 0,
      { ms: 30_000, what: 'every acknowledged batch stored' },
    );
    expect(result.doubled).toBe(0);
    // The figures of the closing note.
    console.log(
      `database connections lost: sent ${fleet.sentCount()}, acknowledged ${result.acked} (${whileDown} while down), stored ${result.stored}, lost ${result.lost}, doubled ${result.doubled}`,
    );
  }, 180_000);
});
