/**
 * ASAM MF4 through the server: real CANedge logs uploaded into a device's history and decoded
 * with the J1939 DBC that comes with them (values computed here from the raw records), and
 * history exported as MF4 reading back equal, every frame kind and flag included.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CanFrame } from '@loggerhead/can';
import { readLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canedgeBFrames,
  canedgeJ1939Signals,
  dataGroups,
  dv,
  hasSamples,
  MF4_DIR,
  records,
} from '../../../packages/can/test/mf4.helpers.ts';
import { simulate } from '../src/cli/simulate.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { bind, ingestFrames, multipart, uploadDbc } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const sample = (name: string) => new Uint8Array(readFileSync(resolve(MF4_DIR, name)));

describe.skipIf(!hasSamples)('MF4 logs in and out of the history', () => {
  let t: TestApp;
  let a: TenantFixture;

  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (thingsId: string, name: string, bytes: Uint8Array) => {
    const m = multipart({}, { name, content: bytes });
    return t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/uploads`,
      headers: { authorization: a.auth, ...m.headers },
      payload: m.payload,
    });
  };

  it('imports a CANedge log and decodes it with its J1939 DBC to the physical values of the records', async () => {
    const d = await makeDevice(t, a);
    const dbc = await uploadDbc(t, a, 'css-j1939-demo.dbc', readFileSync(resolve(MF4_DIR, 'css-j1939-demo.dbc')));
    expect(dbc.statusCode).toBe(200);
    // CAN1 of the logger is channel 0.
    expect((await bind(t, a, d.id, 0, { dbc_id: dbc.json().id, state: 'started' })).statusCode).toBe(200);

    const b = sample('canedge-j1939-a.MF4');
    const res = await upload(d.id, '00000001.MF4', b);
    expect(res.statusCode).toBe(200);
    const [g] = dataGroups(b);
    const canRecords = records(b, g).filter((r) => /^CAN\d+_/.test(g.groups.find((x) => x.recordId === r.id)?.acqName ?? ''));
    expect(res.json()).toMatchObject({ format: 'mf4', frames: canRecords.length, skipped_count: 0 });
    await t.app.ctx.signals.idle();

    const { rpm, speed } = canedgeJ1939Signals(b);
    expect(rpm.length).toBeGreaterThan(1000);
    const times = [...rpm, ...speed].map(([us]) => us);
    const from = Math.floor(Math.min(...times) / 1000);
    const to = Math.ceil(Math.max(...times) / 1000) + 1;
    for (const [signal, want] of [
      ['EEC1.EngineSpeed', rpm],
      ['CCVS1.WheelBasedVehicleSpeed', speed],
    ] as const) {
      const page = await t.app.inject({
        method: 'GET',
        url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/signals/data?signals=${signal}&channel=0&begin_time=${from}&end_time=${to}&page_size=10000`,
        headers: { authorization: a.auth },
      });
      expect(page.statusCode).toBe(200);
      const got = (page.json().list as { time: number; value: number }[]).map((r) => [Math.round(r.time * 1000), r.value]);
      got.sort((x, y) => x[0] - y[0]);
      expect(got).toEqual(want);
    }
  });

  it('imports the older CANedge layout (payloads in a VLSD group): every frame, channel and µs', async () => {
    const d = await makeDevice(t, a);
    const b = sample('canedge-b.MF4');
    const want = canedgeBFrames(b);
    const res = await upload(d.id, 'b.mf4', b);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ format: 'mf4', frames: want.length, begin_time: Math.floor(want[0].ts / 1000) });
    expect(new Set(want.map((f) => f.channel))).toEqual(new Set([0, 1]));
    const page = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/frames?begin_time=${Math.floor(want[0].ts / 1000)}&end_time=${Math.ceil(want[want.length - 1].ts / 1000) + 1}&page_size=10000`,
      headers: { authorization: a.auth },
    });
    expect(page.statusCode).toBe(200);
    const row = (f: { ts: number; channel: number; id: number; ext: boolean; tx: boolean }, data: string) =>
      `${f.ts} ${f.channel} ${f.id} ${f.ext} ${f.tx} ${data}`;
    const got = (page.json().list as { ts: number; channel: number; id: number; ext: boolean; tx: boolean; data: string }[]).map((f) =>
      row(f, f.data.toLowerCase()),
    );
    const expected = want.map((f) => row(f, Buffer.from(f.data).toString('hex'))).sort();
    expect(got.sort()).toEqual(expected);
  });

  it('replays a CANedge log with simulate --log, read from the file by random access', async () => {
    const d = await makeDevice(t, a);
    const path = resolve(MF4_DIR, 'canedge-b.MF4');
    const want = canedgeBFrames(sample('canedge-b.MF4'));
    const broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
    const code = await simulate([
      '--broker',
      broker,
      '--device',
      d.third_things_id,
      '--key',
      d.things_key,
      '--log',
      path,
      '--fast',
      '--keep-time',
    ]);
    expect(code).toBe(0);
    const stored = await t.database.raw.query<{ n: number; first: string }>(
      'select coalesce(sum(frame_count), 0)::int as n, min(time_start) as first from frame_chunks where things_id = $1',
      [d.id],
    );
    expect(stored.rows[0].n).toBe(want.length);
    expect(Number(stored.rows[0].first)).toBe(want[0].ts);
  });

  it('refuses a damaged MF4 with the byte offset of the damage', async () => {
    const d = await makeDevice(t, a);
    const b = sample('canedge-b.MF4').slice(0, 4000);
    // The first data group link now points past the end of the file.
    dv(b).setBigUint64(64 + 24, 1_000_000n, true);
    const res = await upload(d.id, 'broken.MF4', b);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('data.bad-format');
    expect(res.json().message).toMatch(/byte \d+/);
  });

  it('exports history as MF4 that reads back equal: ids, data, flags, µs times, channels, directions', async () => {
    const d = await makeDevice(t, a);
    const T0 = (Math.floor(Date.now() / 3_600_000) - 30) * 3_600_000_000 + 17;
    const base = { fd: false, brs: false, esi: false, rtr: false, err: false, tx: false };
    const sent: CanFrame[] = [];
    for (let i = 0; i < 2000; i++) {
      const kind = i % 10;
      const ts = T0 + i * 1001 + (i % 7);
      const channel = i % 4;
      const tx = i % 3 === 0;
      if (kind === 0)
        sent.push({ ...base, ts, channel, tx, id: 0x100 + (i % 100), ext: false, rtr: true, dlc: i % 9, data: new Uint8Array(0) });
      else if (kind === 1) sent.push({ ...base, ts, channel, tx, id: 0, ext: false, err: true, data: new Uint8Array(0) });
      else if (kind < 5) {
        const len = [12, 16, 64, 5][i % 4];
        sent.push({
          ...base,
          ts,
          channel,
          tx,
          id: 0x18da00f1 + (i % 16),
          ext: true,
          fd: true,
          brs: i % 2 === 0,
          esi: i % 5 === 0,
          data: Uint8Array.from({ length: len }, (_, k) => (i + k) & 255),
        });
      } else
        sent.push({
          ...base,
          ts,
          channel,
          tx,
          id: i % 2 ? 0x7ff : 0x1fffffff,
          ext: i % 2 === 0,
          data: Uint8Array.from({ length: i % 9 }, (_, k) => (i * 3 + k) & 255),
        });
    }
    await ingestFrames(t, a.tenantId, d.id, sent, 1);
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads`,
      headers: { authorization: a.auth },
      payload: { begin_time: Math.floor(T0 / 1000), end_time: Math.ceil(sent[sent.length - 1].ts / 1000) + 1, format: 'mf4' },
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
    expect(st).toMatchObject({ status: 3, output_count: sent.length, format: 'mf4' });
    expect(st.file_name).toMatch(/\.mf4$/);
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads/${id}/file`,
      headers: { authorization: a.auth },
    });
    expect(file.statusCode).toBe(200);
    const bytes = new Uint8Array(file.rawPayload);
    // Finalized, one unsorted group whose cycle counts add up to the frames.
    expect(String.fromCharCode(...bytes.subarray(0, 8))).toBe('MDF     ');
    const [g] = dataGroups(bytes);
    expect(g.groups.reduce((n, x) => n + x.cycles, 0)).toBe(sent.length);
    const back = readLog(bytes);
    expect(back.error).toBeUndefined();
    expect(back.warnings).toEqual([]);
    expect(back.frames).toEqual(sent);
  });
});
