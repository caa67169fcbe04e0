import type { CanFrame } from '@loggerhead/can';
import { readLog, writeLog } from '@loggerhead/can/logs/index.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import { EXPORT_FORMATS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { dropExpiredPartitions } from '../src/modules/data/retention.job.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { batch, connectDevice, frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

// Two days ago on the hour: recent enough for the retention sweep to keep it.
const T0 = (Math.floor(Date.now() / 3_600_000) - 48) * 3_600_000_000;

function multipart(name: string, bytes: Uint8Array) {
  const boundary = '----lhtest';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A varied log: two channels, standard and extended ids, CAN FD with BRS, a remote frame, odd µs. */
function sampleFrames(): CanFrame[] {
  const out: CanFrame[] = [];
  for (let i = 0; i < 500; i++) {
    const fd = i % 7 === 0;
    out.push({
      ts: T0 + i * 1337 + (i % 3),
      channel: i % 2,
      id: i % 5 === 0 ? 0x18fef100 + (i % 4) : 0x100 + (i % 8),
      ext: i % 5 === 0,
      fd,
      brs: fd && i % 2 === 0,
      esi: false,
      rtr: !fd && i % 50 === 1,
      err: false,
      tx: i % 11 === 0,
      data: !fd && i % 50 === 1 ? new Uint8Array() : new Uint8Array(Array.from({ length: fd ? 12 : i % 9 }, (_, k) => (i * 7 + k) & 0xff)),
      ...(!fd && i % 50 === 1 ? { dlc: 8 } : {}),
    });
  }
  return out;
}
const key = (f: CanFrame) =>
  `${f.ts}|${f.channel}|${f.id}|${+f.ext}|${+f.fd}|${+f.brs}|${+f.rtr}|${+f.tx}|${f.rtr ? f.dlc : Buffer.from(f.data).toString('hex')}`;

describe('raw data: history, live, export, upload', () => {
  let t: TestApp;
  let a: TenantFixture;
  let dev: { id: string; third_things_id: string; things_key: string };
  const url = (rest: string) => `/v1/data-mgmt/tenants/${a.tenantId}/things/${dev.id}${rest}`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    dev = await makeDevice(t, a);
    const c = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, dev.third_things_id, dev.things_key);
    // 30 batches of 100 frames, 1 ms apart, on channel 0; then 10 on channel 1 with other ids
    for (let s = 0; s < 30; s++) await c.publishAsync(upTopic(dev.third_things_id, 'frames'), batch(s, T0 + s * 100_000), { qos: 1 });
    const { encodeBatch } = await import('@loggerhead/can/protocol/batch.ts');
    for (let s = 0; s < 10; s++)
      await c.publishAsync(
        upTopic(dev.third_things_id, 'frames'),
        Buffer.from(encodeBatch(frames(100, T0 + 5_000_000 + s * 100_000, 1, 0x700), { session: 2, seq: s })),
        { qos: 1 },
      );
    c.end();
  });
  afterAll(async () => {
    await t?.close();
  });

  const ms = (us: number) => Math.floor(us / 1000);

  it('pages the history in time order with an exact total', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: url(`/frames?begin_time=${ms(T0)}&end_time=${ms(T0) + 3_600_000}&current_page=2&page_size=50`),
      headers: { authorization: a.auth },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(4000);
    expect(body.total_exact).toBe(true);
    expect(body.list).toHaveLength(50);
    expect(body.list[0]).toMatchObject({ ts: T0 + 50_000, channel: 0, id: 0x100 + (50 % 16), dlc: 8, data: '3200030405060708' });
    const ts = body.list.map((f: { ts: number }) => f.ts);
    expect(ts).toEqual([...ts].sort((x, y) => x - y));
  });

  it('counts exactly at the edges of the range', async () => {
    // from the middle of batch 0 to the middle of batch 2: 50 + 100 + 50 frames
    const res = await t.app.inject({
      method: 'GET',
      url: url(`/frames?begin_time=${ms(T0) + 50}&end_time=${ms(T0) + 250}`),
      headers: { authorization: a.auth },
    });
    expect(res.json().total).toBe(200);
  });

  it('filters by channel and id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: url(`/frames?begin_time=${ms(T0)}&end_time=${ms(T0) + 3_600_000}&channels=1&ids=0x701,0x702&page_size=100`),
      headers: { authorization: a.auth },
    });
    const body = res.json();
    expect(body.total).toBe(140); // per batch of 100: ids 0x701 and 0x702 appear 7 times each
    expect(body.list.every((f: { channel: number; id: number }) => f.channel === 1 && (f.id === 0x701 || f.id === 0x702))).toBe(true);
  });

  it('refuses page × size over 10000 with data.over-10000 and an inverted range', async () => {
    const over = await t.app.inject({
      method: 'GET',
      url: url(`/frames?begin_time=0&end_time=1&current_page=101&page_size=100`),
      headers: { authorization: a.auth },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('data.over-10000');
    const inv = await t.app.inject({ method: 'GET', url: url(`/frames?begin_time=10&end_time=5`), headers: { authorization: a.auth } });
    expect(inv.json().code).toBe('data.bad-range');
  });

  it('hides the history of a device a sub-user has no access to', async () => {
    const sub = await makeSubUser(t, a, ['data-mgmt:things-data:query']);
    const res = await t.app.inject({
      method: 'GET',
      url: url(`/frames?begin_time=${ms(T0)}&end_time=${ms(T0) + 1000}`),
      headers: { authorization: sub.auth },
    });
    expect(res.statusCode).toBe(404);
  });

  it('pushes live frames over the WebSocket with channel and id filters', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    const token = a.auth.slice('Bearer '.length);
    const ws = new WebSocket(`ws://127.0.0.1:${addr.port}/v1/live?token=${token}`);
    const msgs: { t: string; f?: [number, number, number, number, string][] }[] = [];
    ws.on('message', (d) => msgs.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ op: 'subscribe', id: 'trace', kind: 'frames', things_id: dev.id, ids: [0x105] }));
    await poll(
      async () => msgs,
      (m) => m.some((x) => x.t === 'subscribed'),
    );
    const c = await connectDevice(`mqtt://127.0.0.1:${t.app.ctx.broker.port()}`, dev.third_things_id, dev.things_key);
    await c.publishAsync(upTopic(dev.third_things_id, 'frames'), batch(100, T0 + 7_200_000_000, 32, 9), { qos: 1 });
    c.end();
    const got = await poll(
      async () => msgs.filter((m) => m.t === 'frames').flatMap((m) => m.f ?? []),
      (f) => f.length >= 2,
    );
    // the device's connect reached the browser too
    expect(msgs).toContainEqual({ t: 'status', id: 'trace', things_id: dev.id, online: true });
    // Times on the socket in ms, the µs as the fraction.
    expect(got).toEqual([
      [(T0 + 7_200_000_000 + 5000) / 1000, 0, 0x105, 0, '0500030405060708'],
      [(T0 + 7_200_000_000 + 21000) / 1000, 0, 0x105, 0, '1500030405060708'],
    ]);
    const bad = new WebSocket(`ws://127.0.0.1:${addr.port}/v1/live?token=forged`);
    const code = await new Promise((r) => bad.once('close', (c) => r(c)));
    expect(code).toBe(4401);
    ws.close();
  });

  it('uploads a candump log and exports it back exactly, in every format', async () => {
    const d = await makeDevice(t, a);
    const src = sampleFrames();
    const up = await t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/uploads`,
      headers: { authorization: a.auth, ...multipart('trip.log', writeLog(src, 'candump')).headers },
      payload: multipart('trip.log', writeLog(src, 'candump')).payload,
    });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ frames: 500, begin_time: ms(src[0].ts) });
    const expected = src.map(key);
    // Every export format the API offers (a new one is covered here without listing it).
    for (const format of EXPORT_FORMATS) {
      const created = await t.app.inject({
        method: 'POST',
        url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads`,
        headers: { authorization: a.auth },
        payload: { begin_time: ms(src[0].ts), end_time: ms(src[499].ts) + 1, format },
      });
      expect(created.statusCode).toBe(200);
      const id = created.json().id;
      const st = await poll(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads/${id}`,
              headers: { authorization: a.auth },
            })
          ).json(),
        (s) => s.status === 3 || s.status === 7,
      );
      expect(st).toMatchObject({ status: 3, process_rate: 100, output_count: 500 });
      const file = await t.app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads/${id}/file`,
        headers: { authorization: a.auth },
      });
      expect(file.statusCode).toBe(200);
      if (format === 'csv') {
        const lines = file.body.trim().split('\n');
        expect(lines).toHaveLength(501);
        expect(lines[1].split(',')[0]).toBe(String(src[0].ts));
        continue;
      }
      const back = readLog(file.rawPayload, format);
      expect(back.error).toBeUndefined();
      // candump and BLF keep the µs; ASC too (6 decimals)
      expect(back.frames.map(key)).toEqual(expected);
    }
  });

  it('cancels a download and refuses its file', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: url('/downloads'),
      headers: { authorization: a.auth },
      payload: { begin_time: ms(T0), end_time: ms(T0) + 3_600_000, format: 'blf' },
    });
    const id = created.json().id;
    const del = await t.app.inject({ method: 'DELETE', url: url(`/downloads/${id}`), headers: { authorization: a.auth } });
    expect(del.statusCode).toBe(204);
    const st = (await t.app.inject({ method: 'GET', url: url(`/downloads/${id}`), headers: { authorization: a.auth } })).json();
    expect(st.status).toBe(6);
    const file = await t.app.inject({ method: 'GET', url: url(`/downloads/${id}/file`), headers: { authorization: a.auth } });
    expect(file.statusCode).toBe(409);
  });

  it('refuses a file that is not a log', async () => {
    const m = multipart('notes.txt', Buffer.from('hello world\nthis is not a log\n'));
    const res = await t.app.inject({
      method: 'POST',
      url: url('/uploads'),
      headers: { authorization: a.auth, ...m.headers },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('data.bad-format');
  });

  it('drops whole partitions past the retention with their usage', async () => {
    const before = await t.database.raw.query<{ n: number }>('select count(*)::int as n from frame_chunks where things_id = $1', [dev.id]);
    expect(before.rows[0].n).toBeGreaterThan(0);
    // 181 days after the data, the default 180-day retention drops its partition
    const dropped = await dropExpiredPartitions(t.database.raw, t.app.ctx.ingest.writer, 180, ms(T0) + 181 * 86_400_000 + 7_300_000);
    expect(dropped).toBeGreaterThanOrEqual(1);
    const after = await t.database.raw.query<{ n: number }>('select count(*)::int as n from frame_chunks where things_id = $1', [dev.id]);
    expect(after.rows[0].n).toBe(0);
    const usage = await t.database.raw.query<{ n: number }>('select count(*)::int as n from storage_usage where things_id = $1', [dev.id]);
    expect(usage.rows[0].n).toBe(0);
  });
});
