/**
 * Forwarding benchmark (`npm run bench:forward`). In one run on one machine:
 *  1. ingest with DBC decoding and no forwarding rule: simulated loggers (a separate process) →
 *     embedded MQTT broker → committed chunks → decoded signals; frames/s acknowledged;
 *  2. the same load with two rules forwarding every decoded signal, one to a local HTTP receiver and
 *     one to Mosquitto (MQTT_URL, default mqtt://127.0.0.1:1883); frames/s acknowledged, and the
 *     messages (and signal samples) each destination received per second until the outbox is empty.
 * Goal (docs/decisions/0126-forwarding-delivery.md): forwarding costs ingest less than 20 %.
 * PGlite files in a temp DATA_DIR by default; BENCH_DATABASE_URL=postgres://… for a server.
 * BENCH_SECONDS (default 10), BENCH_DEVICES (4), BENCH_BATCH_FRAMES (1000), BENCH_ROUNDS (2: the
 * two phases alternate, so that a machine's drift falls on both) tune the load.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@loggerhead/server';
import { parseEgressAllow } from '@loggerhead/server/lib/egress.ts';
import { hashPassword } from '@loggerhead/server/lib/passwords.ts';
import mqtt from 'mqtt';
import { benchConfig, benchStorage } from './src/storage.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 4);
const BATCH = Number(process.env.BENCH_BATCH_FRAMES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MOSQUITTO = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const BIN = path.resolve(import.meta.dirname, '../apps/server/bin/loggerhead.mjs');
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const { dataDir, databaseUrl, cleanup } = await benchStorage('fwd');
// The receiver and Mosquitto listen on this machine: the egress policy opens their address.
const config = benchConfig(
  { dataDir, databaseUrl },
  { scheduler: false, egressAllow: parseEgressAllow(['127.0.0.1', new URL(MOSQUITTO).hostname].join(',')) },
);
const app = await buildApp(config, { logger: false });
await app.ready();
const raw = app.ctx.database.raw;
console.log(
  `database: ${app.ctx.database.kind === 'pglite' ? `PGlite files in ${dataDir}` : 'PostgreSQL server'}; ${os.cpus().length} CPUs`,
);

// A tenant, its manager, one device with a DBC decoding every frame the simulator sends.
const tenantName = `benchfwd${randomUUID().slice(0, 8)}`;
const tenantId = (await raw.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [tenantName])).rows[0].id;
await raw.query(`insert into users (tenant_id, username, name, password_hash, is_manager) values ($1, $2, $2, $3, true)`, [
  tenantId,
  tenantName,
  await hashPassword('Bench-Manager-123'),
]);
const login = await app.inject({
  method: 'POST',
  url: '/v1/control/sessions',
  payload: { username: tenantName, password: 'Bench-Manager-123', type: 1 },
});
if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
const auth = `Bearer ${login.json().token}`;
const api = async (method: 'POST' | 'PUT', url: string, payload: object | Buffer, headers: Record<string, string> = {}) => {
  const res = await app.inject({ method, url: `/v1${url}`, headers: { authorization: auth, ...headers }, payload });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
};
const type = await raw.query<{ id: string }>(`select id from device_types where name = 'CANDTU-200'`);
const deviceId = Array.from({ length: 20 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join('');
const thingsId = (
  await raw.query<{ id: string }>(
    `insert into things (tenant_id, third_things_id, name, info_model_id, things_key) values ($1,$2,'bench',$3,'benchkey') returning id`,
    [tenantId, deviceId, type.rows[0].id],
  )
).rows[0].id;

// The simulator's frames carry ids 0x100 … 0x13F: a message for each, two 16-bit signals.
let dbc = 'VERSION ""\n\nNS_ :\n\nBS_:\n\nBU_: ECU\n\n';
for (let i = 0; i < 64; i++) {
  dbc += `BO_ ${0x100 + i} M${i}: 8 ECU\n SG_ A${i} : 0|16@1+ (0.1,0) [0|6553.5] "km/h" ECU\n SG_ B${i} : 16|16@1+ (1,-100) [-100|65435] "" ECU\n\n`;
}
const boundary = 'lhbenchboundary';
const body = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.dbc"\r\nContent-Type: application/octet-stream\r\n\r\n${dbc}\r\n--${boundary}--\r\n`,
);
const dbcId = (
  await api('POST', `/mapping-mgmt/tenants/${tenantId}/dbc-files`, body, { 'content-type': `multipart/form-data; boundary=${boundary}` })
).id;
for (const ch of [0, 1])
  await api('PUT', `/mapping-mgmt/tenants/${tenantId}/things/${thingsId}/channels/${ch}/dbc-binding`, { dbc_id: dbcId });

// The destinations: a local HTTP receiver and a subscriber on Mosquitto, each counting what arrives.
const got = { http: { messages: 0, samples: 0, last: 0 }, mqtt: { messages: 0, samples: 0, last: 0 } };
const samplesOf = (m: { data?: { signals?: { values: unknown[] }[] } }) => (m.data?.signals ?? []).reduce((n, s) => n + s.values.length, 0);
const receiver = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', () => {
    const { messages } = JSON.parse(Buffer.concat(parts).toString()) as { messages: { data?: { signals?: { values: unknown[] }[] } }[] };
    got.http.messages += messages.length;
    for (const m of messages) got.http.samples += samplesOf(m);
    got.http.last = performance.now();
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const topic = `bench/${tenantId}`;
const sub = await mqtt.connectAsync(MOSQUITTO, { clientId: `lh-bench-${process.pid}`, clean: true });
await sub.subscribeAsync(`${topic}/#`, { qos: 1 });
sub.on('message', (_t, payload) => {
  got.mqtt.messages++;
  got.mqtt.samples += samplesOf(JSON.parse(payload.toString()));
  got.mqtt.last = performance.now();
});

function fleet(seconds: number): Promise<{ frames: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const args = [BIN, 'simulate', '--broker', `mqtt://127.0.0.1:${app.ctx.broker.port()}`, '--device', deviceId, '--key', 'benchkey'];
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

const rules: string[] = [];
async function setRules(on: boolean) {
  if (on && !rules.length) {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    for (const destination of [
      { kind: 'http', url },
      { kind: 'mqtt', url: MOSQUITTO, topic: `${topic}/{things_id}/{kind}`, qos: 1 },
    ]) {
      rules.push(
        (
          await api('POST', `/alert-mgmt/tenants/${tenantId}/things-forward-rules`, {
            name: `bench ${destination.kind}`,
            data_kinds: ['signals'],
            destination,
          })
        ).id,
      );
    }
    return;
  }
  for (const id of rules)
    await api('PUT', `/alert-mgmt/tenants/${tenantId}/things-forward-rules/${id}/status/${on ? 'enable' : 'disable'}`, {});
}

/** Waits until the forwarding outbox is empty (and what is queued was delivered), at most 5 minutes. */
async function drained(): Promise<void> {
  const until = Date.now() + 300_000;
  for (;;) {
    await app.ctx.signals.decodeIdle();
    const { rows } = await raw.query<{ n: number }>('select count(*)::int as n from forward_outbox where rule_id = any($1::uuid[])', [
      rules,
    ]);
    if (rows[0].n === 0) return;
    if (Date.now() > until) throw new Error(`forwarding did not drain: ${rows[0].n} messages waiting`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

await fleet(2); // warm-up: JIT, partitions, connections, decoder
await app.ctx.signals.decodeIdle();
const plain: number[] = [];
const forwarded: number[] = [];
const delivery: { seconds: number; http: typeof got.http; mqtt: typeof got.mqtt }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  await setRules(false);
  const a = await fleet(SECONDS);
  await app.ctx.signals.decodeIdle();
  plain.push(a.frames / a.seconds);

  await setRules(true);
  const before = { http: { ...got.http }, mqtt: { ...got.mqtt } };
  const t0 = performance.now();
  const b = await fleet(SECONDS);
  forwarded.push(b.frames / b.seconds);
  await drained();
  // Both destinations acknowledged: wait for the last MQTT deliveries to reach the subscriber.
  await new Promise((r) => setTimeout(r, 500));
  const end = Math.max(got.http.last, got.mqtt.last);
  delivery.push({
    seconds: (end - t0) / 1000,
    http: { messages: got.http.messages - before.http.messages, samples: got.http.samples - before.http.samples, last: 0 },
    mqtt: { messages: got.mqtt.messages - before.mqtt.messages, samples: got.mqtt.samples - before.mqtt.samples, last: 0 },
  });
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const plainRate = mean(plain);
const fwdRate = mean(forwarded);
const secs = delivery.reduce((s, d) => s + d.seconds, 0);
const sum = (k: 'http' | 'mqtt', f: 'messages' | 'samples') => delivery.reduce((s, d) => s + d[k][f], 0);
console.log('');
console.log(
  `ingest with decoding (${DEVICES} simulated loggers in another process → embedded broker → committed chunks, ${BATCH} frames/batch, 128 signals), ${ROUNDS} × ${SECONDS} s each way`,
);
console.log(`  without forwarding:               ${fmt(plainRate).padStart(12)} frames/s   (${plain.map(fmt).join(', ')})`);
console.log(`  forwarding to HTTP and Mosquitto: ${fmt(fwdRate).padStart(12)} frames/s   (${forwarded.map(fmt).join(', ')})`);
console.log(`  forwarding costs ingest ${(100 * (1 - fwdRate / plainRate)).toFixed(1)} %   (goal: < 20 %)`);
for (const k of ['http', 'mqtt'] as const) {
  console.log(
    `  delivered to ${k === 'http' ? 'HTTP receiver' : 'Mosquitto    '}: ${(sum(k, 'messages') / secs).toFixed(2).padStart(8)} messages/s, ${fmt(sum(k, 'samples') / secs).padStart(10)} signal samples/s   (${fmt(sum(k, 'messages'))} messages, from the first frame to the last delivery: ${secs.toFixed(1)} s)`,
  );
}

await sub.endAsync();
receiver.close();
await app.close();
await cleanup();
