import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CanFrame } from '@loggerhead/can';
import { writeLog } from '@loggerhead/can/logs/index.ts';
import { simulate } from '../src/cli/simulate.ts';
import { forwardOf } from '../src/modules/forward/forward.module.ts';
import type { TestApp } from './helper.ts';
import { frames } from './ingest.helpers.ts';
import type { TenantFixture } from './things.fixtures.ts';

export const rulesUrl = (tenant: TenantFixture, rest = '') => `/v1/alert-mgmt/tenants/${tenant.tenantId}/things-forward-rules${rest}`;

export function api(t: TestApp) {
  return (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: auth }, ...(payload ? { payload } : {}) });
}

/** A forwarded message as every destination carries it. */
export interface Forwarded {
  id: string;
  rule_id: string;
  things_id: string | null;
  third_things_id: string | null;
  kind: string;
  ts: number;
  data: { frames?: { ts: number; id: number; channel: number; data: string }[]; online?: boolean; signals?: unknown[] };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-fwd-'));
let logs = 0;

/** Frames a device replays: `n` frames from `t0` (µs), each a distinct first data byte pair. */
export function trip(n: number, t0: number, idBase = 0x100): CanFrame[] {
  return frames(n, t0, 0, idBase);
}

/**
 * Replays `src` through the simulator like a logger over MQTT (the server's broker), keeping the
 * log's times, and waits until every batch is stored, decoded and captured by the forwarder.
 */
export async function replay(t: TestApp, device: { third_things_id: string; things_key: string }, src: CanFrame[]) {
  const file = path.join(dir, `trip${++logs}.log`);
  fs.writeFileSync(file, writeLog(src, 'candump'));
  const broker = `mqtt://127.0.0.1:${t.app.ctx.broker.port()}`;
  const code = await simulate([
    '--broker',
    broker,
    '--device',
    device.third_things_id,
    '--key',
    device.things_key,
    '--log',
    file,
    '--fast',
    '--keep-time',
  ]);
  if (code !== 0) throw new Error(`simulate exited ${code}`);
  await t.app.ctx.signals.decodeIdle();
}

/** Frame times (µs) of one device's frame messages, deduplicated by message id, in arrival order. */
export function frameTimes(msgs: readonly Forwarded[], thingsId: string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (const m of msgs) {
    if (m.kind !== 'frames' || m.things_id !== thingsId || seen.has(m.id)) continue;
    seen.add(m.id);
    for (const f of m.data.frames ?? []) out.push(f.ts);
  }
  return out;
}

export async function drain(t: TestApp, ms = 15_000) {
  await t.app.ctx.signals.decodeIdle();
  await forwardOf(t.app).drain(ms);
}

export async function rule(t: TestApp, tenant: TenantFixture, id: string) {
  return (await api(t)('GET', rulesUrl(tenant, `/${id}`), tenant.auth)).json();
}
