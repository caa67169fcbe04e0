/**
 * A tenant's DBC file is read on a worker thread, bounded before it is parsed (messages and signals
 * one file may hold, a name already taken) and in time: a large file never stalls the server's
 * thread for the others, and a refused one leaves nothing stored.
 */
import { DBC_MAX_MESSAGES, DBC_MAX_SIGNALS } from '@loggerhead/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbcParseTimeout, readDbcOffThread } from '../src/modules/mapping/dbc-parse.ts';
import { readDbc } from '../src/modules/mapping/dbc-read.ts';
import type { MappingRepository } from '../src/modules/mapping/mapping.repository.ts';
import { mappingService } from '../src/modules/mapping/mapping.service.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { uploadDbc } from './signals.fixtures.ts';
import { makeTenant, type TenantFixture } from './things.fixtures.ts';

/** A DBC of `messages` messages of `perMessage` one-bit signals each. */
function bigDbc(messages: number, perMessage: number): string {
  const out = ['VERSION ""', '', 'NS_ :', '', 'BS_:', '', 'BU_: ECU', ''];
  for (let m = 0; m < messages; m++) {
    out.push(`BO_ ${m + 1} Msg_${m}: 8 ECU`);
    for (let s = 0; s < perMessage; s++) out.push(` SG_ Sig_${m}_${s} : ${s % 64}|1@1+ (1,0) [0|1] "" ECU`);
    out.push('');
  }
  return out.join('\n');
}

/**
 * How much of `run` the server's thread spent busy (event-loop utilisation's active time) and its
 * longest gap between the ticks of a 10 ms timer: what another tenant's request would have waited.
 */
async function threadCost<T>(run: () => Promise<T> | T): Promise<{ value: T; activeMs: number; stallMs: number }> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  const elu = performance.eventLoopUtilization();
  try {
    await new Promise((r) => setTimeout(r, 20));
    const value = await run();
    worst = Math.max(worst, performance.now() - last);
    return { value, activeMs: performance.eventLoopUtilization(elu).active, stallMs: worst };
  } finally {
    clearInterval(timer);
  }
}

const enc = (s: string) => new TextEncoder().encode(s);

describe('reading a DBC file off the server thread', () => {
  // 3125 messages × 64 = 200,000 signals, some 9 MB: the file of the report.
  const huge = enc(bigDbc(3125, 64));

  it('parses 200,000 signals on a worker while the server thread stays free', async () => {
    expect(huge.byteLength).toBeGreaterThan(8 * 1024 * 1024);
    const limits = { maxMessages: 1e6, maxSignals: 1e6 };
    const off = await threadCost(() => readDbcOffThread(huge, { limits, deadlineMs: 120_000 }));
    expect(off.value).toMatchObject({ ok: true, message_count: 3125, signal_count: 200_000 });
    // The peer in the same run: the same read on the server's thread, as uploads were read before.
    const on = await threadCost(() => readDbc(huge, limits));
    expect(on.value).toMatchObject({ ok: true, signal_count: 200_000 });
    // What the server's thread still does (starting the worker, taking its answer) is well under the
    // parse itself, even on a loaded machine; the longest hold is what another tenant waits behind.
    expect(off.activeMs).toBeLessThan(on.activeMs * 0.75);
    expect(off.stallMs).toBeLessThan(on.stallMs / 2);
  });

  it('ends the worker at the deadline', async () => {
    await expect(readDbcOffThread(huge, { limits: { maxMessages: 1e6, maxSignals: 1e6 }, deadlineMs: 30 })).rejects.toBeInstanceOf(
      DbcParseTimeout,
    );
  });
});

describe('DBC limits through the API', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  beforeAll(async () => {
    t = await createTestApp();
    a = await makeTenant(t);
    b = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  const stored = async (tn: TenantFixture) =>
    Number(
      (await t.database.raw.query<{ n: string }>('select count(*) as n from dbc_files where tenant_id = $1', [tn.tenantId])).rows[0].n,
    );

  it('refuses a file over the signals one file may hold with 413, while another tenant is answered', async () => {
    const text = bigDbc(3125, 64);
    const upload = uploadDbc(t, a, 'huge.dbc', text);
    const others = await t.app.inject({
      method: 'GET',
      url: `/v1/mapping-mgmt/tenants/${b.tenantId}/dbc-files`,
      headers: { authorization: b.auth },
    });
    expect(others.statusCode).toBe(200);
    const res = await upload;
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'mapping.dbc-too-many-signals', details: { count: 200_000, limit: DBC_MAX_SIGNALS } });
    expect(await stored(a)).toBe(0);
  });

  it('refuses a file over the messages one file may hold with 413', async () => {
    const res = await uploadDbc(t, a, 'many.dbc', bigDbc(DBC_MAX_MESSAGES + 1, 0));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'mapping.dbc-too-many-messages', details: { count: DBC_MAX_MESSAGES + 1 } });
    expect(await stored(a)).toBe(0);
  });

  it('takes a file at the limits', async () => {
    const res = await uploadDbc(t, a, 'edge.dbc', bigDbc(DBC_MAX_SIGNALS / 50, 50));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message_count: DBC_MAX_SIGNALS / 50, signal_count: DBC_MAX_SIGNALS });
  });

  it('refuses a taken name before reading the file', async () => {
    let reads = 0;
    const repo = { dbcNameTaken: async () => true } as unknown as MappingRepository;
    const svc = mappingService(
      repo,
      () => {},
      t.database.raw,
      async () => {
        reads++;
        throw new Error('read');
      },
    );
    const auth = { tenantId: a.tenantId } as Parameters<typeof svc.createDbc>[0];
    await expect(svc.createDbc(auth, { fileName: 'taken.dbc', bytes: enc('VERSION ""') }, {})).rejects.toMatchObject({
      status: 409,
      body: { code: 'mapping.dbc-name-used' },
    });
    expect(reads).toBe(0);
  });
});
