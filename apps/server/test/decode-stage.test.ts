import { DbcDecoder } from '@loggerhead/can';
import { checkBatch, encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alertsOf } from '../src/modules/alert/alert.module.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { bind, rampFrame, testDbc, waveFrame } from './signals.fixtures.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

/**
 * One decode stage (docs/decisions/0112-one-decode-stage.md): a committed frame is decoded once,
 * for the stored signals and for the trigger rules on its DBC signals together; rules on a paused
 * channel still fire, decoded by the same stage.
 */
let t: TestApp;
let a: TenantFixture;
let seq = 0;
const T0 = Date.UTC(2026, 0, 6, 10) * 1000;

// Every decode of the process, whoever asks for it.
let decodes = 0;
const decodeInto = DbcDecoder.prototype.decodeInto;
beforeAll(async () => {
  DbcDecoder.prototype.decodeInto = function (this: DbcDecoder, ...args: Parameters<DbcDecoder['decodeInto']>) {
    decodes++;
    return decodeInto.apply(this, args);
  };
  t = await createTestApp();
  a = await makeTenant(t);
});
afterAll(async () => {
  DbcDecoder.prototype.decodeInto = decodeInto;
  await t?.close();
});
afterEach(() => {
  decodes = 0;
});

async function commit(thingsId: string, frames: ReturnType<typeof rampFrame>[]) {
  const data = encodeBatch(frames, { session: 9, seq: ++seq });
  const info = checkBatch(data);
  if (typeof info === 'string') throw new Error(info);
  await t.app.ctx.ingest.writer.write({ tenantId: a.tenantId, thingsId, info, data });
  await t.app.ctx.signals.idle();
  await alertsOf(t.app).idle();
}

async function rule(thingsId: string, name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/alert-mgmt/tenants/${a.tenantId}/trigger-rules`,
    headers: { authorization: a.auth },
    // RAMP.Value = raw × 0.5 − 10: above 40 from raw 101.
    payload: {
      things_id: thingsId,
      channel: 0,
      name,
      data_type: 'signal',
      conditions: [{ source: 'signal', message: 'RAMP', signal: 'Value', op: '>', value: 40 }],
    },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().id;
}

async function events(ruleId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/alert-data-mgmt/tenants/${a.tenantId}/events?page_size=100&rule_id=${ruleId}`,
    headers: { authorization: a.auth },
  });
  return res.json() as { total: number; list: { event_data: Record<string, unknown> }[] };
}

/** 20 RAMP frames (raw 90..109) and 5 WAVE frames, 10 ms apart, in time order. */
const traffic = (from: number) =>
  [
    ...Array.from({ length: 20 }, (_, i) => rampFrame(from + i * 10_000, 90 + i)),
    ...Array.from({ length: 5 }, (_, i) => waveFrame(from + i * 10_000 + 5_000, 100 * i)),
  ].sort((x, y) => x.ts - y.ts);

describe('one decode stage', () => {
  it('decodes each frame of a started channel once, for the stored signals and a signal rule together', async () => {
    const dev = await makeDevice(t, a);
    expect((await bind(t, a, dev.id, 0, { dbc_id: await testDbc(t, a), state: 'started' })).statusCode).toBe(200);
    // Without a rule: one decode per frame of a DBC message (the stored signals).
    await commit(dev.id, traffic(T0));
    expect(decodes).toBe(25);

    const id = await rule(dev.id, 'ramp started');
    decodes = 0;
    await commit(dev.id, traffic(T0 + 1_000_000));
    // With it: still one decode per frame — the rule reads the stage's values.
    expect(decodes).toBe(25);
    const e = await events(id);
    expect(e.total).toBe(1);
    expect(e.list[0].event_data).toMatchObject({ frame_id: '0x100', value: 40.5, ts_us: T0 + 1_000_000 + 11 * 10_000 });
  });

  it('decodes the watched frames of a paused channel for the rule only, once', async () => {
    const dev = await makeDevice(t, a);
    expect((await bind(t, a, dev.id, 0, { dbc_id: await testDbc(t, a), state: 'paused' })).statusCode).toBe(200);
    await commit(dev.id, traffic(T0));
    // Paused and no rule: nothing decoded.
    expect(decodes).toBe(0);

    const id = await rule(dev.id, 'ramp paused');
    decodes = 0;
    await commit(dev.id, traffic(T0 + 1_000_000));
    // The 20 RAMP frames the rule watches, not the WAVE frames nobody reads.
    expect(decodes).toBe(20);
    const e = await events(id);
    expect(e.total).toBe(1);
    expect(e.list[0].event_data).toMatchObject({ frame_id: '0x100', value: 40.5, ts_us: T0 + 1_000_000 + 11 * 10_000 });
  });

  it("reads a fleet group's bindings and rules in one statement each, and decodes and evaluates every device as alone", async () => {
    const dbc = await testDbc(t, a);
    const started = await makeDevice(t, a);
    const paused = await makeDevice(t, a);
    const plain = await makeDevice(t, a);
    expect((await bind(t, a, started.id, 0, { dbc_id: dbc, state: 'started' })).statusCode).toBe(200);
    expect((await bind(t, a, paused.id, 0, { dbc_id: dbc, state: 'paused' })).statusCode).toBe(200);
    const r1 = await rule(started.id, 'group started');
    const r2 = await rule(paused.id, 'group paused');
    // Every statement of the process that reads bindings with strategies (the decode plans) or rules.
    const raw = t.app.ctx.database.raw;
    const query = raw.query;
    const seen = { plans: 0, rules: 0 };
    raw.query = ((text: string, params?: unknown[]) => {
      if (text.includes('signal_strategies')) seen.plans++;
      if (text.includes('from trigger_rules r join things')) seen.rules++;
      return query.call(raw, text, params);
    }) as typeof raw.query;
    try {
      // One group: the three batches are queued before the writer's first commit.
      const batch = (thingsId: string, from: number) => {
        const data = encodeBatch(traffic(from), { session: 9, seq: ++seq });
        const info = checkBatch(data);
        if (typeof info === 'string') throw new Error(info);
        return t.app.ctx.ingest.writer.write({ tenantId: a.tenantId, thingsId, info, data });
      };
      await Promise.all([batch(started.id, T0), batch(paused.id, T0), batch(plain.id, T0)]);
      await t.app.ctx.signals.idle();
      await alertsOf(t.app).idle();
    } finally {
      raw.query = query;
    }
    expect(seen).toEqual({ plans: 1, rules: 2 });
    // As alone: 25 for the started channel, the 20 watched frames of the paused one, none for the third.
    expect(decodes).toBe(45);
    expect((await events(r1)).total).toBe(1);
    expect((await events(r2)).total).toBe(1);
  });
});
