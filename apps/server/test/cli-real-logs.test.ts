/**
 * `loggerhead simulate` and `loggerhead decode` with real-world logs: 64-byte CANFD lines without
 * the EDL flag, a broken line, gzip. A readable file goes through with one line on stderr about
 * what was skipped; a file with nothing readable ends with one line and a non-zero exit — never
 * a stack trace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decode } from '../src/cli/decode.ts';
import { simulate } from '../src/cli/simulate.ts';
import { main } from '../src/main.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { makeDevice, makeTenant, type TenantFixture } from './things.fixtures.ts';

const zeros = (n: number) => Array(n).fill('00').join(' ');
/** Two 64-byte CANFD lines with flags 0x11 (no EDL), a classic frame, a broken line (line 9). */
const ASC = [
  'date Sat Sep 30 15:06:13.191 2017',
  'base hex  timestamps absolute',
  'internal events logged',
  'Begin Triggerblock Sat Sep 30 15:06:13.191 2017',
  '   0.000000 Start of measurement',
  `   1.000000 CANFD   1 Rx        4EE                                   1 0 f 64 11 22 ${zeros(62)} 64 1331984 11 0 46500250 460a0250 20011736 20010205`,
  `   2.000000 CANFD   1 Rx        4EE                                   1 0 f 64 33 44 ${zeros(62)} 64 1331984 11 0 46500250 460a0250 20011736 20010205`,
  '   3.000000 1  100             Rx   d 2 55 66',
  '   4.000000 1  100             Rx   d 8 01',
  'End TriggerBlock',
  '',
].join('\n');

const DBC = `VERSION ""
BU_: ECU
BO_ 1262 Fd: 64 ECU
 SG_ First : 0|8@1+ (1,0) [0|255] "" ECU
BO_ 256 Classic: 2 ECU
 SG_ Second : 8|8@1+ (1,0) [0|255] "" ECU
`;

describe('command line with real logs', () => {
  let t: TestApp;
  let tenant: TenantFixture;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-cli-logs-'));
  const file = (name: string, bytes: string | Uint8Array) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, bytes);
    return p;
  };
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await makeTenant(t);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `fn` with stderr (console.error) and stdout (process.stdout.write) captured. */
  async function captured(fn: () => Promise<number>) {
    const err: string[] = [];
    let out = '';
    const e = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.map(String).join(' ')));
    const w = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    }) as typeof process.stdout.write);
    try {
      return { code: await fn(), err, out };
    } finally {
      e.mockRestore();
      w.mockRestore();
    }
  }

  const stored = async (thingsId: string) =>
    (
      await t.database.raw.query<{ n: number }>('select coalesce(sum(frame_count),0)::int as n from frame_chunks where things_id = $1', [
        thingsId,
      ])
    ).rows[0].n;

  it.each([
    ['trip.asc', ASC],
    ['trip.asc.gz', gzipSync(ASC)],
  ])('simulate --log %s sends the CAN FD frames and names the skipped line', async (name, bytes) => {
    const d = await makeDevice(t, tenant);
    const broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
    const r = await captured(() =>
      simulate(['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--log', file(name, bytes), '--fast']),
    );
    expect(r.code).toBe(0);
    expect(await stored(d.id)).toBe(3);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/1 line skipped: line 9 \(/);
  });

  it('simulate --log with nothing readable exits 1 with one line', async () => {
    const d = await makeDevice(t, tenant);
    const broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
    const bad = file('bad.asc', ASC.split('\n').slice(0, 5).concat('   4.000000 1  100             Rx   d 8 01').join('\n'));
    const r = await captured(() => simulate(['--broker', broker, '--device', d.third_things_id, '--key', d.things_key, '--log', bad]));
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/bad\.asc: .*line 6/);
    expect(r.err[0]).not.toMatch(/\n|Usage| {4}at /);
    expect(await stored(d.id)).toBe(0);
  });

  it.each([
    ['trip.asc', ASC],
    ['trip.asc.gz', gzipSync(ASC)],
  ])('decode %s decodes the CAN FD frames', async (name, bytes) => {
    const dbc = file('bus.dbc', DBC);
    const r = await captured(() => decode(['--dbc', dbc, '--log', file(name, bytes)]));
    expect(r.code).toBe(0);
    const lines = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.message, l.signals])).toEqual([
      ['Fd', { First: 0x11 }],
      ['Fd', { First: 0x33 }],
      ['Classic', { Second: 0x66 }],
    ]);
  });

  it('decode of a file with nothing readable exits non-zero with one line per problem, no stack', async () => {
    const dbc = file('bus.dbc', DBC);
    const bad = file('bad.log', '(1.0) can0 XYZ#00\n');
    const r = await captured(() => decode(['--dbc', dbc, '--log', bad]));
    expect(r.code).not.toBe(0);
    expect(r.err.length).toBeGreaterThanOrEqual(1);
    expect(r.err.join('\n')).not.toMatch(/ {4}at /);
  });

  it('a command that throws ends with one line, not a stack trace', async () => {
    const r = await captured(() =>
      main(['simulate', '--broker', 'mqtt://127.0.0.1:1', '--devices', '1', '--rate', '1', '--fleet', path.join(dir, 'none.csv')]),
    );
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^loggerhead simulate: .*none\.csv/);
  });
});
