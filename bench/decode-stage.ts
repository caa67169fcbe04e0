/**
 * Decode work per ingested frame (`npm run bench:decode-stage`): frames of a real opendbc DBC go
 * through the ingest's commit (chunk writer), then through everything that follows a commit —
 * decode-on-ingest (samples stored), trigger rules (8 on DBC signals, 4 on raw bytes) — and every
 * `DbcDecoder.decodeInto` call of the process is counted. Three devices, one app:
 *
 *   - parsing started, rules on its signals (the common case);
 *   - parsing paused, the same rules (decoded for the rules only);
 *   - parsing started, no rules.
 *
 * The peer, in the same run: one plain `decodeInto` per frame of a DBC message, the least any
 * consumer of decoded values pays. CPU ms is the process's CPU time for the whole path (commit,
 * sample writes, rule evaluation and dispatch), so it moves with the database; the decode count does not.
 * PGlite files in a temp DATA_DIR; BENCH_DATABASE_URL=postgres://… for a server.
 *
 *   npm run bench:decode-stage [-- --seconds 10 --dbc FILE]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type CanFrame, compileDbc, DbcDecoder, makeFrame, parseDbc } from '@loggerhead/can';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { buildApp } from '@loggerhead/server';
import { hashPassword } from '@loggerhead/server/lib/passwords.ts';
import { alertsOf } from '@loggerhead/server/modules/alert/alert.module.ts';
import { benchConfig, benchStorage } from './src/storage.ts';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, dbc: { type: 'string' } } });
const SECONDS = Number(args.seconds);
const opendbc = process.env.OPENDBC_DIR ?? path.resolve(fileURLToPath(import.meta.url), '../../../shared/data/opendbc');
const dbcPath = args.dbc ?? path.resolve(opendbc, 'toyota_nodsu_pt_generated.dbc');
const dbcText = fs.readFileSync(dbcPath, 'utf8');
const parsed = parseDbc(dbcText);
if (!parsed.ok) throw new Error(`${dbcPath}: ${parsed.error.reason}`);
const dbc = compileDbc(parsed.dbc);

// Every decode of the process, whoever asks for it.
let decodes = 0;
const decodeInto = DbcDecoder.prototype.decodeInto;
DbcDecoder.prototype.decodeInto = function (this: DbcDecoder, ...a: Parameters<DbcDecoder['decodeInto']>) {
  decodes++;
  return decodeInto.apply(this, a);
};

let seed = 0x1f123bb5;
const rnd = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};

// Traffic as bench/rules.ts: each classic message on two channels at its cycle time, payloads drifting.
const messages = dbc.messages.filter((m) => m.message.length > 0 && m.message.length <= 8);
const T0 = Date.UTC(2026, 0, 5) * 1000;
const frames: CanFrame[] = [];
for (const channel of [0, 1]) {
  for (const m of messages) {
    const cycleMs = m.message.cycleTime ?? [10, 10, 20, 20, 50, 100, 100, 200, 1000][rnd() % 9];
    const cycleUs = Math.max(10, cycleMs) * 1000;
    const data = new Uint8Array(m.message.length).map(() => rnd() & 0xff);
    for (let ts = T0 + (rnd() % cycleUs); ts < T0 + SECONDS * 1e6; ts += cycleUs) {
      const i = rnd() % data.length;
      data[i] = (data[i] + (rnd() % 5) - 2) & 0xff;
      frames.push(makeFrame({ ts, channel, id: m.id, ext: m.ext, data: data.slice() }));
    }
  }
}
frames.sort((a, b) => a.ts - b.ts);
const N = frames.length;
/** 200 ms batches, as a logger sends them. */
function batches(seq0: number) {
  const out: Uint8Array[] = [];
  for (let i = 0, seq = seq0; i < frames.length; seq++) {
    const end = frames[i].ts + 200_000;
    let j = i;
    while (j < frames.length && frames[j].ts < end) j++;
    out.push(encodeBatch(frames.slice(i, j), { session: 1, seq }));
    i = j;
  }
  return out;
}

// The app, on PGlite files or a fresh database of a PostgreSQL server.
const { dataDir, databaseUrl, cleanup } = await benchStorage('decode');
const app = await buildApp(benchConfig({ dataDir, databaseUrl }), { logger: false });
await app.ready();
const raw = app.ctx.database.raw;

async function call(method: 'POST' | 'PUT', url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({ method, url, headers: { authorization: auth, ...headers }, payload: payload as string });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const name = `bench${randomUUID().slice(0, 8)}`;
const tenantId = (await raw.query<{ id: string }>('insert into tenants (name) values ($1) returning id', [name])).rows[0].id;
await raw.query(`insert into users (tenant_id, username, name, password_hash, is_manager) values ($1,$2,$2,$3,true)`, [
  tenantId,
  name,
  await hashPassword('Bench-Pass-123'),
]);
await raw.query(
  'insert into tenant_packages (tenant_id, things_num, can_things_num, rule_capacity) values ($1, 100, null, 100) on conflict (tenant_id) do update set rule_capacity = 100',
  [tenantId],
);
let auth = '';
{
  const res = await app.inject({
    method: 'POST',
    url: '/v1/control/sessions',
    payload: { username: name, password: 'Bench-Pass-123', type: 1 },
  });
  auth = `Bearer ${res.json().token}`;
}
const boundary = '----lhbench';
const dbcFile = await call(
  'POST',
  `/v1/mapping-mgmt/tenants/${tenantId}/dbc-files`,
  Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(dbcPath)}"\r\n\r\n`),
    Buffer.from(dbcText),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]),
  { 'content-type': `multipart/form-data; boundary=${boundary}` },
);
const type = (await raw.query<{ id: string }>(`select id from device_types where tenant_id is null and name = 'CANDTU-200'`)).rows[0].id;

