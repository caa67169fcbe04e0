import net from 'node:net';
import type { CanFrame } from '@loggerhead/can';
import { encodeBatch } from '@loggerhead/can/protocol/batch.ts';
import { Aedes } from 'aedes';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

/** Connects like a logger; resolves with the client or rejects with the CONNACK error. */
export function connectDevice(url: string, deviceId: string, key: string, extra: IClientOptions = {}): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const c = mqtt.connect(url, {
      clientId: deviceId,
      username: deviceId,
      password: key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...extra,
    });
    c.once('connect', () => resolve(c));
    c.once('error', (e) => {
      c.end(true);
      reject(e);
    });
    c.once('close', () => reject(new Error('closed before CONNACK')));
  });
}

export function frames(n: number, t0: number, channel = 0, idBase = 0x100): CanFrame[] {
  return Array.from({ length: n }, (_, i) => ({
    ts: t0 + i * 1000,
    channel,
    id: idBase + (i % 16),
    ext: false,
    fd: false,
    brs: false,
    esi: false,
    rtr: false,
    err: false,
    tx: false,
    data: new Uint8Array([i & 0xff, (i >> 8) & 0xff, 3, 4, 5, 6, 7, 8]),
  }));
}

export const batch = (seq: number, t0: number, n = 100, session = 1) => Buffer.from(encodeBatch(frames(n, t0), { session, seq }));

/** Resolves when the client's connection closes (or after `ms`, with false). */
export function closed(c: MqttClient, ms = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    if (!c.connected) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    c.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/**
 * A broker the server does not run: Mosquitto when TEST_MQTT_URL names one (CI), otherwise a plain
 * broker started here that knows nothing of devices (no auth, no hooks, MQTT 3.1.1 only).
 */
export async function externalBroker(): Promise<{ url: string; stop: () => Promise<void> }> {
  const external = process.env.TEST_MQTT_URL;
  if (external) return { url: external, stop: async () => {} };
  const plain = await Aedes.createBroker();
  const server = net.createServer(plain.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    stop: async () => {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
