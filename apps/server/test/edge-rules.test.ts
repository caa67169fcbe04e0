import { RemoteDevice } from '@loggerhead/simulator/remote-device.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerUrl, isOnline } from './command.helpers.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { poll } from './poll.ts';
import { makeDevice, makeSubUser, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * Edge-computing rules (spec §7 /alert-mgmt): authored on a model's numeric property, issued to devices
 * and groups as `edge.set_rule` commands, each device's acceptance kept; the simulated device applies
 * an accepted rule to its uploads, which the twin's stored reported state shows.
 */
describe.skipIf(!!process.env.TEST_MQTT_URL)('edge-computing rules', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  let modelId: string;
  let otherModelId: string;
  let blocks: unknown[];
  const sims: RemoteDevice[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
    const blk = await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/function-blocks`, a.auth, {
      name: 'env',
      display_name: 'Environment',
      json_schema: {
        status: [
          { identifier: 'temperature', name: 'Temperature', data_type: 1, read_only: true, default_value: 21 },
          { identifier: 'target', name: 'Target', data_type: 1, default_value: 20 },
          { identifier: 'label', name: 'Label', data_type: 2 },
        ],
      },
    });
    modelId = (
      await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/info-models`, a.auth, { name: 'Probe', info_model_fn_blocks: [blk.json().id] })
    ).json().id;
    otherModelId = (
      await req('POST', `/mapping-mgmt/tenants/${a.tenantId}/info-models`, a.auth, { name: 'Other', info_model_fn_blocks: [blk.json().id] })
    ).json().id;
    blocks = (await req('GET', `/mapping-mgmt/tenants/${a.tenantId}/info-models/${modelId}/function-blocks`, a.auth)).json();
  });
  afterAll(async () => {
    for (const s of sims) await s.close().catch(() => {});
    await t?.close();
  });

  function req(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) {
    return t.app.inject({ method, url: `/v1${url}`, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
  }
  const rules = (tenant: TenantFixture, rest = '') => `/alert-mgmt/tenants/${tenant.tenantId}/edge-computing-rules${rest}`;
  const twin = async (id: string) => (await req('GET', `/things/tenants/${a.tenantId}/things/${id}/digital-twin`, a.auth)).json();

  async function simulated(model = true) {
    const d = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const sim = new RemoteDevice({
      broker: brokerUrl(t),
      deviceId: d.third_things_id,
      key: d.things_key,
      ...(model ? { model: blocks as never } : {}),
    });
    sims.push(sim);
    await sim.connect();
    await poll(
      () => isOnline(t, d.id),
      (on) => on,
      { ms: 10_000 },
    );
    return { d, sim };
  }

  async function waitIssuance(ruleId: string, thingsId: string, state: string) {
    return poll(
      async () => (await req('GET', rules(a, `/issuances?rule_id=${ruleId}&things_id=${thingsId}`), a.auth)).json(),
      (p) => p.list[0]?.state === state,
      { ms: 10_000 },
    );
  }

  it('keeps rules per tenant, checks the field against the model, counts against the package', async () => {
    const make = (body: object, tenant = a) =>
      req('POST', rules(tenant), tenant.auth, {
        name: 'Deadband',
        info_model_id: modelId,
        kind: 'filter',
        field: 'env.temperature',
        threshold: 0.5,
        ...body,
      });
    const r = await make({});
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ kind: 'filter', field: 'env.temperature', threshold: 0.5, function: null, version: 1, issued: 0 });
    expect((await make({})).json()).toMatchObject({ code: 'edge-rule.duplicate' });
    // A property the model lacks, and one that is not a number.
    expect((await make({ name: 'x', field: 'env.humidity' })).json()).toMatchObject({ code: 'edge-rule.bad-field' });
    expect((await make({ name: 'x', field: 'env.label' })).json()).toMatchObject({ code: 'edge-rule.bad-field' });
    // An aggregate needs its function and window.
    expect((await make({ name: 'x', kind: 'aggregate', threshold: undefined })).statusCode).toBe(400);
    // Another tenant cannot see A's rule nor use A's model.
    expect((await req('GET', rules(b, `/${r.json().id}`), b.auth)).json()).toMatchObject({ code: 'edge-rule.not-found' });
    expect((await make({}, b)).json()).toMatchObject({ code: 'info-model.not-found' });
    expect((await req('GET', rules(a), b.auth)).statusCode).toBe(403);

    const updated = await req('PUT', rules(a, `/${r.json().id}`), a.auth, {
      name: 'Deadband',
      info_model_id: modelId,
      kind: 'aggregate',
      field: 'env.target',
      function: 'max',
      window_s: 30,
    });
    expect(updated.json()).toMatchObject({ version: 2, kind: 'aggregate', function: 'max', window_s: 30, threshold: null });
    const page = (await req('GET', rules(a), a.auth)).json();
    expect(page.page_size).toBe(20);
    expect(page.list.map((x: { name: string }) => x.name)).toContain('Deadband');

    // Package field edge_computing.
    await t.database.raw.query('update tenant_packages set edge_computing = 1 where tenant_id = $1', [a.tenantId]);
    expect((await make({ name: 'Second' })).json()).toMatchObject({ code: 'quota.limit-reached', details: { resource: 'edge_computing' } });
    await t.database.raw.query('update tenant_packages set edge_computing = 100 where tenant_id = $1', [a.tenantId]);
    expect((await req('DELETE', rules(a, `/${r.json().id}`), a.auth)).json()).toEqual({ ok: true });
    expect((await req('GET', rules(a, `/${r.json().id}`), a.auth)).statusCode).toBe(404);
  });

  it('issues a rule: accepted by a device of the model, rejected by one without it, issued while one is offline; a history per device', async () => {
    const rule = (
      await req('POST', rules(a), a.auth, {
        name: 'Filter',
        info_model_id: modelId,
        kind: 'filter',
        field: 'env.temperature',
        threshold: 1000,
      })
    ).json();
    const { d: good, sim } = await simulated();
    const { d: bare } = await simulated(false);
    const offline = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const other = await makeDevice(t, a, { info_model_id: otherModelId, thing_type: 1 });

    // A device of another model is refused before anything is sent.
    const mismatch = await req('POST', rules(a, `/${rule.id}/issuance`), a.auth, { things_ids: [good.id, other.id] });
    expect(mismatch.json()).toMatchObject({ code: 'edge-rule.model-mismatch', details: { things_ids: [other.id] } });

    const issued = await req('POST', rules(a, `/${rule.id}/issuance`), a.auth, {
      things_ids: [good.id, bare.id, offline.id],
      timeout_ms: 3000,
    });
    expect(issued.statusCode).toBe(200);
    expect(issued.json().issued).toBe(3);
    expect(issued.json().list.every((i: { rule_version: number }) => i.rule_version === 1)).toBe(true);

    const accepted = await waitIssuance(rule.id, good.id, 'accepted');
    expect(accepted.list[0]).toMatchObject({ rule_name: 'Filter', things_name: 'Truck', code: 0, command_state: 'answered' });
    expect(sim.model?.edge.held.get(rule.id)?.rule).toMatchObject({
      kind: 'filter',
      field: 'env.temperature',
      threshold: 1000,
      version: 1,
    });
    const rejected = await waitIssuance(rule.id, bare.id, 'rejected');
    expect(rejected.list[0].code).not.toBe(0);
    // The offline device's command waits for it.
    const waiting = (await req('GET', rules(a, `/issuances?things_id=${offline.id}`), a.auth)).json();
    expect(waiting.list[0]).toMatchObject({ state: 'issued', command_state: 'queued' });
    expect((await req('GET', rules(a, `/issuances?rule_id=${rule.id}&state=accepted`), a.auth)).json().total).toBe(1);
    expect((await req('GET', rules(a, `/${rule.id}`), a.auth)).json()).toMatchObject({ issued: 3, accepted: 1 });
    // The command is in the device's message list like any other.
    const messages = (await req('GET', `/things/tenants/${a.tenantId}/things/${good.id}/messages`, a.auth)).json();
    expect(messages.list[0]).toMatchObject({ operation_name: 'edge.set_rule', state: 'answered' });
  });

  it('issues to the members of a group that are of the rule’s model; a silent device times out', async () => {
    const rule = (
      await req('POST', rules(a), a.auth, {
        name: 'Group rule',
        info_model_id: modelId,
        kind: 'aggregate',
        field: 'env.target',
        function: 'mean',
        window_s: 5,
      })
    ).json();
    const { d: one } = await simulated();
    const { d: silent, sim: quiet } = await simulated();
    quiet.agent.silent.add('edge.set_rule');
    const other = await makeDevice(t, a, { info_model_id: otherModelId, thing_type: 1 });
    const g = (await req('POST', `/out-group-mgmt/tenants/${a.tenantId}/groups`, a.auth, { name: 'Probes' })).json();
    await req('POST', `/out-group-mgmt/tenants/${a.tenantId}/groups/${g.id}/bind`, a.auth, { things_ids: [one.id, silent.id, other.id] });

    const res = (await req('POST', rules(a, `/${rule.id}/issuance`), a.auth, { group_id: g.id, timeout_ms: 1000 })).json();
    expect(res.issued).toBe(2);
    expect(res.list.map((i: { things_id: string }) => i.things_id).sort()).toEqual([one.id, silent.id].sort());
    expect(res.list.every((i: { group_id: string }) => i.group_id === g.id)).toBe(true);
    await waitIssuance(rule.id, one.id, 'accepted');
    await waitIssuance(rule.id, silent.id, 'timeout');
  });

  it('needs the issuance key and write access to every device; a sub-user sees the history of its devices only', async () => {
    const rule = (
      await req('POST', rules(a), a.auth, { name: 'Access', info_model_id: modelId, kind: 'filter', field: 'env.target', threshold: 1 })
    ).json();
    const mine = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const theirs = await makeDevice(t, a, { info_model_id: modelId, thing_type: 1 });
    const reader = await makeSubUser(
      t,
      a,
      ['alert:edge-computing:query', 'alert:edge-computing:issuance'],
      [{ thingsId: mine.id, access: 'read' }],
    );
    expect((await req('POST', rules(a, `/${rule.id}/issuance`), reader.auth, { things_ids: [mine.id] })).statusCode).toBe(403);
    const writer = await makeSubUser(
      t,
      a,
      ['alert:edge-computing:query', 'alert:edge-computing:issuance'],
      [{ thingsId: mine.id, access: 'write' }],
    );
    expect((await req('POST', rules(a, `/${rule.id}/issuance`), writer.auth, { things_ids: [mine.id, theirs.id] })).statusCode).toBe(403);
    const keyless = await makeSubUser(t, a, ['alert:edge-computing:query'], [{ thingsId: mine.id, access: 'write' }]);
    expect((await req('POST', rules(a, `/${rule.id}/issuance`), keyless.auth, { things_ids: [mine.id] })).statusCode).toBe(403);
    expect((await req('POST', rules(a, `/${rule.id}/issuance`), writer.auth, { things_ids: [mine.id] })).statusCode).toBe(200);
    expect((await req('POST', rules(a, `/${rule.id}/issuance`), a.auth, { things_ids: [theirs.id] })).statusCode).toBe(200);
    const seen = (await req('GET', rules(a, `/issuances?rule_id=${rule.id}`), writer.auth)).json();
    expect(seen.list.map((i: { things_id: string }) => i.things_id)).toEqual([mine.id]);
    expect((await req('GET', rules(a, `/issuances?rule_id=${rule.id}`), a.auth)).json().total).toBe(2);
    expect((await req('POST', rules(b, `/${rule.id}/issuance`), b.auth, { things_ids: [mine.id] })).statusCode).toBe(404);
  });

  it("the simulated device's uploads change once it accepts a rule: filtered, then aggregated, in the stored twin", async () => {
    const { d, sim } = await simulated();
    const model = sim.model;
    if (!model) throw new Error('no model');
    const report = async (temperature: number, target: number) => {
      model.state.env.temperature = temperature;
      model.state.env.target = target;
      await model.report();
    };
    // Before any rule every upload carries both properties.
    await report(30, 10);
    await report(30.4, 11);
    let tw = await poll(
      () => twin(d.id),
      (x) => x.reported['env.target']?.value === 11,
      { ms: 10_000 },
    );
    expect(tw.reported['env.temperature'].value).toBe(30.4);

    const filter = (
      await req('POST', rules(a), a.auth, {
        name: 'Big moves',
        info_model_id: modelId,
        kind: 'filter',
        field: 'env.temperature',
        threshold: 5,
      })
    ).json();
    await req('POST', rules(a, `/${filter.id}/issuance`), a.auth, { things_ids: [d.id] });
    await waitIssuance(filter.id, d.id, 'accepted');
    await report(31, 12); // first upload under the rule: sent, and the reference from now on
    await report(33, 13); // 2 from 31: held back
    tw = await poll(
      () => twin(d.id),
      (x) => x.reported['env.target']?.value === 13,
      { ms: 10_000 },
    );
    expect(tw.reported['env.temperature'].value).toBe(31);
    await report(36.5, 14); // 5.5 from 31: sent
    tw = await poll(
      () => twin(d.id),
      (x) => x.reported['env.target']?.value === 14,
      { ms: 10_000 },
    );
    expect(tw.reported['env.temperature'].value).toBe(36.5);

    // An aggregate over 1 s: held back, then the mean of the values of the window.
    const mean = (
      await req('POST', rules(a), a.auth, {
        name: 'Mean target',
        info_model_id: modelId,
        kind: 'aggregate',
        field: 'env.target',
        function: 'mean',
        window_s: 1,
      })
    ).json();
    await req('POST', rules(a, `/${mean.id}/issuance`), a.auth, { things_ids: [d.id] });
    await waitIssuance(mean.id, d.id, 'accepted');
    await report(50, 20);
    await report(50, 30);
    tw = await twin(d.id);
    expect(tw.reported['env.target'].value).toBe(14);
    await new Promise((r) => setTimeout(r, 1100));
    await report(50, 70);
    tw = await poll(
      () => twin(d.id),
      (x) => x.reported['env.target']?.value !== 14,
      { ms: 10_000 },
    );
    expect(tw.reported['env.target'].value).toBe(40);
  });
});
