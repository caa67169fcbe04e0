/**
 * Curve benchmark: one signal sampled at 100 Hz for 30 days (259.2 million samples), stored with
 * the writer the ingest uses (per-minute raw chunks + 1 s / 1 min roll-ups), then a full-range
 * 2000-pixel curve and 10-minute zooms timed through the API (server time: routing, auth, query,
 * bucketing, serialisation) and through the service alone.
 *
 * Peer, same run: the same curves from a one-row-per-sample table with `group by width_bucket`,
 * the textbook schema. The full-range peer runs over a slice (BENCH_FLAT_HOURS, default 6 h) and is
 * scaled linearly to 30 days; the 10-minute zoom peer is measured as is.
 *
 *   npm run bench:curve                       # PGlite in memory
 *   DATABASE_URL=postgres://… npm run bench:curve   # a scratch database on that server, dropped after
 *   BENCH_DAYS=3 npm run bench:curve          # a shorter run
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@loggerhead/server';
import { loadConfig } from '@loggerhead/server/config.ts';
import { type Database, openDatabase } from '@loggerhead/server/db/client.ts';
import type { Auth } from '@loggerhead/server/lib/auth.ts';
import { writeSamples } from '@loggerhead/server/modules/signals/signals.writer.ts';
import pg from 'pg';

const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const FLAT_HOURS = Number(process.env.BENCH_FLAT_HOURS ?? 6);
const HZ = 100;
const WIDTH = 2000;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const T0 = Date.UTC(2026, 0, 1) * 1000; // µs
const STEP = 1_000_000 / HZ;
const TOTAL = DAYS * 86_400 * HZ;
const PASSWORD = 'Bench-Admin-1234';

/** The signal: a vehicle speed-like sine (period 10 min) with ±1 LSB noise, 16-bit raw × 0.01. */
const FACTOR = 0.01;
let seed = 12345;
const noise = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return ((seed >>> 16) % 3) - 1;
};
const rawAt = (i: number) => Math.round(6000 + 4000 * Math.sin((2 * Math.PI * i) / (600 * HZ))) + noise();

