import fs from 'node:fs';
import type { CanFrame } from '@loggerhead/can';
import type { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { remoteDevice } from './command.helpers.ts';
import { crashable, startCopy } from './crash.helpers.ts';
import { createTestApp, openTestDatabase, type TestApp, testConfig } from './helper.ts';
import { poll } from './poll.ts';
import { bind, ingestFrames, rampFrame, testDbc } from './signals.fixtures.ts';
import { MEAN_MAX_SCRIPT, type TestRunDto, testApi } from './testmgmt.helpers.ts';
import { grantDevice, makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Test runs on a simulated logger, end to end: a routine sends a CAN frame through the device, collects
 * a few seconds of its frames, and a real Groovy script computes the mean and maximum of a DBC signal;
 * the report's numbers equal the same computation done here over the frames the device sent. Also the
 * live states, dry runs over history, the one-test-per-device queue, cancelling, what sub-users see,
 * and a run that survives its server's crash.
 */

const groovy = () => ({ ...testConfig().groovy, workers: 1 });

let t: TestApp;
let a: TenantFixture;
let port: number;
let dbcId: string;

beforeAll(async () => {
  t = await createTestApp({ groovy: groovy() });
  a = await makeTenant(t);
  dbcId = await testDbc(t, a);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t?.close();
});

/** TEST_DBC's RAMP.Value of a raw value: raw × 0.5 − 10 (the DBC's factor and offset). */
const physical = (raw: number) => raw * 0.5 - 10;

/** A device with TEST_DBC bound to channel 0 and its simulated logger, connected. */
async function loggerWithDbc(tenant: TenantFixture): Promise<{ id: string; sim: RemoteDevice }> {
  const { d, sim } = await remoteDevice(t, tenant);
  const b = await bind(t, tenant, d.id, 0, { dbc_id: dbcId });
  if (b.statusCode !== 200) throw new Error(`bind: ${b.statusCode} ${b.body}`);
  await sim.connect();
  return { id: d.id, sim };
}

/** The run's states as the live socket pushes them. */
function watch(tenant: TenantFixture, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/live?token=${token}`);
  ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', id: 'runs', kind: 'test-runs', tenant_id: tenant.tenantId })));
  const runs: TestRunDto[] = [];
  const ready = new Promise<void>((resolve) => {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.t === 'subscribed') resolve();
      if (m.t === 'run') runs.push(m.run);
    });
  });
  return { ws, runs, ready, states: (id: string) => runs.filter((r) => r.id === id).map((r) => r.state) };
}

describe('a routine on a simulated logger', () => {
  it('sends a frame, collects, analyses with Groovy; the report equals a computation over the same frames', async () => {
    const api = testApi(t, a);
    const { id: thingsId, sim } = await loggerWithDbc(a);
    const live = watch(a, a.auth.slice(7));
    await live.ready;
    try {
      const script = await api.script('mean and max', MEAN_MAX_SCRIPT);
      const routine = await api.routine({
        name: 'ramp check',
        steps: [
          { type: 'send_can', params: { frames: [{ channel: 0, id: '0x321', data: 'DEADBEEF' }] } },
          { type: 'collect', seconds: 3, channels: [0], ids: [0x100], signals: ['Value'] },
        ],
        script_id: script.id,
        params: { limit: 1000 },
      });
      const [run] = await api.start({ routine_id: routine.id, things_ids: [thingsId] });

      // While it collects, the logger sends 40 RAMP frames (and one of another id, which the routine does not collect).
      await api.until(run.id, (r) => r.state === 'collecting' || r.state === 'failed', 20_000);
      const raws = Array.from({ length: 40 }, (_, i) => (i * 37 + 11) % 500);
      const t0 = Date.now() * 1000;
      const sent: CanFrame[] = raws.map((raw, i) => rampFrame(t0 + i * 10_000, raw, 0, i));
      sent.push({ ...rampFrame(t0 + 5000, 1, 0), id: 0x200 });
      sent.sort((x, y) => x.ts - y.ts);
      await sim.device.sendBatch(sent);

      const done = await api.finished(run.id);
      expect(done, JSON.stringify(done)).toMatchObject({ state: 'analyzed', verdict: 'pass', progress: 100, reason: null });
      expect(sim.bus.sent.map((f) => [f.id, Buffer.from(f.data).toString('hex')])).toEqual([[0x321, 'deadbeef']]);

      // The same computation, here, over the frames the logger sent.
      const values = raws.map(physical);
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      const max = Math.max(...values);
      const report = await api.report(run.id);
      expect(report.metrics).toEqual([
        { name: 'mean', value: mean, unit: 'km/h' },
        { name: 'max', value: max, unit: 'km/h' },
        { name: 'frames', value: 40, unit: null },
      ]);
      expect(report.checks).toEqual([{ name: 'max below limit', passed: true }]);
      expect(report.tables[0]).toEqual({
        name: 'first samples',
        columns: ['time', 'value'],
        rows: values.slice(0, 3).map((v, i) => [(t0 + i * 10_000 - done.windows[0].from * 1000) / 1e6, v]),
      });
      expect(report.charts).toHaveLength(1);
      expect(report.charts[0]).toMatchObject({ signal: 'Value', message: 'RAMP', values });
      expect(report.charts[0].times).toEqual(raws.map((_, i) => (t0 + i * 10_000) / 1000));
      expect(report.log).toContain('analysed 40 samples of RAMP.Value');
      expect(report).toMatchObject({ frames: 40, script_version: 1, params: { limit: 1000 }, error: null });

      // Live: the states in order, from the socket.
      await poll(
        async () => live.states(run.id),
        (s) => s.includes('analyzed'),
        { ms: 5000 },
      );
      const seen = [...new Set(live.states(run.id))];
      expect(seen.filter((s) => s !== 'queued')).toEqual(['sending', 'collecting', 'analyzing', 'analyzed']);

      // A dry run over the stored window with a lower limit: same numbers, verdict fail.
      const [dry] = await api.start({
        routine_id: routine.id,
        things_ids: [thingsId],
        dry_run: { begin_time: done.windows[0].from, end_time: done.windows[0].to },
        params: { limit: 100 },
      });
      const dryDone = await api.finished(dry.id);
      expect(dryDone).toMatchObject({ state: 'analyzed', verdict: 'fail', dry_run: true });
      const dryReport = await api.report(dry.id);
      expect(dryReport.metrics.slice(0, 2).map((m) => m.value)).toEqual([mean, max]);
      expect(dryReport.checks).toEqual([{ name: 'max below limit', passed: max < 100 }]);
      expect(dryReport.params).toEqual({ limit: 100 });

      // Exports.
      const html = await api.call('GET', `/runs/${run.id}/report/export?format=html`);
      expect(html.headers['content-type']).toMatch(/text\/html/);
      expect(html.body).toContain('PASS');
      expect(html.body).toContain(String(mean));
      const csv = await api.call('GET', `/runs/${run.id}/report/export?format=csv`);
      expect(csv.headers['content-disposition']).toMatch(/\.csv/);
      expect(csv.body).toContain(`mean,${mean},km/h`);
      expect(csv.body).toContain('max below limit,true');
    } finally {
      live.ws.close();
      await sim.close();
    }
  });

  it('runs one test at a time per device: the second waits in the queue, a queued or running test can be cancelled', async () => {
    const api = testApi(t, a);
    const { id: thingsId, sim } = await loggerWithDbc(a);
    try {
      const script = await api.script('count frames', "metric('frames', frames.size())");
      const short = await api.routine({ name: 'short collect', steps: [{ type: 'collect', seconds: 1 }], script_id: script.id });
      const long = await api.routine({ name: 'long collect', steps: [{ type: 'collect', seconds: 60 }], script_id: script.id });
      const [first] = await api.start({ routine_id: short.id, things_ids: [thingsId] });
      const [second] = await api.start({ routine_id: short.id, things_ids: [thingsId] });
      const [third] = await api.start({ routine_id: long.id, things_ids: [thingsId] });
      expect((await api.run(second.id)).state).toBe('queued');

      // The third, still queued, is cancelled at once.
      const c3 = await api.call('POST', `/runs/${third.id}/cancel`);
      expect(c3.json()).toMatchObject({ state: 'cancelled', reason_code: 'test.cancelled' });

      const f1 = await api.finished(first.id);
      const f2 = await api.finished(second.id);
      expect([f1.state, f2.state]).toEqual(['analyzed', 'analyzed']);
      const detail = async (id: string) => (await api.call('GET', `/runs/${id}`)).json();
      expect((await detail(second.id)).started_at).toBeGreaterThanOrEqual((await detail(first.id)).finished_at);

      // A running test is cancelled within its step.
      const [running] = await api.start({ routine_id: long.id, things_ids: [thingsId] });
      await api.until(running.id, (r) => r.state === 'collecting');
      const c = await api.call('POST', `/runs/${running.id}/cancel`);
      expect(c.json()).toMatchObject({ state: 'cancelled', reason_code: 'test.cancelled' });
      expect((await api.call('POST', `/runs/${running.id}/cancel`)).json()).toMatchObject({ code: 'test.not-cancellable' });
      // Finished runs can be deleted, with their reports.
      expect((await api.call('DELETE', `/runs/${first.id}`)).statusCode).toBe(200);
      expect((await api.call('GET', `/runs/${first.id}/report`)).statusCode).toBe(404);
    } finally {
      await sim.close();
    }
  });

  it('lets a sub-user see and start runs only on the devices it may read or write', async () => {
    const api = testApi(t, a);
    const mine = await makeDevice(t, a);
    const theirs = await makeDevice(t, a);
    const script = await api.script('for sub-users', "check('always', true)");
    const routine = await api.routine({ name: 'sub-user routine', steps: [{ type: 'collect', seconds: 1 }], script_id: script.id });
    const range = { begin_time: Date.now() - 60_000, end_time: Date.now() };
    const [other] = await api.start({ routine_id: routine.id, things_ids: [theirs.id], dry_run: range });
    await api.finished(other.id);

    const sub = await makeSubUser(t, a, ['test-mgmt:run:query', 'test-mgmt:run:execute'], [{ thingsId: mine.id, access: 'read' }]);
    const sa = testApi(t, a, sub.auth);
    const live = watch(a, sub.auth.slice(7));
    await live.ready;
    try {
      // Read access: a dry run yes, a test (which sends to the device) no.
      const real = await sa.call('POST', '/runs', { routine_id: routine.id, things_ids: [mine.id] });
      expect(real.statusCode).toBe(403);
      const [dry] = await sa.start({ routine_id: routine.id, things_ids: [mine.id], dry_run: range });
      expect((await sa.finished(dry.id)).state).toBe('analyzed');
      expect((await sa.call('POST', `/runs/${dry.id}/cancel`)).statusCode).toBe(403);

      const list = (await sa.call('GET', '/runs?page_size=100')).json();
      expect(list.list.map((r: TestRunDto) => r.things_id)).toEqual([mine.id]);
      expect((await sa.call('GET', `/runs/${other.id}`)).statusCode).toBe(404);
      expect((await sa.call('GET', `/runs/${other.id}/report`)).statusCode).toBe(404);

      // The socket pushes the runs of its devices only.
      const [again] = await api.start({ routine_id: routine.id, things_ids: [theirs.id], dry_run: range });
      await api.finished(again.id);
      await poll(
        async () => live.states(dry.id),
        (s) => s.includes('analyzed'),
        { ms: 5000 },
      );
      expect(live.runs.map((r) => r.things_id).every((id) => id === mine.id)).toBe(true);
      expect(live.states(again.id)).toEqual([]);

      await grantDevice(t.database, a.tenantId, sub.userId, theirs.id, 'read');
      expect((await sa.call('GET', `/runs/${other.id}`)).statusCode).toBe(200);
    } finally {
      live.ws.close();
    }
  });
});

describe('a run whose server crashes', () => {
  it('is resumed by the next start where it was, and analysed', async () => {
    const shared = await openTestDatabase();
    const config = testConfig({ groovy: groovy() });
    const crash = crashable(shared.database);
    const first = await startCopy(config, crash.database);
    let second: TestApp | null = null;
    try {
      const tenant = await makeTenant(first);
      const d = await makeDevice(first, tenant);
      const api1 = testApi(first, tenant);
      const script = await api1.script('resumed', "metric('frames', frames.size()); check('all frames', frames.size() == 5)");
      const routine = await api1.routine({ name: 'crash test', steps: [{ type: 'collect', seconds: 3 }], script_id: script.id });
      const [run] = await api1.start({ routine_id: routine.id, things_ids: [d.id] });
      await api1.until(run.id, (r) => r.state === 'collecting', 20_000);
      const { rows } = await shared.database.raw.query<{ step_state: { from: number; until: number } }>(
        'select step_state from test_runs where id = $1',
        [run.id],
      );
      const window = rows[0].step_state;
      expect(window).toMatchObject({ from: expect.any(Number), until: expect.any(Number) });
      // Five frames inside the window, stored as the ingest stores them.
      const from = window.from;
      await ingestFrames(
        first,
        tenant.tenantId,
        d.id,
        [0, 1, 2, 3, 4].map((i) => rampFrame((from + 100 + i * 10) * 1000, i)),
        1,
      );

      crash.now();
      void first.app.ctx.broker.close().catch(() => {});
      second = await startCopy(config, shared.database);
      const api2 = testApi(second, tenant);
      const done = await api2.finished(run.id, 30_000);
      expect(done).toMatchObject({ state: 'analyzed', verdict: 'pass' });
      expect(done.windows).toEqual([{ from, to: window.until }]);
      expect((await api2.report(run.id)).metrics).toEqual([{ name: 'frames', value: 5, unit: null }]);
    } finally {
      await second?.close();
      await shared.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});
