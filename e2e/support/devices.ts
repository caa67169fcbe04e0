import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FrameDto } from '@loggerhead/contract/schemas/data.ts';
import { expect } from '@playwright/test';
import type { Api } from './api.ts';
import { mqttPort } from './own-server.ts';
import { ROOT, type RunningServer } from './server.ts';

/** A device of the tenant, seeded through the API, with its credentials for a simulated logger. */
export interface SeededDevice {
  id: string;
  name: string;
  third_things_id: string;
  things_key: string;
}

/** Creates a CANDTU-200 device named `name` (with a random device ID) in the admin's tenant. */
export async function seedDevice(api: Api, tenantId: string, name: string): Promise<SeededDevice> {
  const types = await api.get<{ id: string; name: string }[]>(`/things/tenants/${tenantId}/device-types`);
  const thing = await api.post<Omit<SeededDevice, 'name'>>(`/things/tenants/${tenantId}/things`, {
    third_things_id: randomBytes(10).toString('hex').toUpperCase(),
    name,
    info_model_id: types.find((t) => t.name === 'CANDTU-200')?.id,
  });
  return { ...thing, name };
}

/** Uploads a DBC file and binds it to `channel` of the device (decoding starts); returns the DBC's id. */
export async function bindDbc(api: Api, tenantId: string, thingsId: string, dbc: string, channel = 0): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([dbc]), `e2e-${randomBytes(3).toString('hex')}.dbc`);
  const up = await fetch(`${api.baseURL}/v1/mapping-mgmt/tenants/${tenantId}/dbc-files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}` },
    body: form,
  });
  expect(up.status, await up.clone().text()).toBe(200);
  const { id } = (await up.json()) as { id: string };
  await api.put(`/mapping-mgmt/tenants/${tenantId}/things/${thingsId}/channels/${channel}/dbc-binding`, { dbc_id: id });
  return id;
}

export interface SimulatedLogger {
  /** Everything it printed so far. */
  output: () => string;
  /** Ctrl-C, then waits for it to end (killed after 10 s). */
  stop: () => Promise<void>;
}

/**
 * Starts `loggerhead remote-device` for the device against the server's broker (it answers
 * commands; with `replay`, a log file, it also sends that log's frames, paced and looping; with
 * `telemetry`, a file of its info model's function blocks, it reports them as JSON telemetry every
 * `interval` ms and keeps a twin) and waits until the server sees it online.
 */
export async function startRemoteDevice(
  server: RunningServer,
  api: Api,
  tenantId: string,
  device: SeededDevice,
  opts: { replay?: string; sd?: string; ecus?: string; telemetry?: string; interval?: number } = {},
): Promise<SimulatedLogger> {
  const args = [
    path.join(ROOT, 'apps/server/bin/loggerhead.mjs'),
    'remote-device',
    '--broker',
    `mqtt://127.0.0.1:${mqttPort(server)}`,
    '--device',
    device.third_things_id,
    '--key',
    device.things_key,
    ...(opts.replay ? ['--replay', opts.replay] : []),
    ...(opts.sd ? ['--sd', opts.sd] : []),
    ...(opts.ecus ? ['--ecus', opts.ecus] : []),
    ...(opts.telemetry ? ['--telemetry', opts.telemetry] : []),
    ...(opts.interval ? ['--interval', String(opts.interval)] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (output += d));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  try {
    await expect
      .poll(() => (child.exitCode === null ? output : `exited ${child.exitCode}: ${output}`), { timeout: 60_000 })
      .toContain('connected as');
    await expect
      .poll(async () => (await api.get<{ is_online: boolean }>(`/things/tenants/${tenantId}/things/${device.id}`)).is_online, {
        timeout: 30_000,
      })
      .toBe(true);
  } catch (e) {
    await stop();
    throw e;
  }
  return { output: () => output, stop };
}

/** Every stored frame of the device in [begin, end) (epoch ms), through the history API, page by page. */
export async function storedFrames(
  api: Api,
  tenantId: string,
  thingsId: string,
  range: { begin_time: number; end_time: number; channels?: number[]; ids?: number[] },
): Promise<FrameDto[]> {
  const out: FrameDto[] = [];
  const q = new URLSearchParams({ begin_time: String(range.begin_time), end_time: String(range.end_time), page_size: '1000' });
  if (range.channels) q.set('channels', range.channels.join(','));
  if (range.ids) q.set('ids', range.ids.join(','));
  for (let page = 1; ; page++) {
    q.set('current_page', String(page));
    const r = await api.get<{ list: FrameDto[] }>(`/data-mgmt/tenants/${tenantId}/things/${thingsId}/frames?${q}`);
    out.push(...r.list);
    if (r.list.length < 1000) return out;
  }
}
