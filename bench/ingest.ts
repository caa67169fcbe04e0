/**
 * Ingest benchmark (`npm run bench:ingest`). Prints, from one run on one machine:
 *  - frames/s stored end to end: simulated loggers (a separate process) → embedded MQTT broker →
 *    committed chunks (each PUBACK means committed);
 *  - the database's own limit: the same batch bytes written by its fastest path (one multi-row
 *    INSERT per 32 chunks, nothing else), measured in the same run;
 *  - p50 of the first history page for one hour of a device holding 10 million frames;
 *  - time to export 1 million frames to candump.
 * PGlite files in a temp DATA_DIR by default; BENCH_DATABASE_URL=postgres://… for a server.
 * BENCH_SECONDS (default 10), BENCH_DEVICES (4), BENCH_BATCH_FRAMES (10000) tune the load;
 * BENCH_PARTS=ingest|history runs one part.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { buildApp } from '@loggerhead/server';
import { bytesCodec } from '@loggerhead/server/db/bytea.ts';
import type { RawSql } from '@loggerhead/server/db/client.ts';
import { syntheticFrames } from '@loggerhead/simulator';
import { benchConfig, benchStorage } from './src/storage.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 4);
const BATCH = Number(process.env.BENCH_BATCH_FRAMES ?? 10_000);
/** BENCH_PARTS=ingest or history (history includes the export); both by default. */
const PARTS = (process.env.BENCH_PARTS ?? 'ingest,history').split(',');
const BIN = path.resolve(import.meta.dirname, '../apps/server/bin/loggerhead.mjs');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const { dataDir, databaseUrl, cleanup } = await benchStorage('ingest');
const config = benchConfig({ dataDir, databaseUrl });
const app = await buildApp(config, { logger: false });
await app.ready();
const raw = app.ctx.database.raw;
// The fastest way this database takes bytes (binary on a server, base64 text on PGlite).
const codec = bytesCodec(app.ctx.database.kind);
console.log(
  `database: ${app.ctx.database.kind === 'pglite' ? `PGlite files in ${dataDir}` : 'PostgreSQL server'}; ${os.cpus().length} CPUs`,
);

async function device(name: string) {
  const t = await raw.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [
    `bench-${name}-${randomUUID().slice(0, 8)}`,
  ]);
  const type = await raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`);
  const id = Array.from({ length: 20 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join('');
  const th = await raw.query<{ id: string }>(
    `insert into things (tenant_id, third_things_id, name, info_model_id, things_key) values ($1,$2,$3,$4,'benchkey') returning id`,
    [t.rows[0].id, id, name, type.rows[0].id],
  );
  return { tenantId: t.rows[0].id, thingsId: th.rows[0].id, deviceId: id, key: 'benchkey' };
}

function fleet(deviceId: string, key: string, seconds: number): Promise<{ frames: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const args = [BIN, 'simulate', '--broker', `mqtt://127.0.0.1:${app.ctx.broker.port()}`, '--device', deviceId, '--key', key];
    args.push('--devices', String(DEVICES), '--rate', String(BATCH * 10), '--duration', String(seconds), '--max');
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      const m = /: (\d+) frames in \d+ batches acknowledged in ([\d.]+) s/.exec(out);
      if (code !== 0 || !m) return reject(new Error(`simulator failed (${code}): ${out}`));
      resolve({ frames: Number(m[1]), seconds: Number(m[2]) });
    });
  });
}

/** The same bytes the loggers send: batches of BATCH synthetic frames. */
function batches(n: number, t0: number, stepUs: number, size = BATCH, seq0 = 0): Uint8Array[] {
  return Array.from({ length: n }, (_, i) =>
    encodeBatch(syntheticFrames(size, t0 + i * size * stepUs, stepUs, i * size), { session: 1, seq: seq0 + i }),
  );
}

/** Fastest plain path: one multi-row INSERT of `rows` chunks per statement (autocommit). */
async function insertDirect(r: RawSql, tenantId: string, thingsId: string, data: Uint8Array[], rows = 32) {
  await app.ctx.ingest.writer.ensurePartitions(
    new Set(
      data.map((b) => {
        const i = checkBatch(b);
        if (typeof i === 'string') throw new Error(i);
        return Math.floor(i.timeStart / 86_400_000_000);
      }),
    ),
  );
  for (let s = 0; s < data.length; s += rows) {
    const params: unknown[] = [];
    const vals: string[] = [];
    for (const b of data.slice(s, s + rows)) {
      const i = checkBatch(b);
      if (typeof i === 'string') throw new Error(i);
      const p = params.length;
      vals.push(
        `($${p + 1},$${p + 2},$${p + 3},$${p + 4},$${p + 5},$${p + 6},$${p + 7},$${p + 8},$${p + 9}::int[],${codec.param(p + 10)})`,
      );
      params.push(
        tenantId,
        thingsId,
        i.timeStart,
        i.timeEnd,
        i.session,
        i.seq,
        i.count,
        i.channelMask,
        `{${i.ids.join(',')}}`,
        codec.value(b),
      );
    }
    await r.query(
      `insert into frame_chunks (tenant_id, things_id, time_start, time_end, session, seq, frame_count, channel_mask, ids, data) values ${vals.join(',')}`,
      params,
    );
  }
}

