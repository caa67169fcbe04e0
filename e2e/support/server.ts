import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The repository root (this file lives in e2e/support). */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Credentials {
  username: string;
  password: string;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 */
  baseURL: string;
  port: number;
  /** The system manager created on first start. */
  admin: Credentials;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Extra environment (e.g. EXPERIENCE=false). */
  env?: Record<string, string>;
  /** Give up when the banner has not appeared by then (ms). */
  timeout?: number;
}

/**
 * Starts the real server (`loggerhead serve`) on free ports with a fresh data directory
 * and a known admin password, and resolves once it prints its console address.
 */
export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loggerhead-e2e-'));
  const admin = { username: 'admin', password: `E2e-${randomBytes(6).toString('hex')}` };
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/bin/loggerhead.mjs'), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      MQTT_PORT: '0',
      // Loopback only: tests need no outside access to the server or its broker.
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOGGERHEAD_ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      // Every tenant the suite registers asks for its code from this one address; a retried test
      // must not find the address's ten codes in ten minutes used up by the tests before it.
      CODE_IP_LIMIT: '1000',
      // No map tiles from the internet: the maps draw their grid.
      MAP_TILE_URL: 'none',
      // The forwarding tests' receivers listen on 127.0.0.1, which the egress policy refuses unless listed.
      EGRESS_ALLOW: '127.0.0.1',
      // No experience demo unless a server asks for it (the shared one does): seeding it is a few
      // seconds of work that would slow whatever test runs beside it. Its live logger stays off.
      EXPERIENCE: 'false',
      EXPERIENCE_LIVE: 'false',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    output += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    output += d;
  });

  const stop = () => stopChild(child, dataDir);
  try {
    const port = await waitForPort(child, () => output, opts.timeout ?? 90_000);
    const baseURL = `http://127.0.0.1:${port}`;
    await exemptPlatformTenant(baseURL, admin);
    return { baseURL, port, admin, dataDir, output: () => output, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * The platform's tenant obeys its package like any other until the system manager exempts it; the
 * tests seed devices, labels and rules as admin freely, so the system manager does that first.
 */
async function exemptPlatformTenant(baseURL: string, admin: Credentials): Promise<void> {
  const json = async (path: string, init: RequestInit) => {
    const res = await fetch(`${baseURL}/v1${path}`, init);
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const session = await json('/control/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.username, password: admin.password, type: 1 }),
  });
  const headers = { authorization: `Bearer ${session.token as string}`, 'content-type': 'application/json' };
  const self = await json('/tenant/users/self', { method: 'GET', headers });
  await json(`/tenant/tenants/${self.tenant_id as string}/quotas`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ quota_exempt: true }),
  });
}

function waitForPort(child: ChildProcess, output: () => string, timeout: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`server did not start within ${timeout} ms:\n${output()}`)), timeout);
    const check = () => {
      const m = /Console:\s+http:\/\/localhost:(\d+)\//.exec(output());
      if (m) finish(null, Number(m[1]));
    };
    const exited = (code: number | null) => finish(new Error(`server exited (${code}) before it was ready:\n${output()}`));
    function finish(err: Error | null, port?: number) {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', exited);
      if (err) reject(err);
      else resolve(port as number);
    }
    child.stdout?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

async function stopChild(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]);
    if (!killed) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
