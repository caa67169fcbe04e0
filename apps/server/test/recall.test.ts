import { createHash } from 'node:crypto';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { LINK_PROOF_HEADER, linkProof } from '@loggerhead/can/protocol/link-proof.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandIn, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

describe.skipIf(!!process.env.TEST_MQTT_URL)('file recall (device storage data)', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    // Devices reach the server at its public URL.
    t.app.ctx.config.publicUrl = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    await t?.close();
  });
  const base = (id: string) => `/v1/things/tenants/${tenant.tenantId}/things/${id}/recall`;
  const req = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, auth = tenant.auth) =>
    t.app.inject({ method, url, headers: { authorization: auth }, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('lists the SD card, recalls a file (bytes equal), imports it into history and deletes it', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const log = writeLog(frames(3000, 1_700_000_000_000_000), 'candump');
    sim.sd.partSize = 16 * 1024;
    sim.sd.put('LOG/0001.log', log, 1_700_000_000_000);
    sim.sd.put('LOG/0002.log', new Uint8Array(0), 1_700_000_100_000);
    // A device clock with sub-millisecond digits must not break listing or storing.
    sim.sd.put('LOG/0003.log', new Uint8Array([1, 2, 3]), 1_800_000_000_000.25);
    await sim.connect();
    try {
      const listed = await req('POST', `${base(d.id)}/list`, {
        page_size: 10,
        current_page: 1,
        filter: { starttime: 1_600_000_000_000, endtime: 1_750_000_000_000 },
      });
      expect(listed.statusCode).toBe(200);
      const corr = listed.json().command.correlation_id;
      expect(listed.json().command.timeout_ms).toBe(100_000);
      const list = await poll(
        async () => (await req('GET', `${base(d.id)}/list/${corr}`)).json(),
        (r) => r.total !== null,
        { ms: 10_000 },
      );
      expect(list).toMatchObject({
        code: null,
        total: 2,
        list: [
          { name: 'LOG/0001.log', size: log.length, time: 1_700_000_000_000 },
          { name: 'LOG/0002.log', size: 0 },
        ],
      });

      const late = (await req('POST', `${base(d.id)}/files`, { filename: 'LOG/0003.log' })).json();
      const lateDone = await poll(
        async () => (await req('GET', `${base(d.id)}/tasks/${late.id}`)).json(),
        (r) => ['done', 'failed', 'timeout'].includes(r.state),
        { ms: 10_000 },
      );
      expect(lateDone.state).toBe('done');
      const all = await req('POST', `${base(d.id)}/list`, {});
      const allList = await poll(
        async () => (await req('GET', `${base(d.id)}/list/${all.json().command.correlation_id}`)).json(),
        (r) => r.total !== null,
        { ms: 10_000 },
      );
      expect(allList.list.at(-1)).toEqual({ name: 'LOG/0003.log', size: 3, time: 1_800_000_000_000 });

      // Size 0 disables recall and delete.
      expect((await req('POST', `${base(d.id)}/files`, { filename: 'LOG/0002.log' })).json().code).toBe('recall.empty-file');
      expect((await req('POST', `${base(d.id)}/device-files/delete`, { filter: { name: 'LOG/0002.log' } })).statusCode).toBe(400);

      const task = (await req('POST', `${base(d.id)}/files`, { filename: 'LOG/0001.log', size: log.length })).json();
      expect(['sending', 'device']).toContain(task.state);
      const done = await poll(
        async () => (await req('GET', `${base(d.id)}/tasks/${task.id}`)).json(),
        (r) => ['done', 'failed', 'timeout'].includes(r.state),
        { ms: 10_000 },
      );
      expect(done).toMatchObject({ state: 'done', process_rate: 100, received: log.length, size: log.length });
      expect(sim.sd.partsSent).toBe(1 + Math.ceil(log.length / (16 * 1024)));

      const files = (await req('GET', `/v1/filemanager/tenants/${tenant.tenantId}/files?things_id=${d.id}`)).json();
      const name = `${d.id}_LOG_0001.log`;
      expect(files.find((f: { name: string }) => f.name === name)).toMatchObject({ name, size: log.length, time: 1_700_000_000_000 });
      const url = (await req('GET', `/v1/filemanager/tenants/${tenant.tenantId}/files/url?name=${name}&type=dev`)).json().url;
      expect(url).toBe(done.url);
      const dl = await req('GET', url);
      expect(dl.statusCode).toBe(200);
      expect(createHash('sha256').update(dl.rawPayload).digest('hex')).toBe(createHash('sha256').update(log).digest('hex'));
      // Counted against capacity.
      const usage = await t.database.raw.query<{ b: number }>(
        'select coalesce(sum(bytes),0)::int as b from tenant_storage_usage where things_id = $1',
        [d.id],
      );
      expect(usage.rows[0].b).toBe(log.length + 3);

      const imp = await req('POST', `/v1/filemanager/tenants/${tenant.tenantId}/files/import`, { name });
      expect(imp.statusCode).toBe(200);
      expect(imp.json().frames).toBe(3000);

      const del = await req('POST', `${base(d.id)}/device-files/delete`, { filter: { name: 'LOG/0001.log' } });
      await commandIn(t.app, tenant, d.id, del.json().correlation_id, ['answered']);
      expect(sim.sd.files.has('LOG/0001.log')).toBe(false);
      const gone = await req('POST', `${base(d.id)}/device-files/delete`, { filter: { name: 'LOG/0001.log' } });
      const failed = await commandIn(t.app, tenant, d.id, gone.json().correlation_id, ['failed']);
      expect(failed.message).toBe('file info empty');

      // Deleting the recalled copy gives the capacity back.
      expect((await req('DELETE', `/v1/out-filemanager/tenants/${tenant.tenantId}/files?name=${name}&type=dev`)).statusCode).toBe(204);
      const after = await t.database.raw.query<{ b: number }>(
        'select coalesce(sum(bytes),0)::int as b from tenant_storage_usage where things_id = $1',
        [d.id],
      );
      expect(after.rows[0].b).toBe(3);
      expect((await req('GET', url)).json().code).toBe('recall.002');
    } finally {
      await sim.close();
    }
  });

  it('a recall the device never answers times out with its code; a missing file shows 001', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    sim.agent.silent.add('common_fn.recallFile');
    await sim.connect();
    try {
      const task = (await req('POST', `${base(d.id)}/files`, { filename: 'nothing.log', size: 10 })).json();
      // Bring the deadline near so the test does not wait the default 30 s.
      await t.database.raw.query("update device_commands set deadline_at = now() + interval '500 milliseconds' where correlation_id = $1", [
        task.correlation_id,
      ]);
      const r = await poll(
        async () => (await req('GET', `${base(d.id)}/tasks/${task.id}`)).json(),
        (x) => x.state === 'timeout',
        { ms: 8000 },
      );
      expect(r).toMatchObject({ state: 'timeout', code: 'recall.timeout.003' });

      sim.agent.silent.delete('common_fn.recallFile');
      const missing = (await req('POST', `${base(d.id)}/files`, { filename: 'nothing.log', size: 10 })).json();
      const m = await poll(
        async () => (await req('GET', `${base(d.id)}/tasks/${missing.id}`)).json(),
        (x) => x.state === 'failed',
        { ms: 10_000 },
      );
      expect(m.code).toBe('recall.001');
    } finally {
      await sim.close();
    }
  });

  it('uploads resume at the offset the server has; a finished token is refused', async () => {
    const { d } = await remoteDevice(t, tenant);
    const task = (await req('POST', `${base(d.id)}/files`, { filename: 'a.bin', size: 6 })).json();
    const { rows } = await t.database.raw.query<{ token: string }>('select token from recall_tasks where id = $1', [task.id]);
    const up = `/v1/filemanager/recall-upload/${rows[0].token}`;
    const proof = { [LINK_PROOF_HEADER]: linkProof(d.things_key, rows[0].token) };
    const put = (offset: number, body: Buffer) =>
      t.app.inject({
        method: 'PUT',
        url: `${up}?offset=${offset}&total=6`,
        headers: { 'content-type': 'application/octet-stream', ...proof },
        payload: body,
      });
    expect((await put(0, Buffer.from([1, 2, 3]))).json()).toEqual({ received: 3 });
    const wrong = await put(0, Buffer.from([1, 2, 3]));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().details).toEqual({ received: 3 });
    expect((await t.app.inject({ method: 'GET', url: up, headers: proof })).json()).toEqual({ received: 3 });
    // Part progress for the console.
    expect((await req('GET', `${base(d.id)}/tasks/${task.id}`)).json()).toMatchObject({ state: 'fetching', received: 3, process_rate: 50 });
    const cancelled = (await req('POST', `${base(d.id)}/tasks/${task.id}/cancel`)).json();
    expect(cancelled.state).toBe('cancelled');
    expect((await put(3, Buffer.from([4, 5, 6]))).statusCode).toBe(404);

    // Parts up to 4 MiB are taken, above the API's general 2 MiB body limit.
    const big = (await req('POST', `${base(d.id)}/files`, { filename: 'big.bin', size: 3 * 1024 * 1024 })).json();
    const tok = (await t.database.raw.query<{ token: string }>('select token from recall_tasks where id = $1', [big.id])).rows[0].token;
    const part = await t.app.inject({
      method: 'PUT',
      url: `/v1/filemanager/recall-upload/${tok}?offset=0`,
      headers: { 'content-type': 'application/octet-stream', [LINK_PROOF_HEADER]: linkProof(d.things_key, tok) },
      payload: Buffer.alloc(3 * 1024 * 1024, 7),
    });
    expect(part.json()).toEqual({ received: 3 * 1024 * 1024 });
  });

  it('batch recall is limited by the package, at most 50', async () => {
    const { d } = await remoteDevice(t, tenant);
    await t.database.raw.query('update tenant_packages set max_batch_recall_size = 2 where tenant_id = $1', [tenant.tenantId]);
    const files = (n: number) => Array.from({ length: n }, (_, i) => ({ filename: `f${i}.log`, size: 10 }));
    const big = await req('POST', `${base(d.id)}/batch`, { files: files(3) });
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ code: 'recall.batch-too-large', details: { limit: 2 } });
    const ok = await req('POST', `${base(d.id)}/batch`, { files: files(2) });
    expect(ok.statusCode).toBe(200);
    const tasks = (await req('GET', `${base(d.id)}/tasks?batch_id=${ok.json().batch_id}`)).json();
    expect(tasks).toHaveLength(2);
    expect((await req('POST', `${base(d.id)}/batch`, { files: files(51) })).statusCode).toBe(400);
  });

  it('read-only sub-users cannot recall; other tenants cannot download', async () => {
    const { d } = await remoteDevice(t, tenant);
    const reader = await makeSubUser(t, tenant, ['things:things:command'], [{ thingsId: d.id, access: 'read' }]);
    expect((await req('POST', `${base(d.id)}/files`, { filename: 'x', size: 1 }, reader.auth)).statusCode).toBe(403);
    const other = await makeTenant(t);
    expect((await req('GET', `/v1/filemanager/upload/commonfile/${d.id}_LOG_0001.log`, undefined, other.auth)).statusCode).toBe(404);
  });
});