if (PARTS.includes('ingest')) {
  // 1. End to end.
  const e2eDev = await device('e2e');
  await fleet(e2eDev.deviceId, e2eDev.key, 2); // warm-up: JIT, partitions, connections
  const e2e = await fleet(e2eDev.deviceId, e2eDev.key, SECONDS);
  const e2eRate = e2e.frames / e2e.seconds;

  // 2. The database's limit for the same bytes (generated before the clock starts).
  const limDev = await device('limit');
  const limitBatches = batches(Math.max(50, Math.round((e2e.frames / BATCH) * 0.5)), Date.UTC(2026, 5, 1) * 1000, 100);
  const t1 = performance.now();
  await insertDirect(raw, limDev.tenantId, limDev.thingsId, limitBatches);
  const limitRate = (limitBatches.length * BATCH) / ((performance.now() - t1) / 1000);

  console.log('');
  console.log(
    `ingest end to end (${DEVICES} simulated loggers in another process → embedded broker → committed chunks, ${BATCH} frames/batch)`,
  );
  console.log(
    `  stored and acknowledged: ${fmt(e2eRate).padStart(12)} frames/s   (${fmt(e2e.frames)} frames in ${e2e.seconds.toFixed(1)} s)`,
  );
  console.log(`  database limit, same bytes, one multi-row INSERT per 32 chunks: ${fmt(limitRate).padStart(12)} frames/s`);
  console.log(`  ratio: ${((100 * e2eRate) / limitRate).toFixed(0)} % of the database limit   (goal: ≥ 1,000,000 frames/s and ≥ 50 %)`);
}

if (PARTS.includes('history')) {
  // 3. History: first page of one hour on a device holding 10 million frames (spread over 24 h).
  const hist = await device('history');
  const DAY0 = Date.UTC(2026, 6, 1) * 1000;
  const total = 10_000_000;
  const step = (86_400_000_000 - 1) / total;
  const t2 = performance.now();
  const HIST_BATCH = 2000; // a one-second batch of a busy logger
  for (let done = 0; done < total; done += HIST_BATCH * 100) {
    const n = Math.min(100, (total - done) / HIST_BATCH);
    await insertDirect(raw, hist.tenantId, hist.thingsId, batches(n, DAY0 + done * step, step, HIST_BATCH, done / HIST_BATCH), 64);
  }
  console.log('');
  console.log(`history: loaded ${fmt(total)} frames (chunks of ${HIST_BATCH}) in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  const auth = `Bearer ${(await app.inject({ method: 'POST', url: '/v1/control/sessions', payload: { username: 'admin', password: config.adminPassword, type: 1 } })).json().token}`;
  const hourMs = Math.floor(DAY0 / 1000) + 12 * 3_600_000;
  const times: number[] = [];
  let pageTotal = 0;
  for (let i = 0; i < 40; i++) {
    const s = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${hist.tenantId}/things/${hist.thingsId}/frames?begin_time=${hourMs + i * 60_000}&end_time=${hourMs + i * 60_000 + 3_600_000}&current_page=1&page_size=100`,
      headers: { authorization: auth },
    });
    times.push(performance.now() - s);
    if (res.statusCode !== 200) throw new Error(res.body);
    pageTotal = res.json().total;
  }
  times.sort((a, b) => a - b);
  console.log(
    `  first page (100 frames) of one hour (${fmt(pageTotal)} frames): p50 ${times[20].toFixed(1)} ms, p90 ${times[36].toFixed(1)} ms   (goal: p50 < 50 ms)`,
  );

  // 4. Export of 1 million frames to candump.
  const expEnd = Math.floor((DAY0 + 1_000_000 * step) / 1000);
  const t3 = performance.now();
  const created = await app.inject({
    method: 'POST',
    url: `/v1/data-mgmt/tenants/${hist.tenantId}/things/${hist.thingsId}/downloads`,
    headers: { authorization: auth },
    payload: { begin_time: Math.floor(DAY0 / 1000), end_time: expEnd, format: 'candump' },
  });
  const dl = created.json().id;
  let st: { status: number; output_count: number; data_bytes: number } = { status: 1, output_count: 0, data_bytes: 0 };
  while (st.status !== 3 && st.status !== 7) {
    await new Promise((r) => setTimeout(r, 20));
    st = (
      await app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${hist.tenantId}/things/${hist.thingsId}/downloads/${dl}`,
        headers: { authorization: auth },
      })
    ).json();
  }
  console.log(
    `export: ${fmt(st.output_count)} frames to candump (${fmt(st.data_bytes / 1e6)} MB) in ${((performance.now() - t3) / 1000).toFixed(2)} s   (goal: 1,000,000 frames < 5 s)`,
  );
}

await app.close();
await cleanup();
