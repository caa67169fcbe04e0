import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import S3rver from 's3rver';
import type { S3Settings } from '../src/files/s3-store.ts';
import { poll } from './poll.ts';

/* Real services the tests start on free ports: a Mosquitto with its dynamic-security plugin, an S3-compatible server. */

const ADMIN = 'lh-admin';
const ADMIN_PASSWORD = 'Dynsec-Admin-1234';
const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * A Mosquitto of its own on a free port, with the dynamic-security plugin and only an admin client
 * (as `mosquitto_ctrl dynsec init` makes it): no device account exists but what the server creates.
 */
export async function startMosquitto(): Promise<{
  url: string;
  port: number;
  restart: (o?: { loseAccounts?: boolean }) => Promise<void>;
  stop: () => Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-dynsec-'));
  const plugin = fs.existsSync(PLUGIN)
    ? PLUGIN
    : execFileSync('sh', ['-c', 'ls /usr/lib/*/mosquitto_dynamic_security.so']).toString().trim();
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynsec.json'), ADMIN, ADMIN_PASSWORD], { stdio: 'ignore' });
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      // Started as root, Mosquitto would switch to its own user, which cannot read this private folder.
      `user ${os.userInfo().username}`,
      'persistence false',
      // As docs/device-protocol.md asks of an operator: the servers' connections may each have 1,000
      // messages in flight (MQTT 5 clients announce it; this is for 3.1.1 ones), and a backlog for
      // a slow or restarting server copy is queued, not dropped past the default 1,000.
      'max_inflight_messages 1000',
      'max_queued_messages 1000000',
      `plugin ${plugin}`,
      `plugin_opt_config_file ${path.join(dir, 'dynsec.json')}`,
      '',
    ].join('\n'),
  );
  const launch = (): ChildProcess =>
    spawn(fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto', ['-c', conf], { stdio: 'ignore' });
  const listening = () =>
    poll(
      () =>
        new Promise<boolean>((resolve) => {
          const c = net.connect(port, '127.0.0.1', () => {
            c.destroy();
            resolve(true);
          });
          c.on('error', () => resolve(false));
        }),
      (up) => up,
      { ms: 10_000 },
    );
  let proc = launch();
  await listening();
  const halt = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
  };
  return {
    url: `mqtt://${ADMIN}:${ADMIN_PASSWORD}@127.0.0.1:${port}`,
    port,
    /**
     * Stops and starts it again on the same port; `loseAccounts`: with a dynamic-security file as
     * `mosquitto_ctrl dynsec init` makes it (the admin alone), as a broker that lost its file comes back.
     */
    restart: async (o: { loseAccounts?: boolean } = {}) => {
      await halt();
      if (o.loseAccounts) {
        fs.rmSync(path.join(dir, 'dynsec.json'), { force: true });
        execFileSync('mosquitto_ctrl', ['dynsec', 'init', path.join(dir, 'dynsec.json'), ADMIN, ADMIN_PASSWORD], { stdio: 'ignore' });
      }
      proc = launch();
      await listening();
    },
    stop: async () => {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Connects as a device (client id: its device ID, unless `o.clientId`): resolves with the CONNACK's
 * outcome (`sessionPresent` when accepted).
 */
export function tryConnect(
  port: number,
  deviceId: string,
  key: string,
  o: Partial<mqtt.IClientOptions> = {},
): Promise<{ ok: boolean; client: mqtt.MqttClient; sessionPresent?: boolean }> {
  return new Promise((resolve) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      clientId: deviceId,
      username: deviceId,
      password: key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...o,
    });
    client.once('connect', (ack) => resolve({ ok: true, client, sessionPresent: ack.sessionPresent }));
    client.once('error', () => {
      client.end(true);
      resolve({ ok: false, client });
    });
  });
}

/** A local S3-compatible server (s3rver) on a free port, with one empty bucket. */
export async function startS3(bucket: string): Promise<{ settings: S3Settings; stop: () => Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    settings: {
      url: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      pathStyle: true,
      prefix: '',
    },
    stop: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
