/**
 * Real logs into history: what the readers make of real files reaches the API as stored frames
 * and a list of skipped lines, never as a 500. Upload and "import into history" of a recalled
 * file take the same path; gzip is read transparently; error frames go out as error frames.
 */
import { gzipSync } from 'node:zlib';
import { type CanFrame, makeFrame } from '@loggerhead/can';
import { readLog, writeLog } from '@loggerhead/can/logs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const hex64 = (first: string) => [first, '02', '03', '04', ...Array(60).fill('00')].join(' ');

/**
 * A CANoe-style ASC as it comes from the field: chip status and statistics events, J1939 transport
 * lines, classic lines with CANoe's length/bit-count trailer, 64-byte CANFD lines whose flags field
 * (0x11) lacks the EDL bit, one with a symbolic name, a CANFD remote frame, error frames in both
 * forms, and one broken line (3 data bytes where 8 are announced).
 */
const CANOE_ASC = [
  'date Sam Sep 30 15:06:13.191 2017',
  'base hex  timestamps absolute',
  'internal events logged',
  '// version 9.0.0',
  'Begin Triggerblock Sam Sep 30 15:06:13.191 2017',
  '   0.000000 Start of measurement',
  '   0.015991 CAN 1 Status:chip status error passive - TxErr: 132 RxErr: 0',
  '   1.015991 1  Statistic: D 0 R 0 XD 0 XR 0 E 0 O 0 B 0.00%',
  '   3.098426 1  18EBFF00x       Rx   d 8 01 A0 0F A6 60 3B D1 40  Length = 273910 BitCount = 141 ID = 418119424x',
  '   3.297743 1  J1939TP FEE3p        6    0  0   -   Rx   d 23 A0 0F A6 60 3B D1 40 1F DE 80 25 DF C0 2B E1 00 4B FF FF 3C 0F 00 4B FF',
  '  17.876708 1  6F9             Rx   d 8 05 0C 00 00 00 00 00 00  Length = 240015 BitCount = 124 ID = 1785',
  `  30.506898 CANFD   4 Rx        4EE                                   0 1 f 64 ${hex64('A1')} 64 1331984 11 0 46500250 460a0250 20011736 20010205`,
  `  31.506898 CANFD   4 Rx        1C4D80A7x    AlphaNumericName_2       1 0 f 64 ${hex64('B1')} 64 1331984 11 0 46500250 460a0250 20011736 20010205`,
  '  32.000000 CANFD   3 Tx     50005x                                0 1 5 0 140000 73 200050 7a60 46500250 460a0250 20011736 20010205',
  '  33.000000 1  123             Rx   d 8 01 02 03',
  '  34.000000 2  ErrorFrame Flags = 0xe CodeExt = 0x20a2 Code = 0x82 ID = 0 DLC = 0 Position = 5 Length = 11300',
  '  35.000000 CANFD   5 Tx ErrorFrame Not Acknowledge error, dominant error flag fffe c7 31ca Arb. 556 44 0 0 f 64',
  'End TriggerBlock',
  '',
].join('\r\n');
/** 1-based line of the broken frame above. */
const BROKEN_LINE = 15;
const START_US = Date.UTC(2017, 8, 30, 15, 6, 13, 191) * 1000;

/** What history must hold for CANOE_ASC, as `key` strings. */
const CANOE_FRAMES = [
  `${START_US + 3_098_426}|0|418119424|1|0|0|0|0|0|0|8|01A00FA6603BD140`,
  `${START_US + 17_876_708}|0|1785|0|0|0|0|0|0|0|8|050C000000000000`,
  `${START_US + 30_506_898}|3|1262|0|1|0|1|0|0|0|64|${hex64('A1').replaceAll(' ', '')}`,
  `${START_US + 31_506_898}|3|474841255|1|1|1|0|0|0|0|64|${hex64('B1').replaceAll(' ', '')}`,
  `${START_US + 32_000_000}|2|327685|1|0|0|0|1|0|1|5|`,
  `${START_US + 34_000_000}|1|0|0|0|0|0|0|1|0|0|`,
  `${START_US + 35_000_000}|4|0|0|1|0|0|0|1|1|0|`,
];

