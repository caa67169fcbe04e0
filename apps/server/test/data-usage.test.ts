import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { batch, connectDevice } from './ingest.helpers.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Frame times two days back: what is counted is the hour of arrival, not the frames' own time.
const T0 = (Math.floor(Date.now() / HOUR) - 48) * HOUR * 1000;

interface Sent {
  messages: number;
  frames: number;
  bytes: number;
}

describe('tenant flow, ranking and usage', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  const clients: MqttClient[] = [];
  const devices: { id: string; sent: Sent; frameBytes: number }[] = [];
  let begin: number;
  let end: number;

  const get = (url: string, auth: string) => t.app.inject({ method: 'GET', url: `/v1${url}`, headers: { authorization: auth } });

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    const url = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
    begin = Math.floor(Date.now() / HOUR) * HOUR;
    // Three devices with different traffic (no two alike in bytes or messages): frame batches of n frames, and status messages.
    const plan = [
      { batches: [20, 30], status: 0 },
      { batches: [100, 100, 100], status: 1 },
      { batches: [5], status: 4 },
    ];
    let seq = 0;
    for (const p of plan) {
      const d = await makeDevice(t, a);
      const c = await connectDevice(url, d.third_things_id, d.things_key);
      clients.push(c);
      const sent: Sent = { messages: 0, frames: 0, bytes: 0 };
      let frameBytes = 0;
      for (const n of p.batches) {
        const payload = batch(++seq, T0 + seq * 10_000_000, n);
        await c.publishAsync(upTopic(d.third_things_id, 'frames'), payload, { qos: 1 });
        sent.messages++;
        sent.frames += n;
        sent.bytes += payload.byteLength;
        frameBytes += payload.byteLength;
      }
      for (let i = 0; i < p.status; i++) {
        const payload = Buffer.from(JSON.stringify({ online: true, firmware: `1.0.${i}` }));
        await c.publishAsync(upTopic(d.third_things_id, 'status'), payload, { qos: 1 });
        sent.messages++;
        sent.bytes += payload.byteLength;
      }
      devices.push({ id: d.id, sent, frameBytes });
    }
    // A device of the other tenant sends too: never in tenant a's figures.
    const other = await makeDevice(t, b);
    const oc = await connectDevice(url, other.third_things_id, other.things_key);
    clients.push(oc);
    await oc.publishAsync(upTopic(other.third_things_id, 'frames'), batch(1, T0, 500), { qos: 1 });
    await t.app.ctx.ingest.traffic.flush();
    end = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await t?.close();
  });

  const sum = (k: keyof Sent) => devices.reduce((s, d) => s + d.sent[k], 0);

  it('answers per hour the messages, frames and bytes the devices sent, and zero hours around them', async () => {
    const from = begin - 3 * HOUR;
    const res = await get(`/data-mgmt/tenants/${a.tenantId}/flow?begin_time=${from}&end_time=${end}&granularity=hour`, a.auth);
    expect(res.statusCode).toBe(200);
    const flow = res.json();
    expect(flow.total).toEqual({ messages: sum('messages'), frames: sum('frames'), bytes: sum('bytes'), forwarded: 0 });
    // Every hour of the range, in order.
    expect(flow.list.map((p: { period_start: number }) => p.period_start)).toEqual(
      Array.from({ length: (end - from) / HOUR }, (_, i) => from + i * HOUR),
    );
    expect(flow.list.slice(0, 3).every((p: { messages: number }) => p.messages === 0)).toBe(true);
    const listed = flow.list.reduce((s: number, p: { bytes: number }) => s + p.bytes, 0);
    expect(listed).toBe(sum('bytes'));

    // One device's flow.
    const one = await get(`/data-mgmt/tenants/${a.tenantId}/flow?begin_time=${from}&end_time=${end}&things_id=${devices[2].id}`, a.auth);
    expect(one.json().total).toEqual({ ...devices[2].sent, forwarded: 0 });
  });

  it('answers per day from midnight of the given offset', async () => {
    const res = await get(
      `/data-mgmt/tenants/${a.tenantId}/flow?begin_time=${begin - 3 * DAY}&end_time=${end}&granularity=day&utc_offset=480`,
      a.auth,
    );
    const flow = res.json();
    expect(flow.total.frames).toBe(sum('frames'));
    const offset = 480 * 60_000;
    for (const p of flow.list) expect((p.period_start + offset) % DAY).toBe(0);
    // The days with traffic hold all of it (the traffic of the last minutes lies in one or two days).
    expect(flow.list.filter((p: { messages: number }) => p.messages > 0).length).toBeGreaterThanOrEqual(1);
  });

  it('ranks the devices by bytes, by messages, and pages them', async () => {
    const q = `begin_time=${begin - HOUR}&end_time=${end}`;
    const byBytes = [...devices].sort((x, y) => y.sent.bytes - x.sent.bytes);
    const res = await get(`/data-mgmt/tenants/${a.tenantId}/ranking?${q}`, a.auth);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(3);
    expect(page.list.map((r: { things_id: string }) => r.things_id)).toEqual(byBytes.map((d) => d.id));
    expect(page.list.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3]);
    expect(page.list[0]).toMatchObject({ ...byBytes[0].sent, name: 'Truck' });

    const byMessages = [...devices].sort((x, y) => y.sent.messages - x.sent.messages);
    const second = await get(`/data-mgmt/tenants/${a.tenantId}/ranking?${q}&order_by=messages&page_size=1&current_page=2`, a.auth);
    expect(second.json()).toMatchObject({ total: 3, current_page: 2, page_size: 1 });
    expect(second.json().list).toEqual([
      expect.objectContaining({ rank: 2, things_id: byMessages[1].id, messages: byMessages[1].sent.messages }),
    ]);
  });

  it('gives the storage of each device against the quota from the capacity accounting', async () => {
    const res = await get(`/data-mgmt/tenants/${a.tenantId}/usage/things?page_size=5`, a.auth);
    const byStored = [...devices].sort((x, y) => y.frameBytes - x.frameBytes);
    expect(res.json().list.map((r: { things_id: string; bytes: number }) => [r.things_id, r.bytes])).toEqual(
      byStored.map((d) => [d.id, d.frameBytes]),
    );
    const total = await get(`/data-mgmt/tenants/${a.tenantId}/usage`, a.auth);
    expect(total.json()).toMatchObject({ tenant_id: a.tenantId, total_capacity: 2 * 1024 });
  });

  it("refuses another tenant's figures, and a sub-user without the key; the system manager reads any tenant", async () => {
    const q = `begin_time=${begin - HOUR}&end_time=${end}`;
    const other = await get(`/data-mgmt/tenants/${a.tenantId}/flow?${q}`, b.auth);
    expect(other.statusCode).toBe(403);
    expect((await get(`/data-mgmt/tenants/${a.tenantId}/ranking?${q}`, b.auth)).statusCode).toBe(403);
    // Tenant b's own flow holds only its device.
    expect((await get(`/data-mgmt/tenants/${b.tenantId}/flow?${q}`, b.auth)).json().total.frames).toBe(500);

    const none = await makeSubUser(t, a, ['data-mgmt:tenant-flow:query']);
    expect((await get(`/data-mgmt/tenants/${a.tenantId}/flow?${q}`, none.auth)).statusCode).toBe(200);
    expect((await get(`/data-mgmt/tenants/${a.tenantId}/ranking?${q}`, none.auth)).statusCode).toBe(403);

    const admin = await loginAdmin(t.app);
    const sys = await get(`/data-mgmt/tenants/${a.tenantId}/ranking?${q}`, admin);
    expect(sys.statusCode).toBe(200);
    expect(sys.json().total).toBe(3);
  });

  it('refuses a backwards range, a range over a year and bad parameters', async () => {
    const base = `/data-mgmt/tenants/${a.tenantId}`;
    const backwards = await get(`${base}/flow?begin_time=${end}&end_time=${begin}`, a.auth);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ code: 'data.bad-range', field: 'end_time' });
    const long = await get(`${base}/ranking?begin_time=${end - 367 * DAY}&end_time=${end}`, a.auth);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'data.range-too-long' });
    expect((await get(`${base}/flow?begin_time=${end - 366 * DAY}&end_time=${end}&granularity=day`, a.auth)).statusCode).toBe(200);
    for (const q of ['granularity=week', 'utc_offset=900', 'things_id=nope']) {
      expect((await get(`${base}/flow?begin_time=${begin}&end_time=${end}&${q}`, a.auth)).statusCode).toBe(400);
    }
    for (const q of ['page_size=51', 'order_by=name', 'current_page=0']) {
      expect((await get(`${base}/ranking?begin_time=${begin}&end_time=${end}&${q}`, a.auth)).statusCode).toBe(400);
    }
    expect((await get(`${base}/flow?end_time=${end}`, a.auth)).statusCode).toBe(400);
  });
});
