import net from 'node:net';
import { LoggerDevice, replay } from '@loggerhead/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type LoggerheadApp } from '../src/app.ts';
import { openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant } from './things.fixtures.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

describe('simulator across a broker restart', () => {
  const apps: LoggerheadApp[] = [];
  let drop: (() => Promise<void>) | null = null;
  afterAll(async () => {
    for (const a of apps) await a.close().catch(() => {});
    await drop?.();
  });

  it('reconnects, re-sends what was not acknowledged, and every frame is stored once', async () => {
    const db = await openTestDatabase();
    drop = db.drop;
    // The same port and database for both servers: the device sees its broker go away and come back.
    const config = testConfig({ mqttPort: await freePort() });
    const start = async () => {
      const app = await buildApp(config, { database: db.database, logger: false });
      await app.ready();
      apps.push(app);
      return app;
    };
    let app = await start();
    const t = { app, config, database: db.database, close: async () => {} } satisfies TestApp;
    const tenant = await makeTenant(t);
    const d = await makeDevice(t, tenant);

    const device = new LoggerDevice({
      broker: `mqtt://127.0.0.1:${config.mqttPort}`,
      deviceId: d.third_things_id,
      key: d.things_key,
      window: 8,
      reconnectMs: 200,
    });
    await device.connect();
    // 300 batches of 100 frames (the byte cap cuts them), an hour ago so that retention keeps them.
    const src = frames(30_000, (Date.now() - 3_600_000) * 1000);
    const running = replay(device, src, { keepTime: true, maxBatchBytes: 32 + 100 * 19 });

    await poll(
      () => device.acked.batches,
      (n) => n >= 30,
      { ms: 60_000, every: 5, what: '30 batches acknowledged' },
    );
    await app.close();
    expect(device.acked.batches).toBeLessThan(300);
    // Down for a while: the device's attempts are refused meanwhile and it backs off.
    await new Promise((r) => setTimeout(r, 1500));
    app = await start();

    await running;
    expect(device.connections).toBeGreaterThanOrEqual(2);
    expect(device.errors).toBeGreaterThan(0);
    expect(device.acked).toEqual({ batches: 300, frames: 30_000 });
    // Online again after its reconnect (status announced anew to the new server).
    const st = await db.database.raw.query<{ online: boolean }>('select is_online as online from things where id = $1', [d.id]);
    expect(st.rows[0]?.online).toBe(true);
    await device.close();

    const { rows } = await db.database.raw.query<{ chunks: number; frames: number; batches: number }>(
      `select count(*)::int as chunks, coalesce(sum(frame_count), 0)::int as frames, count(distinct (session, seq))::int as batches
         from frame_chunks where things_id = $1`,
      [d.id],
    );
    expect(rows[0]).toEqual({ chunks: 300, frames: 30_000, batches: 300 });
  }, 60_000);
});