interface Row {
  ts: number;
  channel: number;
  id: number;
  ext: boolean;
  fd: boolean;
  brs: boolean;
  esi: boolean;
  rtr: boolean;
  err: boolean;
  tx: boolean;
  dlc: number;
  data: string;
}
const key = (f: Row) => [f.ts, f.channel, f.id, +f.ext, +f.fd, +f.brs, +f.esi, +f.rtr, +f.err, +f.tx, f.dlc, f.data].join('|');
const frameKey = (f: CanFrame) =>
  key({ ...f, dlc: f.rtr ? (f.dlc ?? 0) : f.data.length, data: Buffer.from(f.data).toString('hex').toUpperCase() });

function multipart(name: string, bytes: Uint8Array) {
  const boundary = '----lhlogs';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('real logs into history', () => {
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
    const m = multipart(name, bytes);
    return t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/uploads`,
      headers: { authorization: a.auth, ...m.headers },
      payload: m.payload,
    });
  };
  const history = async (thingsId: string, fromMs: number, toMs: number): Promise<string[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/frames?begin_time=${fromMs}&end_time=${toMs}&page_size=1000`,
      headers: { authorization: a.auth },
    });
    expect(res.statusCode).toBe(200);
    return (res.json().list as Row[]).map(key);
  };
  const exportAs = async (thingsId: string, format: string, fromMs: number, toMs: number): Promise<Buffer> => {
    const base = `/v1/data-mgmt/tenants/${a.tenantId}/things/${thingsId}/downloads`;
    const created = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: a.auth },
      payload: { begin_time: fromMs, end_time: toMs, format },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    const st = await poll(
      async () => (await t.app.inject({ method: 'GET', url: `${base}/${id}`, headers: { authorization: a.auth } })).json(),
      (s) => s.status === 3 || s.status === 7,
    );
    expect(st.status).toBe(3);
    const file = await t.app.inject({ method: 'GET', url: `${base}/${id}/file`, headers: { authorization: a.auth } });
    expect(file.statusCode).toBe(200);
    return file.rawPayload;
  };
  const span = [Math.floor(START_US / 1000), Math.floor(START_US / 1000) + 60_000] as const;

  it('stores a CANoe ASC whole: 64-byte CANFD lines are CAN FD, the broken line is listed with its number', async () => {
    const d = await makeDevice(t, a);
    const res = await upload(d.id, 'trip.asc', new TextEncoder().encode(CANOE_ASC));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      frames: CANOE_FRAMES.length,
      format: 'asc',
      skipped: [{ line: BROKEN_LINE, reason: expect.stringMatching(/data byte/) }],
      skipped_count: 1,
    });
    expect(await history(d.id, ...span)).toEqual(CANOE_FRAMES);
  });

  it.each([
    ['trip.asc.gz', () => new TextEncoder().encode(CANOE_ASC)],
    ['trip.log.gz', () => writeLog(readLog(CANOE_ASC).frames, 'candump')],
    ['trip.blf.gz', () => writeLog(readLog(CANOE_ASC).frames, 'blf')],
    ['trip.trc.gz', () => writeLog(readLog(CANOE_ASC).frames, 'trc')],
    // The content decides, not the name.
    ['download', () => writeLog(readLog(CANOE_ASC).frames, 'blf')],
  ])('reads %s through gzip to the same history', async (name, bytes) => {
    const d = await makeDevice(t, a);
    const res = await upload(d.id, name, gzipSync(bytes()));
    expect(res.statusCode).toBe(200);
    expect(res.json().frames).toBe(CANOE_FRAMES.length);
    // What the intermediate format keeps of the error frames: candump writes an error frame
    // without a class as a bus error (id 0x80), TRC has no CAN FD mark for one.
    const want = CANOE_FRAMES.map((k) => {
      const f = k.split('|');
      if (f[8] !== '1') return k;
      if (name.includes('.log')) f[2] = '128';
      if (name.includes('.trc')) f[4] = '0';
      return f.join('|');
    });
    expect(await history(d.id, ...span)).toEqual(want);
  });

  it('a candump log with 5 bad lines of 6 stores the good one and lists the 5 with their numbers', async () => {
    const d = await makeDevice(t, a);
    const text = [
      '(1700000000.000001) can0 123#0011223344556677889900 R',
      '(1700000000.000002) can0 800#00 R',
      '(1700000000.000003) can0 123#0 R',
      '(1700000000.000004) can0 456#DEADBEEF T',
      'garbage',
      '(1700000000.000006) can0 123##',
    ].join('\n');
    const res = await upload(d.id, 'bad.log', new TextEncoder().encode(text));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ frames: 1, skipped_count: 5 });
    expect(body.skipped.map((s: { line: number }) => s.line)).toEqual([1, 2, 3, 5, 6]);
    expect(body.skipped.every((s: { reason: string }) => s.reason.length > 0)).toBe(true);
    expect(await history(d.id, 1_700_000_000_000, 1_700_000_001_000)).toEqual(['1700000000000004|0|1110|0|0|0|0|0|0|1|4|DEADBEEF']);
  });

  it('lists at most 100 skipped lines but counts them all', async () => {
    const d = await makeDevice(t, a);
    const text = `${'nonsense\n'.repeat(250)}(1700000000.000004) can0 456#01\n`;
    const res = await upload(d.id, 'noisy.log', new TextEncoder().encode(text));
    expect(res.statusCode).toBe(200);
    expect(res.json().frames).toBe(1);
    expect(res.json().skipped).toHaveLength(100);
    expect(res.json().skipped_count).toBe(250);
  });

  it.each([
    [
      'a BLF whose only object claims 0xFFFFFFF0 bytes',
      'broken.blf',
      () => {
        const head = writeLog([], 'blf').slice(0, 144);
        const obj = new Uint8Array(64);
        const dv = new DataView(obj.buffer);
        obj.set(new TextEncoder().encode('LOBJ'));
        dv.setUint16(4, 32, true);
        dv.setUint16(6, 1, true);
        dv.setUint32(8, 0xfffffff0, true);
        dv.setUint32(12, 101, true);
        const out = new Uint8Array(head.length + obj.length);
        out.set(head);
        out.set(obj, head.length);
        return out;
      },
      { offset: 144 },
    ],
    [
      'a candump log of nothing but bad lines',
      'bad.log',
      () => new TextEncoder().encode('(1.0) can0 XYZ#00\n(2.0) can0 123#0\n'),
      { line: 1 },
    ],
    [
      'an ASC whose frame lines are all broken',
      'bad.asc',
      () => new TextEncoder().encode(CANOE_ASC.split('\r\n').slice(0, 6).concat('   1.0 1  123  Rx d 8 01').join('\n')),
      { line: 7 },
    ],
    [
      'a TRC whose lines are all broken',
      'bad.trc',
      () => new TextEncoder().encode(';$FILEVERSION=2.1\r\n      1      1.000 DT 1 0123 Rx - 8 01\r\n'),
      { line: 2 },
    ],
  ])('%s is refused with 400 naming where', async (_what, name, bytes, at) => {
    const d = await makeDevice(t, a);
    for (const b of [bytes(), gzipSync(bytes())]) {
      const res = await upload(d.id, name, b);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'data.bad-format', details: at });
      expect(res.json().message).toMatch('line' in at ? `line ${at.line}` : `byte ${at.offset}`);
    }
  });

  it('a gzip file that is no gzip after its magic is refused with 400', async () => {
    const d = await makeDevice(t, a);
    const res = await upload(d.id, 'x.log.gz', Uint8Array.of(0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('data.bad-format');
  });

  it('exports error frames as error frames, with their direction and CAN FD mark', async () => {
    const d = await makeDevice(t, a);
    const t0 = 1_700_000_100_000_000;
    const src = [
      makeFrame({ ts: t0, id: 0, err: true, tx: true, data: new Uint8Array(8) }),
      makeFrame({ ts: t0 + 10, channel: 1, id: 0, err: true, fd: true, data: new Uint8Array(0) }),
      makeFrame({ ts: t0 + 20, id: 0x123, data: Uint8Array.of(1, 2) }),
    ];
    expect((await upload(d.id, 'err.log', writeLog(src, 'candump'))).statusCode).toBe(200);
    const range = [Math.floor(t0 / 1000), Math.floor(t0 / 1000) + 1] as const;
    const candump = (await exportAs(d.id, 'candump', ...range)).toString();
    // python-can reads an error frame only with an error class set: the bus-error class 0x80.
    expect(candump.split('\n').slice(0, 2)).toEqual([
      '(1700000100.000000) can0 20000080#0000000000000000 T',
      '(1700000100.000010) can1 20000080##0 R',
    ]);
    for (const format of ['asc', 'blf', 'trc'] as const) {
      const back = readLog(await exportAs(d.id, format, ...range), format);
      expect(back.error).toBeUndefined();
      const errs = back.frames.filter((f) => f.err).map((f) => ({ tx: f.tx, fd: f.fd, channel: f.channel }));
      // TRC has no CAN FD mark for error frames.
      expect(errs, format).toEqual([
        { tx: true, fd: false, channel: 0 },
        { tx: false, fd: format !== 'trc', channel: 1 },
      ]);
    }
  });

  it('names an export after the device, its ID and the time range, in any script', async () => {
    const d = await makeDevice(t, a, { name: '冷链车 7' });
    expect((await upload(d.id, 'trip.asc', new TextEncoder().encode(CANOE_ASC))).statusCode).toBe(200);
    const base = `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/downloads`;
    const created = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { authorization: a.auth },
      payload: { begin_time: span[0], end_time: span[1], format: 'trc' },
    });
    const id = created.json().id;
    const st = await poll(
      async () => (await t.app.inject({ method: 'GET', url: `${base}/${id}`, headers: { authorization: a.auth } })).json(),
      (s) => s.status === 3 || s.status === 7,
    );
    const name = `冷链车 7_${d.third_things_id}_20170930T150613Z-20170930T150713Z.trc`;
    expect(st.file_name).toBe(name);
    const file = await t.app.inject({ method: 'GET', url: `${base}/${id}/file`, headers: { authorization: a.auth } });
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
  });

  it('exports TRC that reads back to the history it came from', async () => {
    const d = await makeDevice(t, a);
    expect((await upload(d.id, 'trip.asc', new TextEncoder().encode(CANOE_ASC))).statusCode).toBe(200);
    const back = readLog(await exportAs(d.id, 'trc', ...span), 'trc');
    expect(back.format).toBe('trc');
    expect(back.skipped).toBe(0);
    expect(back.frames.filter((f) => !f.err).map(frameKey)).toEqual(CANOE_FRAMES.filter((k) => k.split('|')[8] === '0'));
  });
});

