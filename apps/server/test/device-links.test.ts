import { randomBytes } from 'node:crypto';
import { LINK_PROOF_HEADER, linkProof } from '@loggerhead/can/protocol/link-proof.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForDevices, multipart, remoteDevice } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeTenant, publicType, type TenantFixture } from './things.fixtures.ts';

type Device = { id: string; things_key: string };

/**
 * The one-time links a command carries (a recalled file's upload, a firmware download) open only for
 * the device they were issued for: the token in the URL is not enough, the request must carry the
 * device's proof of it (HMAC of the token under its key). A leaked command, or a device that read
 * another's, gets nothing and writes nothing.
 */
describe('one-time links of commands are bound to their device', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  let model: string;
  let stranger: Device; // a device of another tenant
  let neighbour: Device; // a device of the same tenant
  const image = randomBytes(50_000);

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
    model = await publicType(t);
    await listenForDevices(t);
    stranger = await makeDevice(t, await makeTenant(t));
    neighbour = await makeDevice(t, tenant);
    const m = multipart({ version: '7.0.1', model_id: model, type: 'self' }, { name: 'fw.bin', bytes: image });
    const up = await t.app.inject({
      method: 'POST',
      url: `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}/firmwares`,
      headers: { authorization: tenant.auth, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The URL of the command the device was sent for `operation`. */
  const linkOf = async (thingsId: string, operation: string) =>
    (
      await poll(
        () =>
          t.database.raw
            .query<{ url: string }>(
              `select operation_params->>'url' as url from device_commands where things_id = $1 and operation_name = $2 order by created_at desc limit 1`,
              [thingsId, operation],
            )
            .then((r) => r.rows[0]?.url),
        (u) => typeof u === 'string',
      )
    ).replace(/^https?:\/\/[^/]+/, '');

  const proofs = (url: string, own: Device) => ({
    none: {},
    stranger: { [LINK_PROOF_HEADER]: linkProof(stranger.things_key, url) },
    neighbour: { [LINK_PROOF_HEADER]: linkProof(neighbour.things_key, url) },
    // Its own key over another token: a proof is for one link.
    otherLink: { [LINK_PROOF_HEADER]: linkProof(own.things_key, 'f'.repeat(48)) },
    garbage: { [LINK_PROOF_HEADER]: 'not-a-proof' },
  });
  const refusedAs = (res: { statusCode: number; json: () => { code: string } }) => ({ status: res.statusCode, code: res.json().code });

  it('a firmware download needs the upgraded device’s proof', async () => {
    const { d, sim } = await remoteDevice(t, tenant);
    sim.agent.silent.add('common_fn.firmware_upgrade'); // it holds the command: the link stays open
    await sim.connect();
    try {
      const r = await t.app.inject({
        method: 'POST',
        url: `/v1/out-firmware-mgmt/tenants/${tenant.tenantId}/firmwares/${model}/7.0.1/notify`,
        headers: { authorization: tenant.auth },
        payload: { things_ids: [d.id] },
      });
      expect(r.statusCode).toBe(200);
      const url = await linkOf(d.id, 'common_fn.firmware_upgrade');
      const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
      const p = proofs(url, d);
      expect(refusedAs(await get(p.none))).toEqual({ status: 401, code: 'device-link.no-proof' });
      for (const [who, headers] of [
        ['stranger', p.stranger],
        ['neighbour', p.neighbour],
        ['otherLink', p.otherLink],
        ['garbage', p.garbage],
      ] as const)
        expect({ who, ...refusedAs(await get(headers)) }).toEqual({ who, status: 403, code: 'device-link.bad-proof' });
      const ok = await get({ [LINK_PROOF_HEADER]: linkProof(d.things_key, url) });
      expect(ok.statusCode).toBe(200);
      expect(Buffer.compare(ok.rawPayload, image)).toBe(0);
    } finally {
      await sim.close();
    }
  });

  it('a recalled file’s upload needs the recalled device’s proof, and a refused part writes nothing', async () => {
    const d = await makeDevice(t, tenant);
    const task = await t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/recall/files`,
      headers: { authorization: tenant.auth },
      payload: { filename: 'LOG/0001.log', size: 6 },
    });
    expect(task.statusCode).toBe(200);
    const { rows } = await t.database.raw.query<{ token: string }>('select token from recall_tasks where id = $1', [task.json().id]);
    const url = `/v1/filemanager/recall-upload/${rows[0].token}`;
    const p = proofs(url, d);
    const own = { [LINK_PROOF_HEADER]: linkProof(d.things_key, url) };
    const put = (method: 'PUT' | 'POST', headers: Record<string, string>) =>
      t.app.inject({
        method,
        url: `${url}?offset=0&total=6`,
        headers: { 'content-type': 'application/octet-stream', ...headers },
        payload: Buffer.from([1, 2, 3]),
      });
    for (const method of ['PUT', 'POST'] as const) {
      expect(refusedAs(await put(method, p.none))).toEqual({ status: 401, code: 'device-link.no-proof' });
      for (const [who, headers] of Object.entries(p).filter(([k]) => k !== 'none'))
        expect({ method, who, ...refusedAs(await put(method, headers)) }).toEqual({
          method,
          who,
          status: 403,
          code: 'device-link.bad-proof',
        });
    }
    expect(refusedAs(await t.app.inject({ method: 'GET', url, headers: p.stranger }))).toEqual({
      status: 403,
      code: 'device-link.bad-proof',
    });
    expect(refusedAs(await t.app.inject({ method: 'GET', url }))).toEqual({ status: 401, code: 'device-link.no-proof' });
    // Nothing of the refused parts arrived; the device's own part does.
    expect((await t.app.inject({ method: 'GET', url, headers: own })).json()).toEqual({ received: 0 });
    expect((await put('PUT', own)).json()).toEqual({ received: 3 });

    // A new key makes the old proof worthless: the link follows the device's current key.
    const rekey = await t.app.inject({
      method: 'POST',
      url: `/v1/things/tenants/${tenant.tenantId}/things/${d.id}/key`,
      headers: { authorization: tenant.auth },
    });
    const key = rekey.json().things_key as string;
    expect(refusedAs(await t.app.inject({ method: 'GET', url, headers: own }))).toEqual({ status: 403, code: 'device-link.bad-proof' });
    expect((await t.app.inject({ method: 'GET', url, headers: { [LINK_PROOF_HEADER]: linkProof(key, url) } })).json()).toEqual({
      received: 3,
    });
  });
});
