import { randomUUID } from 'node:crypto';
import { childUpTopic } from '@loggerhead/can/protocol/topics.ts';
import { childIds, RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerUrl } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { connectDevice } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Gateways and their children (spec §3 parent_things_id, §7 things service children, parents,
 * gateways): a gateway forwards its children's uplinks on its own connection, each stored under the
 * child's own thing, and only for its own children; a child's downlinks reach it through its gateway.
 */
describe.skipIf(!!process.env.TEST_MQTT_URL)('gateways and children', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let modelId: string;
  let blocks: unknown[];
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    const blk = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/function-blocks`, a.auth, {
      name: 'meter',
      display_name: 'Meter',
      json_schema: {
        status: [
          { identifier: 'reading', name: 'Reading', data_type: 1, read_only: true, default_value: 0 },
          { identifier: 'limit', name: 'Limit', data_type: 1, default_value: 10 },
        ],
      },
    });
    const model = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/info-models`, a.auth, {
      name: 'Meter',
      info_model_fn_blocks: [blk.json().id],
    });
    modelId = model.json().id;
    blocks = (await req('GET', `/mapping-mgmt/tenants/${a.tenantId}/info-models/${modelId}/function-blocks`, a.auth)).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) {
    return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  }
  const things = (tenant: TenantFixture, rest = '') => `/things/tenants/${tenant.tenantId}/things${rest}`;
  const twin = async (id: string) => (await req('GET', things(a, `/${id}/digital-twin`), a.auth)).json();

  it('stores each of three simulated children’s data under its own thing; refuses a device that is not its child', async () => {
    const gw = await makeDevice(t, a, { info_model_id: modelId, name: 'Gateway' });
    const ids = childIds(gw.third_things_id, 3);
    const kids: { id: string; third_things_id: string }[] = [];
    for (const [i, id] of ids.entries())
      kids.push(await makeDevice(t, a, { third_things_id: id, name: `Meter ${i + 1}`, info_model_id: modelId, parent_things_id: gw.id }));
    const stranger = await makeDevice(t, a, { info_model_id: modelId, name: 'Not a child' });

    // The routes: its children, its gateways, each child's parents.
    const children = (await req('GET', things(a, `/${gw.id}/children`), a.auth)).json();
    expect(children.total).toBe(3);
    expect(children.list.map((c: { third_things_id: string }) => c.third_things_id).sort()).toEqual([...ids].sort());
    const gateways = (await req('GET', things(a, '/gateways'), a.auth)).json();
    expect(gateways.list.map((g: { id: string }) => g.id)).toEqual([gw.id]);
    const parents = (await req('GET', things(a, `/${kids[0].id}/parents`), a.auth)).json();
    expect(parents.map((p: { id: string }) => p.id)).toEqual([gw.id]);

    const sim = new RemoteDevice({
      broker: brokerUrl(t),
      deviceId: gw.third_things_id,
      key: gw.things_key,
      model: blocks as never,
      children: ids,
    });
    await sim.connect();
    try {
      // Each child reads differently; the gateway sends all three on its one connection.
      sim.children.forEach((c, i) => {
        c.state.meter.reading = 100 + i;
      });
      for (const c of sim.children) await c.report();
      for (const [i, k] of kids.entries()) {
        const tw = await poll(
          () => twin(k.id),
          (x) => x.reported?.['meter.reading'] !== undefined,
          { ms: 10_000 },
        );
        expect(tw.reported['meter.reading'].value).toBe(100 + i);
        expect(tw.reported['meter.limit'].value).toBe(10);
      }
      // The children are online through their gateway's status messages; the gateway's own twin is untouched.
      for (const k of kids) expect((await req('GET', things(a, `/${k.id}`), a.auth)).json().is_online).toBe(true);
      expect((await twin(gw.id)).reported).toEqual({});

      // A desired value for a child goes down through the gateway, and comes back acknowledged.
      const put = await req('PUT', things(a, `/${kids[1].id}/digital-twin/desired`), a.auth, { desired: { 'meter.limit': 42 } });
      expect(put.statusCode).toBe(200);
      const acked = await poll(
        () => twin(kids[1].id),
        (x) => x.acked_version === 1 && x.reported['meter.limit']?.value === 42,
        { ms: 10_000 },
      );
      expect(acked.ack_code).toBe(0);
      expect(sim.children[1].state.meter.limit).toBe(42);
      expect(sim.children[0].state.meter.limit).toBe(10);
      expect((await twin(kids[0].id)).reported['meter.limit'].value).toBe(10);

      // An edge rule for a child goes down through the gateway and the child answers through it:
      // accepted, and held by that child only.
      const rule = (
        await req('POST', `/alert-mgmt/tenants/${a.tenantId}/edge-computing-rules`, a.auth, {
          name: 'Reading filter',
          info_model_id: modelId,
          kind: 'filter',
          field: 'meter.reading',
          threshold: 1000,
        })
      ).json();
      const issued = await req('POST', `/alert-mgmt/tenants/${a.tenantId}/edge-computing-rules/${rule.id}/issuance`, a.auth, {
        things_ids: [kids[2].id],
        timeout_ms: 5000,
      });
      expect(issued.json().issued).toBe(1);
      const issuance = await poll(
        async () =>
          (
            await req(
              'GET',
              `/alert-mgmt/tenants/${a.tenantId}/edge-computing-rules/issuances?rule_id=${rule.id}&things_id=${kids[2].id}`,
              a.auth,
            )
          ).json(),
        (p) => ['accepted', 'rejected', 'timeout'].includes(p.list[0]?.state),
        { ms: 10_000 },
      );
      expect(issuance.list[0]).toMatchObject({ state: 'accepted', code: 0, command_state: 'answered' });
      expect(sim.children[2].edge.held.get(rule.id)?.rule).toMatchObject({ field: 'meter.reading', threshold: 1000 });
      expect(sim.children[0].edge.held.size).toBe(0);

      // A device that is not its child: refused (and counted on the gateway), nothing stored under it.
      await sim.device.client?.publishAsync(
        childUpTopic(gw.third_things_id, stranger.third_things_id, 'telemetry'),
        JSON.stringify({ properties: { meter: { reading: 7 } } }),
        { qos: 1 },
      );
      const status = await poll(
        async () => (await req('GET', things(a, `/${gw.id}/status`), a.auth)).json(),
        (s) => s.malformed_count >= 1,
        { ms: 10_000 },
      );
      expect(status.malformed_count).toBe(1);
      expect((await twin(stranger.id)).reported).toEqual({});
      const events = await poll(
        async () => (await req('GET', things(a, `/${gw.id}/events?kind=malformed`), a.auth)).json(),
        (e) => e.total >= 1,
        { ms: 10_000 },
      );
      expect(JSON.stringify(events.list[0].detail)).toContain(`${stranger.third_things_id} is not a child of this gateway`);
    } finally {
      await sim.close();
    }
  });

  it('forwards for a device only while it is the gateway’s child, and only its own', async () => {
    const gw = await makeDevice(t, a, { info_model_id: modelId, name: 'Gateway 2' });
    const other = await makeDevice(t, a, { info_model_id: modelId, name: 'Other gateway' });
    const kid = await makeDevice(t, a, { info_model_id: modelId, name: 'Kid' });
    const theirs = await makeDevice(t, a, { info_model_id: modelId, name: 'Their kid', parent_things_id: other.id });
    // Bound through the children route, unbound again.
    const bound = await req('POST', things(a, `/${gw.id}/children`), a.auth, { things_ids: [kid.id] });
    expect(bound.statusCode).toBe(200);
    expect(bound.json().list.map((c: { id: string }) => c.id)).toEqual([kid.id]);

    const c = await connectDevice(brokerUrl(t), gw.third_things_id, gw.things_key);
    try {
      const send = (child: string, reading: number) =>
        c.publishAsync(childUpTopic(gw.third_things_id, child, 'telemetry'), JSON.stringify({ properties: { meter: { reading } } }), {
          qos: 1,
        });
      await send(kid.third_things_id, 5);
      await send(theirs.third_things_id, 6);
      await poll(
        () => twin(kid.id),
        (x) => x.reported?.['meter.reading']?.value === 5,
        { ms: 10_000 },
      );
      expect((await twin(theirs.id)).reported).toEqual({});

      expect((await req('DELETE', things(a, `/${gw.id}/children/${kid.id}`), a.auth)).statusCode).toBe(204);
      expect((await req('GET', things(a, `/${kid.id}`), a.auth)).json().parent_things_id).toBeNull();
      await send(kid.third_things_id, 9);
      const status = await poll(
        async () => (await req('GET', things(a, `/${gw.id}/status`), a.auth)).json(),
        (s) => s.malformed_count >= 2,
        { ms: 10_000 },
      );
      expect(status.malformed_count).toBe(2);
      expect((await twin(kid.id)).reported['meter.reading'].value).toBe(5);
    } finally {
      await c.endAsync();
    }
  });

  it('checks the hierarchy: no cycles, tenant scoping, write access to gateway and children', async () => {
    const gw = await makeDevice(t, a, { info_model_id: modelId });
    const kid = await makeDevice(t, a, { info_model_id: modelId, parent_things_id: gw.id });
    const grandkid = await makeDevice(t, a, { info_model_id: modelId, parent_things_id: kid.id });
    expect((await req('GET', things(a, `/${grandkid.id}/parents`), a.auth)).json().map((p: { id: string }) => p.id)).toEqual([
      kid.id,
      gw.id,
    ]);
    // A device under its own grandchild, or under itself: refused, nothing changed.
    const cycle = await req('POST', things(a, `/${grandkid.id}/children`), a.auth, { things_ids: [gw.id] });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().code).toBe('things.parent-cycle');
    const self = await req('PUT', things(a, `/${gw.id}`), a.auth, { parent_things_id: gw.id });
    expect(self.json().code).toBe('things.parent-cycle');
    expect((await req('GET', things(a, `/${gw.id}`), a.auth)).json().parent_things_id).toBeNull();

    // Another tenant neither sees the children nor binds its devices to this gateway or the reverse.
    expect((await req('GET', `/things/tenants/${b.tenantId}/things/${gw.id}/children`, b.auth)).statusCode).toBe(404);
    expect((await req('GET', things(a, `/${gw.id}/children`), b.auth)).statusCode).toBe(403);
    const theirs = await makeDevice(t, b);
    const foreign = await req('POST', things(a, `/${gw.id}/children`), a.auth, { things_ids: [theirs.id] });
    expect(foreign.statusCode).toBe(404);
    expect((await req('GET', `/things/tenants/${b.tenantId}/things/${theirs.id}`, b.auth)).json().parent_things_id).toBeNull();
    expect((await req('GET', `/things/tenants/${b.tenantId}/things/gateways`, b.auth)).json().total).toBe(0);

    // A sub-user who may only read the gateway cannot give it children; its page of children is its grants' only.
    const sub = await makeSubUser(
      t,
      a,
      ['things:things:queryone', 'things:things:update', 'things:things:page'],
      [
        { thingsId: gw.id, access: 'read' },
        { thingsId: grandkid.id, access: 'write' },
      ],
    );
    const denied = await req('POST', things(a, `/${gw.id}/children`), sub.auth, { things_ids: [grandkid.id] });
    expect(denied.statusCode).toBe(403);
    expect((await req('GET', things(a, `/${gw.id}/children`), sub.auth)).json().total).toBe(0);
    // …and its grandkid's parents stop where its grants do.
    expect((await req('GET', things(a, `/${grandkid.id}/parents`), sub.auth)).json()).toEqual([]);
    // Without the key: 403 whatever the device.
    const keyless = await makeSubUser(t, a, ['things:things:queryone'], [{ thingsId: gw.id, access: 'write' }]);
    expect((await req('POST', things(a, `/${gw.id}/children`), keyless.auth, { things_ids: [kid.id] })).statusCode).toBe(403);
    expect((await req('GET', things(a, `/${randomUUID()}/children`), a.auth)).statusCode).toBe(404);
  });
});