describe.skipIf(!!process.env.TEST_MQTT_URL)('import into history of a recalled file', () => {
  let t: TestApp;
  let a: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.ctx.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('imports a recalled CANoe ASC like an upload: 200 with its frames and the skipped line', async () => {
    const { d, sim } = await remoteDevice(t, a);
    const bytes = new TextEncoder().encode(CANOE_ASC);
    sim.sd.put('LOG/trip.asc', bytes, 1_700_000_000_000);
    await sim.connect();
    try {
      const base = `/v1/things/tenants/${a.tenantId}/things/${d.id}/recall`;
      const req = (method: 'GET' | 'POST', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: { authorization: a.auth }, ...(payload ? { payload } : {}) });
      const task = (await req('POST', `${base}/files`, { filename: 'LOG/trip.asc', size: bytes.length })).json();
      const done = await poll(
        async () => (await req('GET', `${base}/tasks/${task.id}`)).json(),
        (r) => ['done', 'failed', 'timeout'].includes(r.state),
        { ms: 10_000 },
      );
      expect(done.state).toBe('done');
      const imp = await req('POST', `/v1/filemanager/tenants/${a.tenantId}/files/import`, { name: `${d.id}_LOG_trip.asc` });
      expect(imp.statusCode).toBe(200);
      expect(imp.json()).toMatchObject({ frames: CANOE_FRAMES.length, skipped: [{ line: BROKEN_LINE }], skipped_count: 1 });
    } finally {
      await sim.close();
    }
  });
});