async function scratchDatabase(): Promise<{ database: Database; drop: () => Promise<void>; where: string }> {
  const server = process.env.DATABASE_URL;
  if (!server)
    return { database: await openDatabase({ url: 'memory://', dataDir: os.tmpdir() }), drop: async () => {}, where: 'PGlite (in memory)' };
  const name = `lh_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), dataDir: os.tmpdir() });
  return {
    database,
    where: `PostgreSQL ${u.host}`,
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

/** CPU time of this process per run (ms), beside wall time: on a shared, loaded machine wall time
 * mostly measures waiting for a core; with PGlite the database runs in this process, so CPU time
 * is the query's own cost. */
const cpu = new Map<number[], number[]>();

async function time(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  await fn(); // warm-up
  const out: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  cpu.set(out, cpus);
  return out;
}
const cpuP50 = (wall: number[]) => fmt(pct(cpu.get(wall) ?? [0], 50));

async function main() {
  const { database, drop, where } = await scratchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-bench-'));
  const config = {
    ...loadConfig({}, dataDir),
    port: 0,
    mqttPort: 0,
    host: '127.0.0.1',
    webDir: null,
    logLevel: 'silent' as const,
    adminPassword: PASSWORD,
    experience: false,
  };
  const app = await buildApp(config, { database, logger: false });
  await app.ready();
  const raw = database.raw;
  try {
    const tenantId = (await raw.query<{ id: string }>("insert into tenants (name) values ('bench') returning id")).rows[0].id;
    const type = (await raw.query<{ id: string }>("select id from device_types where tenant_id is null and name = 'CANDTU-200'")).rows[0]
      .id;
    const thingsId = (
      await raw.query<{ id: string }>(
        `insert into things (tenant_id, third_things_id, name, info_model_id, things_key) values ($1, 'BE0C0000000000000001', 'bench', $2, 'k') returning id`,
        [tenantId, type],
      )
    ).rows[0].id;
    const seriesId = Number(
      (
        await raw.query<{ id: number }>(
          `insert into signal_series (tenant_id, things_id, channel, message, signal, unit) values ($1, $2, 0, 'SPEED', 'SPEED', 'km/h') returning id`,
          [tenantId, thingsId],
        )
      ).rows[0].id,
    );

    console.log(`curve bench: 1 signal at ${HZ} Hz for ${DAYS} days = ${TOTAL.toLocaleString('en')} samples, on ${where}`);
    // Generation: an hour at a time through the ingest's writer.
    const perCall = 3600 * HZ;
    const ts = new Float64Array(perCall);
    const values = new Float64Array(perCall);
    const g0 = performance.now();
    for (let start = 0; start < TOTAL; start += perCall) {
      const n = Math.min(perCall, TOTAL - start);
      for (let i = 0; i < n; i++) {
        ts[i] = T0 + (start + i) * STEP;
        values[i] = rawAt(start + i) * FACTOR;
      }
      await writeSamples(raw, [{ seriesId, ts, values, n, factor: FACTOR, offset: 0 }]);
      if ((start / perCall) % 24 === 23) process.stdout.write(`\r  generated ${((start + n) / 86_400 / HZ).toFixed(0)} / ${DAYS} days`);
    }
    const genS = (performance.now() - g0) / 1000;
    const sizes = (
      await raw.query<{ chunks: number; rollups: number; n: number; rows: number }>(
        `select pg_total_relation_size('signal_chunks')::float8 as chunks, pg_total_relation_size('signal_rollups')::float8 as rollups,
                (select samples from signal_series where id = $1)::float8 as n, (select count(*) from signal_chunks)::float8 as rows`,
        [seriesId],
      )
    ).rows[0];
    console.log(`\r  generated in ${genS.toFixed(1)} s (${(TOTAL / genS / 1e6).toFixed(1)} M samples/s)`);
    console.log(
      `  stored: ${Number(sizes.n).toLocaleString('en')} samples in ${Number(sizes.rows).toLocaleString('en')} chunks, raw ${mb(sizes.chunks)} + roll-ups ${mb(sizes.rollups)} on disk (${((sizes.chunks + sizes.rollups) / TOTAL).toFixed(2)} bytes/sample)`,
    );

    // Peer: one row per sample for a slice, filled by the database itself.
    const flatN = Math.min(TOTAL, FLAT_HOURS * 3600 * HZ);
    const f0 = performance.now();
    await raw.exec('create table bench_flat (series_id bigint not null, ts bigint not null, v float8 not null)');
    await raw.query(
      `insert into bench_flat select 1, $1::bigint + g * $2::bigint, round(6000 + 4000 * sin(2 * pi() * g / $3)) * $4
         from generate_series(0, $5::bigint - 1) g`,
      [T0, STEP, 600 * HZ, FACTOR, flatN],
    );
    await raw.exec('create index bench_flat_idx on bench_flat (series_id, ts); analyze bench_flat');
    console.log(
      `  peer table: ${flatN.toLocaleString('en')} rows (${FLAT_HOURS} h) loaded in ${((performance.now() - f0) / 1000).toFixed(1)} s`,
    );

    const auth: Auth = {
      userId: '00000000-0000-0000-0000-000000000000',
      tenantId,
      username: 'bench',
      sessionId: 'bench',
      isManager: true,
      systemManager: false,
      grants: null,
      readOnly: false,
    };
    const login = await app.inject({
      method: 'POST',
      url: '/v1/control/sessions',
      payload: { username: 'admin', password: PASSWORD, type: 1 },
    });
    const bearer = `Bearer ${login.json().token}`;
    const endMs = (T0 + TOTAL * STEP) / 1000;
    const beginMs = T0 / 1000;
    // Timed: the request up to the serialised body. Parsing the body (the client's work) is not.
    const request = async (b: number, e: number) => {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${tenantId}/things/${thingsId}/signals/curve?signal=SPEED.SPEED&begin_time=${b}&end_time=${e}&width=${WIDTH}`,
        headers: { authorization: bearer },
      });
      if (res.statusCode !== 200) throw new Error(res.body);
      return res;
    };
    const http = async (b: number, e: number) => {
      const c = (await request(b, e)).json() as { t: number[]; level: string };
      if (c.t.length > WIDTH) throw new Error('more points than pixels');
      return c;
    };
    const service = (b: number, e: number) =>
      app.ctx.signals.query.curve(auth, thingsId, { signal: 'SPEED.SPEED', begin_time: b, end_time: e, width: WIDTH });
    let zs = 7;
    const rand = () => {
      zs = (Math.imul(zs, 1103515245) + 12345) >>> 0;
      return (zs >>> 8) / 2 ** 24;
    };
    // Zooms land anywhere in the month, so no run reads what the previous one left in cache.
    const zoomStart = () => beginMs + Math.floor(rand() * (endMs - beginMs - 600_000));
    const flat = (bUs: number, eUs: number) =>
      raw.query(
        `select width_bucket(ts, $2::bigint, $3::bigint, ${WIDTH}) as b, min(v), max(v), avg(v), count(*) from bench_flat
          where series_id = $1 and ts >= $2 and ts < $3 group by b order by b`,
        [1, bUs, eUs],
      );

    const full = await http(beginMs, endMs);
    const fullHttp = await time(() => request(beginMs, endMs), RUNS);
    const fullSvc = await time(() => service(beginMs, endMs), RUNS);
    const z = await http(beginMs + 3_600_000, beginMs + 4_200_000);
    for (let i = 0; i < 5; i++) {
      const b = zoomStart();
      await http(b, b + 600_000); // checked: never more points than pixels
    }
    const zoomHttp = await time(() => {
      const b = zoomStart();
      return request(b, b + 600_000);
    }, RUNS);
    const zoomSvc = await time(() => {
      const b = zoomStart();
      return service(b, b + 600_000);
    }, RUNS);
    // The fixed cost of any authenticated request (token, session, routing) on a trivial route, for scale.
    const baseline = await time(async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${tenantId}/things/${thingsId}/signals`,
        headers: { authorization: bearer },
      });
      if (res.statusCode !== 200) throw new Error(res.body);
    }, RUNS);
    const flatEndUs = T0 + flatN * STEP;
    const flatFull = await time(() => flat(T0, flatEndUs), Math.min(RUNS, 5));
    const flatZoom = await time(() => {
      const b = T0 + Math.floor(rand() * Math.max(0, flatN * STEP - 600_000_000));
      return flat(b, b + 600_000_000);
    }, RUNS);
    const scale = TOTAL / flatN;

    console.log('');
    console.log(
      `query (p50 / p95, ${RUNS} runs)            chunked + roll-ups (API | service)          one row per sample, group by width_bucket`,
    );
    console.log(
      `full ${DAYS} d, ${WIDTH} px [${full.level}, ${full.t.length} pts]`.padEnd(42) +
        `${fmt(pct(fullHttp, 50))} / ${fmt(pct(fullHttp, 95))} | ${fmt(pct(fullSvc, 50))}`.padEnd(44) +
        `${fmt(pct(flatFull, 50))} for ${FLAT_HOURS} h → ≈ ${fmt(pct(flatFull, 50) * scale)} scaled ×${scale.toFixed(0)} to ${DAYS} d`,
    );
    console.log(
      `10-min zoom, ${WIDTH} px [${z.level}, ${z.t.length} pts]`.padEnd(42) +
        `${fmt(pct(zoomHttp, 50))} / ${fmt(pct(zoomHttp, 95))} | ${fmt(pct(zoomSvc, 50))}`.padEnd(44) +
        `${fmt(pct(flatZoom, 50))} (60,000 rows by index)`,
    );
    console.log(
      `CPU time p50 (this process${process.env.DATABASE_URL ? ', the server not included' : ', PGlite included'}): full ${cpuP50(fullHttp)} API | ${cpuP50(fullSvc)} service, peer ${cpuP50(flatFull)} for ${FLAT_HOURS} h; zoom ${cpuP50(zoomHttp)} API | ${cpuP50(zoomSvc)} service, peer ${cpuP50(flatZoom)}`,
    );
    console.log(
      `any authenticated request (GET …/signals, one small query): ${fmt(pct(baseline, 50))} p50 — included in the API figures above`,
    );
    console.log(
      `load average while measuring: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
    );
    const okFull = pct(fullHttp, 50) < 100;
    const okZoom = pct(zoomHttp, 50) < 50;
    console.log(`targets: full range < 100 ms ${okFull ? 'PASS' : 'FAIL'}, 10-min zoom < 50 ms ${okZoom ? 'PASS' : 'FAIL'} (API p50)`);
    if (!okFull || !okZoom) process.exitCode = 1;
  } finally {
    await app.close();
    await database.close().catch(() => {});
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
