import { randomBytes } from 'node:crypto';
import { negativeResponse, Sid } from '@loggerhead/can/uds/uds.ts';
import { ErrorCodes } from '@loggerhead/contract';
import { SimulatedEcu } from '@loggerhead/simulator/ecu-sim.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeSubUser, makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

const unlockFile = {
  format: 'loggerhead-unlock/1',
  level: 1,
  steps: [
    { op: 'xor', hex: '5A3C96E1' },
    { op: 'add', hex: '01020304' },
    { op: 'rotl', bits: 11 },
  ],
};

describe.skipIf(!!process.env.TEST_MQTT_URL)('UDS diagnosis and ECU upgrade through the logger', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let ecuId: string;
  let badEcuId: string;
  const image = randomBytes(6000);
  beforeAll(async () => {
    // Periodic recovery of interrupted jobs every second (a third of the lease).
    t = await createTestApp({ jobLeaseSeconds: 3 });
    tenant = await makeTenant(t);
    const up = async (type: string, name: string, body: string | Uint8Array) => {
      const m = multipart({ type, name }, { name, bytes: typeof body === 'string' ? Buffer.from(body) : body });
      const r = await t.app.inject({
        method: 'POST',
        url: `/v1/single-candtu/tenants/${tenant.tenantId}/files`,
        headers: { authorization: tenant.auth, ...m.headers },
        payload: m.payload,
      });
      return r.json().id as string;
    };
    const dtc = await up('dtc', 'bms.csv', 'code,name\nP0A80,Replace hybrid battery pack\nU0100,Lost communication with ECM\n');
    const fw = await up('firmware', 'bms-2.0.bin', image);
    const unlock = await up('unlock', 'bms-unlock.json', JSON.stringify(unlockFile));
    const wrong = await up('unlock', 'wrong-unlock.json', JSON.stringify({ ...unlockFile, steps: [{ op: 'not' }] }));
    const mk = async (name: string, unlockId: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/single-candtu/tenants/${tenant.tenantId}/ecus`,
          headers: { authorization: tenant.auth },
          payload: {
            name,
            physical_address: 0x7e0,
            response_address: 0x7e8,
            function_address: 0x7df,
            dtc_file_id: dtc,
            firmware_file_id: fw,
            unlock_file_id: unlockId,
          },
        })
      ).json().id as string;
    ecuId = await mk('BMS', unlock);
    badEcuId = await mk('BMS (wrong key)', wrong);
  });
  afterAll(async () => {
    await t?.close();
  });
  const url = (thingsId: string, rest: string) => `/v1/single-candtu/tenants/${tenant.tenantId}/things/${thingsId}${rest}`;
  const post = (thingsId: string, rest: string, payload: unknown, auth = tenant.auth) =>
    t.app.inject({ method: 'POST', url: url(thingsId, rest), headers: { authorization: auth }, payload: payload as object });
  const simEcu = () =>
    new SimulatedEcu({
      name: 'BMS',
      requestId: 0x7e0,
      responseId: 0x7e8,
      functionalId: 0x7df,
      unlock: unlockFile as never,
      pendingOnSlowRoutines: 1,
      dtcs: [
        { code: 0x0a8013, status: 0x09 },
        { code: 0xc10087, status: 0x08 },
        { code: 0x012300, status: 0x04 },
      ],
      dids: { 61840: new TextEncoder().encode('LH0SIMVIN00000001') },
    });

  it('relays a request, reads DTCs with names from the fault-code file, and clears them', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const ecu = simEcu();
    sim.uds.ecus.push(ecu);
    await sim.connect();
    try {
      const vin = await post(d.id, '/uds/request', { transport: { ecu_id: ecuId, channel: 0 }, pdu: '22 F1 90' });
      expect(vin.statusCode).toBe(200);
      expect(vin.json()).toMatchObject({ request: '22 F1 90', positive: true, nrc: null });
      expect(Buffer.from(vin.json().response.replaceAll(' ', ''), 'hex').subarray(3).toString()).toBe('LH0SIMVIN00000001');
      const neg = await post(d.id, '/uds/request', { transport: { ecu_id: ecuId }, pdu: '2E F1 90 00' });
      expect(neg.json()).toMatchObject({ positive: false, nrc: 0x33, nrc_name: 'securityAccessDenied' });

      const read = await post(d.id, '/uds/dtcs/read', { transport: { ecu_id: ecuId }, status_mask: 0x09 });
      expect(read.statusCode).toBe(200);
      expect(read.json().dtcs).toEqual([
        {
          code: 'P0A80-13',
          hex: '0A8013',
          name: 'Replace hybrid battery pack',
          status: 0x09,
          status_names: ['testFailed', 'confirmedDTC'],
        },
        { code: 'U0100-87', hex: 'C10087', name: 'Lost communication with ECM', status: 0x08, status_names: ['confirmedDTC'] },
      ]);
      const clear = await post(d.id, '/uds/dtcs/clear', { transport: { ecu_id: ecuId } });
      expect(clear.json()).toEqual({ cleared: true });
      expect(ecu.dtcs).toEqual([]);
      expect((await post(d.id, '/uds/dtcs/read', { transport: { ecu_id: ecuId } })).json().dtcs).toEqual([]);
      // An address nobody answers on.
      const none = await post(d.id, '/uds/request', {
        transport: { request_address: 0x7e1, response_address: 0x7e9, timeout_ms: 100 },
        pdu: '3E 00',
      });
      expect(none.statusCode).toBe(504);
      expect(none.json().code).toBe('uds.no-response');
    } finally {
      await sim.close();
    }
  });

  it("an ECU's negative answer to a DTC read or clear is a 422 naming its NRC, and nothing is cleared", async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const ecu = simEcu();
    // This ECU refuses to clear the DTC group asked for, and to report DTCs in its current state.
    const answer = ecu.handle.bind(ecu);
    ecu.handle = (req) =>
      req[0] === Sid.clearDtc
        ? [negativeResponse(Sid.clearDtc, 0x31)]
        : req[0] === Sid.readDtc
          ? [negativeResponse(Sid.readDtc, 0x22)]
          : answer(req);
    sim.uds.ecus.push(ecu);
    await sim.connect();
    try {
      const clear = await post(d.id, '/uds/dtcs/clear', { transport: { ecu_id: ecuId }, group: 0x0a8013 });
      expect(clear.statusCode).toBe(422);
      expect(clear.json()).toEqual({
        code: 'uds.negative-response',
        message: 'The ECU refused: requestOutOfRange',
        details: { nrc: 0x31, name: 'requestOutOfRange' },
      });
      expect(ecu.dtcs).toHaveLength(3);
      const read = await post(d.id, '/uds/dtcs/read', { transport: { ecu_id: ecuId }, status_mask: 0x09 });
      expect(read.statusCode).toBe(422);
      expect(read.json()).toMatchObject({ code: 'uds.negative-response', details: { nrc: 0x22, name: 'conditionsNotCorrect' } });
    } finally {
      await sim.close();
    }
  });

  it('flashes an ECU image that the simulated ECU verifies; a wrong unlock file fails at the key step', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const ecu = simEcu();
    sim.uds.ecus.push(ecu);
    await sim.connect();
    try {
      const job = await post(d.id, '/ecu-upgrade', { transport: { ecu_id: ecuId, fd: true }, address: 0x8000 });
      expect(job.statusCode).toBe(200);
      const busy = await post(d.id, '/ecu-upgrade', { transport: { ecu_id: ecuId }, address: 0x8000 });
      expect(busy.statusCode).toBe(409);
      const steps = new Set<string>();
      const done = await poll(
        async () => {
          const j = (
            await t.app.inject({ method: 'GET', url: url(d.id, `/ecu-upgrade/${job.json().id}`), headers: { authorization: tenant.auth } })
          ).json();
          steps.add(j.step);
          return j;
        },
        (j) => j.state !== 'running',
        { ms: 30_000 },
      );
      expect(done).toMatchObject({ state: 'done', progress: 100, reason: null });
      expect(ecu.verified).toBe(true);
      expect(Buffer.from(ecu.flashed ?? []).equals(image)).toBe(true);
      expect(steps.has('transfer')).toBe(true);

      const bad = await post(d.id, '/ecu-upgrade', { transport: { ecu_id: badEcuId }, address: 0x8000 });
      const failed = await poll(
        async () =>
          (
            await t.app.inject({ method: 'GET', url: url(d.id, `/ecu-upgrade/${bad.json().id}`), headers: { authorization: tenant.auth } })
          ).json(),
        (j) => j.state !== 'running',
        { ms: 30_000 },
      );
      expect(failed).toMatchObject({ state: 'failed', step: 'security-key', reason: 'security-key: negative response 0x35 invalidKey' });
    } finally {
      await sim.close();
    }
  });

  it('an ECU upgrade can be cancelled and says where it stopped', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    const ecu = simEcu();
    sim.uds.ecus.push(ecu);
    await sim.connect();
    try {
      const job = (await post(d.id, '/ecu-upgrade', { transport: { ecu_id: ecuId }, address: 0x8000 })).json();
      await post(d.id, `/ecu-upgrade/${job.id}/cancel`, {});
      const j = await poll(
        async () =>
          (await t.app.inject({ method: 'GET', url: url(d.id, `/ecu-upgrade/${job.id}`), headers: { authorization: tenant.auth } })).json(),
        (x) => x.state !== 'running',
        { ms: 30_000 },
      );
      expect(j.state).toBe('cancelled');
      expect(j.reason).toMatch(/^cancelled at /);
      expect(ecu.flashed).toBeNull();
    } finally {
      await sim.close();
    }
  });

  it('a flash job of a server copy that is gone is failed with the reason, not left running', async () => {
    const { d } = await remoteDevice(t, tenant);
    // Started by a copy that no longer runs (no lease in server_copies): this copy is the only one.
    const { rows } = await t.database.raw.query<{ id: string }>(
      `insert into ecu_flash_jobs (tenant_id, things_id, ecu_id, firmware_file_id, channel, state, step, owner)
       select $1, $2, id, firmware_file_id, 3, 'running', 'transfer', gen_random_uuid() from ecus where id = $3 returning id`,
      [tenant.tenantId, d.id, ecuId],
    );
    const j = await poll(
      async () =>
        (
          await t.app.inject({ method: 'GET', url: url(d.id, `/ecu-upgrade/${rows[0].id}`), headers: { authorization: tenant.auth } })
        ).json(),
      (x) => x.state !== 'running',
      { ms: 10_000 },
    );
    expect(j).toMatchObject({ state: 'failed', step: 'transfer', reason: ErrorCodes['job.interrupted'].message });
  });

  it('CAN FD on a logger without it is refused; read-only sub-users cannot diagnose or flash', async () => {
    const { d } = await remoteDevice(t, tenant, { info_model_id: await publicType(t, 'CANDTU-100') });
    const fd = await post(d.id, '/uds/request', { transport: { ecu_id: ecuId, fd: true }, pdu: '3E 00' });
    expect(fd.statusCode).toBe(400);
    expect(fd.json().code).toBe('uds.canfd-not-supported');
    const raw = await t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/messages`,
      headers: { authorization: tenant.auth },
      payload: { operation_name: 'uds.request', operation_params: { tx_id: 0x7e0, rx_id: 0x7e8, fd: true, pdu: '3E 00' } },
    });
    expect(raw.json().code).toBe('uds.canfd-not-supported');
    const bad = await post(d.id, '/uds/request', { transport: { ecu_id: ecuId, fill_byte: 256, st_min: 128 }, pdu: '3E0' });
    expect(bad.statusCode).toBe(400);

    const reader = await makeSubUser(
      t,
      tenant,
      ['candtu:uds:execute', 'candtu:ecu:upgrade', 'candtu:ecu:query'],
      [{ thingsId: d.id, access: 'read' }],
    );
    expect((await post(d.id, '/uds/request', { transport: { ecu_id: ecuId }, pdu: '3E 00' }, reader.auth)).statusCode).toBe(403);
    expect((await post(d.id, '/uds/dtcs/clear', { transport: { ecu_id: ecuId } }, reader.auth)).statusCode).toBe(403);
    expect((await post(d.id, '/ecu-upgrade', { transport: { ecu_id: ecuId }, address: 0 }, reader.auth)).statusCode).toBe(403);
    const other = await makeTenant(t);
    const cross = await t.app.inject({
      method: 'POST',
      url: `/v1/single-candtu/tenants/${other.tenantId}/things/${d.id}/uds/request`,
      headers: { authorization: other.auth },
      payload: { transport: { request_address: 0x7e0, response_address: 0x7e8 }, pdu: '3E 00' },
    });
    expect(cross.statusCode).toBe(404);
  });
});