describe('upload size bounds', () => {
  let t: TestApp;
  let a: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp({ maxUploadBytes: 16 * 1024 });
    a = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const upload = async (name: string, bytes: Uint8Array) => {
    const d = await makeDevice(t, a);
    const m = multipart(name, bytes);
    return t.app.inject({
      method: 'POST',
      url: `/v1/data-mgmt/tenants/${a.tenantId}/things/${d.id}/uploads`,
      headers: { authorization: a.auth, ...m.headers },
      payload: m.payload,
    });
  };
  const candump = (n: number) =>
    new TextEncoder().encode(
      Array.from({ length: n }, (_, i) => `(1700000000.${String(i).padStart(6, '0')}) can0 123#0011223344556677 R\n`).join(''),
    );

  it('refuses a file past MAX_UPLOAD_MB with 413, read as a stream or not', async () => {
    const res = await upload('big.log', candump(1000));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('http.413');
  });

  it('refuses a gzip file that inflates past 4 × MAX_UPLOAD_MB with 413, and takes one within it', async () => {
    const over = gzipSync(candump(2000));
    expect(over.length).toBeLessThan(16 * 1024);
    const res = await upload('big.log.gz', over);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'upload.too-large', message: expect.stringMatching(/inflated/) });
    const within = await upload('ok.log.gz', gzipSync(candump(1000)));
    expect(within.statusCode).toBe(200);
    expect(within.json().frames).toBe(1000);
  });
});
