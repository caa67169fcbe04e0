import { createHash, randomBytes } from 'node:crypto';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { SimulatedEcu } from '@loggerhead/simulator/ecu-sim.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandIn, listenForDevices, multipart, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

/**
 * Every remote operation against one simulated logger, end to end over MQTT and HTTP:
 * CAN command, config write and read back, file recall and download, firmware upgrade, DTCs, ECU flashing.
 */
describe.skipIf(!!process.env.TEST_MQTT_URL)('remote operations with the simulator', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    await listenForDevices(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('plays every remote operation on one logger', async () => {
    const auth = { authorization: tenant.auth };
    const { d, sim } = await remoteDevice(t, tenant);
    const unlock = {
      format: 'loggerhead-unlock/1',
      level: 1,
      steps: [
        { op: 'add', hex: '13579BDF' },
        { op: 'rotr', bits: 3 },
      ],
    };
    const ecu = new SimulatedEcu({
      name: 'VCU',
      requestId: 0x7e2,
      responseId: 0x7ea,
      unlock: unlock as never,
      dtcs: [{ code: 0x010100, status: 0x08 }],
    });
    sim.uds.ecus.push(ecu);
    const log = writeLog(frames(500, 1_700_000_000_000_000), 'candump');
    sim.sd.put('trip.log', log, 1_700_000_000_000);
    await sim.connect();
    try {
      // CAN command.
      const can = await t.app.inject({
        method: 'POST',
        url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/messages`,
        headers: auth,
        payload: { operation_name: 'common_fn.send_can', operation_params: { frames: [{ id: '0x321', data: 'DEADBEEF' }] } },
      });
      await commandIn(t.app, tenant, d.id, can.json().correlation_id, ['answered']);
      expect(sim.bus.sent.map((f) => [f.id, Buffer.from(f.data).toString('hex')])).toEqual([[0x321, 'deadbeef']]);

      // Config write, then read back from the device.
      const cfg = `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/config`;
      expect(
        (await t.app.inject({ method: 'PUT', url: cfg, headers: auth, payload: { pretrigger_frames: 100_000, resumable_cache: 1 } }))
          .statusCode,
      ).toBe(200);
      const back = await t.app.inject({ method: 'GET', url: `${cfg}/device`, headers: auth });
      expect(back.json().config).toMatchObject({ pretrigger_frames: 100_000, resumable_cache: 1 });

      // Recall a file and download it.
      const rec = `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/recall`;
      const task = (await t.app.inject({ method: 'POST', url: `${rec}/files`, headers: auth, payload: { filename: 'trip.log' } })).json();
      const done = await poll(
        async () => (await t.app.inject({ method: 'GET', url: `${rec}/tasks/${task.id}`, headers: auth })).json(),
        (x) => x.state !== 'sending' && x.state !== 'device' && x.state !== 'fetching',
        { ms: 10_000 },
      );
      expect(done.state).toBe('done');
      const dl = await t.app.inject({ method: 'GET', url: done.url, headers: auth });
      expect(createHash('sha256').update(dl.rawPayload).digest('hex')).toBe(createHash('sha256').update(log).digest('hex'));

      // Firmware upgrade to flash success.
      const image = randomBytes(50_000);
      const m = multipart({ version: '5.0.0', model_id: await publicType(t), type: 'self' }, { name: 'fw.bin', bytes: image });
      const fw = await t.app.inject({
        method: 'POST',
        url: `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}/firmwares`,
        headers: { ...auth, ...m.headers },
        payload: m.payload,
      });
      expect(fw.statusCode).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}/firmwares/${await publicType(t)}/5.0.0/notify`,
        headers: auth,
        payload: { things_ids: [d.id] },
      });
      const [up] = await poll(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}/things/${d.id}/upgrades`,
              headers: auth,
            })
          ).json(),
        (l) => l[0]?.state !== 'busy',
        { ms: 10_000 },
      );
      expect(up.state).toBe('flash success');
      expect(Buffer.from(sim.firmware.image ?? []).equals(image)).toBe(true);

      // DTCs and ECU flashing.
      const file = async (type: string, name: string, bytes: Uint8Array) => {
        const f = multipart({ type, name }, { name, bytes });
        return (
          await t.app.inject({
            method: 'POST',
            url: `/v1/single-candtu/tenants/${tenant.tenantId}/files`,
            headers: { ...auth, ...f.headers },
            payload: f.payload,
          })
        ).json().id;
      };
      const ecuImage = randomBytes(3000);
      const ecuRow = (
        await t.app.inject({
          method: 'POST',
          url: `/v1/single-candtu/tenants/${tenant.tenantId}/ecus`,
          headers: auth,
          payload: {
            name: 'VCU',
            physical_address: 0x7e2,
            response_address: 0x7ea,
            dtc_file_id: await file('dtc', 'vcu-codes', Buffer.from('P0101,MAF circuit')),
            firmware_file_id: await file('firmware', 'vcu-fw', ecuImage),
            unlock_file_id: await file('unlock', 'vcu-unlock', Buffer.from(JSON.stringify(unlock))),
          },
        })
      ).json();
      const uds = `/v1/single-candtu/tenants/${tenant.tenantId}/things/${d.id}`;
      const dtcs = await t.app.inject({
        method: 'POST',
        url: `${uds}/uds/dtcs/read`,
        headers: auth,
        payload: { transport: { ecu_id: ecuRow.id } },
      });
      expect(dtcs.json().dtcs).toMatchObject([{ code: 'P0101-00', name: 'MAF circuit' }]);
      await t.app.inject({ method: 'POST', url: `${uds}/uds/dtcs/clear`, headers: auth, payload: { transport: { ecu_id: ecuRow.id } } });
      expect(ecu.dtcs).toEqual([]);
      const job = (
        await t.app.inject({
          method: 'POST',
          url: `${uds}/ecu-upgrade`,
          headers: auth,
          payload: { transport: { ecu_id: ecuRow.id }, address: 0x1000 },
        })
      ).json();
      const flashed = await poll(
        async () => (await t.app.inject({ method: 'GET', url: `${uds}/ecu-upgrade/${job.id}`, headers: auth })).json(),
        (j) => j.state !== 'running',
        { ms: 30_000 },
      );
      expect(flashed.state).toBe('done');
      expect(ecu.verified).toBe(true);
      expect(Buffer.from(ecu.flashed ?? []).equals(ecuImage)).toBe(true);
    } finally {
      await sim.close();
    }
  });
});
