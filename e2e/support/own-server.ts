import { spawn } from 'node:child_process';
import path from 'node:path';
import { Api } from './api.ts';
import { ROOT, type RunningServer, startServer } from './server.ts';
import { test as base } from './test.ts';

/**
 * Tests that drive devices need the broker's port, so they run a server of their own (one per
 * worker) instead of the shared one: `ownServerTest` gives them `own`, and points `baseURL`,
 * `admin` and `adminApi` at it.
 */
export const ownServerTest = base.extend<object, { own: RunningServer }>({
  own: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ own }, use) => use(own.baseURL),
  admin: async ({ own }, use) => use(own.admin),
  adminApi: async ({ own }, use) => {
    const api = new Api(own.baseURL);
    await api.login(own.admin);
    await use(api);
  },
});

/**
 * A server for one test only, stopped after it: for a test that changes what every later test of the
 * server would see (a released console version replaces the console itself).
 */
export const isolatedServerTest = base.extend<{ own: RunningServer }>({
  own: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const server = await startServer();
      await use(server);
      await server.stop();
    },
    { timeout: 120_000 },
  ],
  baseURL: async ({ own }, use) => use(own.baseURL),
  admin: async ({ own }, use) => use(own.admin),
});

/** The embedded broker's port, read from the server's banner. */
export function mqttPort(server: RunningServer): number {
  const m = /MQTT:\s+mqtt:\/\/[^:]+:(\d+)/.exec(server.output());
  if (!m) throw new Error(`no MQTT port in the server banner:\n${server.output()}`);
  return Number(m[1]);
}

/** Runs `loggerhead <command> …args` to its end, with everything it printed. */
export function runCli(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/bin/loggerhead.mjs'), command, ...args], { cwd: ROOT });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** `loggerhead simulate …`: a simulated logger replaying a log, exits once all is acknowledged. */
export const runSimulator = (args: string[]) => runCli('simulate', args);

/** `loggerhead simulate` as one device of `server`'s embedded broker, with the other arguments (`--log FILE --fast`, …). */
export const simulateDevice = (server: RunningServer, deviceId: string, key: string, args: string[]) =>
  runSimulator(['--broker', `mqtt://127.0.0.1:${mqttPort(server)}`, '--device', deviceId, '--key', key, ...args]);
