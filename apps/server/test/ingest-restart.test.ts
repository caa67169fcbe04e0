import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { exited, freePort, serverDatabase, spawnServer } from './crash.helpers.ts';
import { ADMIN_PASSWORD } from './helper.ts';
import { batch, connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { deviceId } from './things.fixtures.ts';

// Recent data: the retention sweep at start must keep it.
const T0 = (Date.now() - 3_600_000) * 1000;

describe('crash safety', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-crash-'));
  let drop: (() => Promise<void>) | null = null;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged batch when the server is killed mid-stream and restarted', async () => {
    const opened = await serverDatabase(dataDir);
    const { database: db, url } = opened;
    drop = opened.drop;
    await migrate(db.raw);
    const tenant = await db.raw.query<{ id: string }>(`insert into tenants (name) values ('crash') returning id`);
    const type = await db.raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`);
    const dev = deviceId();
    const thing = await db.raw.query<{ id: string }>(
      `insert into things (tenant_id, third_things_id, name, info_model_id, things_key) values ($1,$2,'crash',$3,'k3y') returning id`,
      [tenant.rows[0].id, dev, type.rows[0].id],
    );
    await db.close();

    const mqttPort = await freePort();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      PORT: '0',
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      LOGGERHEAD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      WEB_DIR: '',
      EXPERIENCE: 'false',
      MQTT_URL: '',
    };
    let server = await spawnServer(env);
    children.push(server);

    const acked = new Set<number>();
    const client = await connectDevice(`mqtt://127.0.0.1:${mqttPort}`, dev, 'k3y');
    let stop = false;
    client.on('close', () => {
      stop = true;
    });
    // Ten batches in flight at a time, like a logger with a send window.
    let seq = 0;
    const sendMore = () => {
      while (!stop && seq - acked.size < 10 && seq < 100_000) {
        const s = ++seq;
        client.publish(upTopic(dev, 'frames'), batch(s, T0 + s * 1000_000, 500), { qos: 1 }, (err) => {
          if (!err) acked.add(s);
          sendMore();
        });
      }
    };
    sendMore();
    await poll(
      () => acked.size,
      (n) => n >= 40,
      { ms: 60_000, every: 10, what: '40 batches acknowledged' },
    );
    server.kill('SIGKILL');
    await exited(server);
    stop = true;
    client.end(true);
    const ackedAtKill = [...acked];
    expect(ackedAtKill.length).toBeGreaterThanOrEqual(40);

    server = await spawnServer(env);
    children.push(server);
    server.kill('SIGTERM');
    await exited(server);

    const check = await openDatabase({ url: url || null, dataDir });
    const { rows } = await check.raw.query<{ seq: number }>('select seq::int as seq from frame_chunks where things_id = $1', [
      thing.rows[0].id,
    ]);
    await check.close();
    const stored = new Set(rows.map((r) => r.seq));
    expect(ackedAtKill.filter((s) => !stored.has(s))).toEqual([]);
    expect(rows.length).toBe(stored.size);
  }, 240_000); // two server starts on PGlite files
});