// Rules as bench/rules.ts picks them: signals of the busiest messages, raw bytes of others.
const byRate = [...messages].sort((a, b) => (a.message.cycleTime ?? 100) - (b.message.cycleTime ?? 100) || a.id - b.id);
const withSignals = byRate.filter((m) => m.message.signals.some((s) => s.valueType === 'integer' && !s.multiplexer));
/** Frames of a message some signal rule watches (on that rule's channel). */
const watchedKeys = new Set(Array.from({ length: 8 }, (_, i) => `${i % 2}/${withSignals[(i * 3) % withSignals.length].id}`));
const W = frames.filter((f) => watchedKeys.has(`${f.channel}/${f.id}`)).length;
async function device(label: string, state: 'started' | 'paused', rules: boolean) {
  const id = Array.from({ length: 20 }, () => '0123456789ABCDEF'[rnd() % 16]).join('');
  const d = await call('POST', `/v1/things/tenants/${tenantId}/things`, { third_things_id: id, name: label, info_model_id: type });
  for (const channel of [0, 1])
    await call('PUT', `/v1/mapping-mgmt/tenants/${tenantId}/things/${d.id}/channels/${channel}/dbc-binding`, { dbc_id: dbcFile.id, state });
  if (rules) {
    for (let i = 0; i < 8; i++) {
      const m = withSignals[(i * 3) % withSignals.length];
      const s = m.message.signals.find((x) => x.valueType === 'integer' && !x.multiplexer) ?? m.message.signals[0];
      await call('POST', `/v1/alert-mgmt/tenants/${tenantId}/trigger-rules`, {
        things_id: d.id,
        name: `${label}: signal ${i}`,
        data_type: 'signal',
        channel: i % 2,
        conditions: [{ source: 'signal', message: m.name, signal: s.name, op: '>', value: (s.min + s.max) / 2 }],
      });
    }
    for (let i = 0; i < 4; i++) {
      const m = byRate[i];
      await call('POST', `/v1/alert-mgmt/tenants/${tenantId}/trigger-rules`, {
        things_id: d.id,
        name: `${label}: raw ${i}`,
        channel: i % 2,
        frame_format: m.ext ? 'extended' : 'standard',
        frame_id: m.id,
        conditions: [{ start_byte: 0, op: '>', value: 200 }],
      });
    }
  }
  return d.id as string;
}

function cpu() {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

const rows: { name: string; decodes: number; ms: number; watched: boolean }[] = [];
{
  // The peer: one decode per frame of a DBC message, nothing else.
  const out = new Float64Array(dbc.maxSignals);
  const d0 = decodes;
  const c0 = cpu();
  for (const f of frames) dbc.decodeInto(f.id, f.ext, f.data, out);
  rows.push({ name: 'peer: one decodeInto per frame', decodes: decodes - d0, ms: cpu() - c0, watched: false });
}
let seq = 0;
for (const [label, state, rules] of [
  ['started, 8 signal + 4 raw rules', 'started', true],
  ['paused, 8 signal + 4 raw rules', 'paused', true],
  ['started, no rules', 'started', false],
] as const) {
  const thingsId = await device(label, state, rules);
  const list = batches(seq + 1);
  seq += list.length;
  const d0 = decodes;
  const c0 = cpu();
  for (const data of list) {
    const info = checkBatch(data);
    if (typeof info === 'string') throw new Error(info);
    await app.ctx.ingest.writer.write({ tenantId, thingsId, info, data });
  }
  await app.ctx.signals.idle();
  await alertsOf(app).idle();
  rows.push({ name: label, decodes: decodes - d0, ms: cpu() - c0, watched: rules });
}
const events = await raw.query<{ n: number }>('select count(*)::int as n from alert_events where tenant_id = $1', [tenantId]);

console.log(
  `\nDecode work per ingested frame — ${N.toLocaleString('en')} frames (${SECONDS} s of ${messages.length} messages × 2 channels from ${path.basename(dbcPath)}), 200 ms batches; ${app.ctx.database.kind}; ${events.rows[0].n} alert events\n`,
);
console.log(`| path | decodeInto calls | per frame | per frame of a watched message (${W.toLocaleString('en')}) | CPU ms |`);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  // Frames of watched messages are decoded by whatever decodes the others, plus any second decode.
  const extra = r.watched ? ((r.decodes - (r.name.startsWith('paused') ? 0 : N - W)) / W).toFixed(2) : '';
  console.log(`| ${r.name} | ${r.decodes.toLocaleString('en')} | ${(r.decodes / N).toFixed(2)} | ${extra} | ${r.ms.toFixed(0)} |`);
}
console.log('\nCPU ms: the whole path after the commit (sample writes, rules, dispatch); the database dominates it.');

await app.close();
await cleanup();
