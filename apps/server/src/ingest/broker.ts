import net from 'node:net';
import type { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

/**
 * The device transport: an embedded aedes broker (default) or a client of an
 * external broker (`MQTT_URL`). Ingest hooks into it (see ingest.ts).
 */
export interface Broker {
  readonly kind: 'embedded' | 'external';
  /** Port the embedded broker listens on (after start). */
  port(): number | null;
  isUp(): boolean;
  start(): Promise<void>;
  close(): Promise<void>;
  /** The embedded aedes instance (null when external). */
  readonly aedes: Aedes | null;
  /** Clients of the external broker (empty when embedded). */
  readonly clients: MqttClient[];
  /** Sends a QoS 1 downlink; queued for the device while it is offline. */
  publish(topic: string, payload: Uint8Array): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(
    readonly variable: string,
    readonly portNumber: number,
  ) {
    super(`port ${portNumber} is already in use: set ${variable} to a free port`);
  }
}

export function listen(server: net.Server, port: number, host: string, variable: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(e.code === 'EADDRINUSE' ? new PortInUseError(variable, port) : e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Connections accepted over the broker's ceiling: their CONNECT is refused ("server unavailable"). */
const overCeiling = new WeakSet<object>();
export const isOverCeiling = (conn: unknown): boolean => typeof conn === 'object' && conn !== null && overCeiling.has(conn);

export function embeddedBroker(opts: {
  port: number;
  host: string;
  aedes: Aedes;
  /** Connections held at most; one more is marked for refusal at its CONNECT (see `isOverCeiling`). */
  maxConnections?: number;
  handle?: (conn: net.Socket) => unknown;
  onStart?: () => Promise<void>;
  onClose?: () => Promise<void>;
}): Broker {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((conn) => {
    if (sockets.size >= (opts.maxConnections ?? Number.POSITIVE_INFINITY)) overCeiling.add(conn);
    sockets.add(conn);
    conn.on('close', () => sockets.delete(conn));
    (opts.handle ?? opts.aedes.handle)(conn);
  });
  let actual: number | null = null;
  let up = false;
  return {
    kind: 'embedded',
    aedes: opts.aedes,
    clients: [],
    port: () => actual,
    isUp: () => up,
    async start() {
      await opts.onStart?.();
      actual = await listen(server, opts.port, opts.host, 'MQTT_PORT');
      up = true;
    },
    async close() {
      up = false;
      const closed = new Promise<void>((r) => server.close(() => r()));
      // Stop taking packets, let uplinks in flight commit, then drop the connections.
      await new Promise<void>((r) => opts.aedes.close(() => r()));
      await opts.onClose?.();
      for (const s of sockets) s.destroy();
      await closed;
    },
    publish(topic, payload) {
      return new Promise((resolve, reject) =>
        opts.aedes.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
    },
  };
}

export interface ExternalOptions {
  url: string;
  clientId: string;
  /** Shared-subscription filter, and the plain filter used when the broker refuses shared ones. */
  filters: { shared: string; plain: string };
  /** Connections in the shared group: each handles one message at a time. */
  connections: number;
  /** Settles when the message may be acknowledged to the broker. */
  onMessage: (topic: string, payload: Buffer) => Promise<unknown>;
  onError: (err: unknown, topic: string) => void;
  onClose?: () => Promise<void>;
}

export function externalBroker(o: ExternalOptions): Broker {
  const clients: MqttClient[] = [];
  let shared = true;
  const b: Broker = {
    kind: 'external',
    aedes: null,
    clients,
    port: () => null,
    isUp: () => clients.length > 0 && clients.every((c) => c.connected),
    async start() {
      // MQTT 5 first (session expiry, shared subscriptions); a broker that only speaks 3.1.1
      // refuses that CONNECT, and the server then talks 3.1.1 with a persistent session instead.
      let version: 4 | 5 = 5;
      for (let i = 0; i < o.connections; i++) {
        const open = (protocolVersion: 4 | 5) => {
          const c = mqtt.connect(o.url, {
            clientId: `${o.clientId}-${i}`,
            protocolVersion,
            clean: false,
            ...(protocolVersion === 5 ? { properties: { sessionExpiryInterval: 3600 } } : {}),
            reconnectPeriod: 1000,
          });
          // mqtt.js sends the PUBACK when handleMessage calls back: only after the commit.
          c.handleMessage = (packet, callback) => {
            if (packet.cmd !== 'publish') return callback();
            o.onMessage(packet.topic, packet.payload as Buffer).then(
              () => callback(),
              (err) => {
                o.onError(err, packet.topic);
                // Not acknowledged: drop the connection so the broker re-delivers.
                c.stream.destroy();
              },
            );
          };
          return c;
        };
        const connected = (c: MqttClient) =>
          new Promise<boolean>((resolve, reject) => {
            const t = setTimeout(() => reject(new Error(`MQTT_URL: no answer from ${new URL(o.url).host} within 10 s`)), 10_000);
            const refused = () => {
              clearTimeout(t);
              resolve(false);
            };
            c.once('connect', () => {
              clearTimeout(t);
              c.off('error', refused).off('close', refused);
              resolve(true);
            });
            // Refused at CONNECT (wrong protocol version): only the first attempt tries the other one.
            if (i === 0 && version === 5) c.once('error', refused).once('close', refused);
          });
        let c = open(version);
        if (!(await connected(c))) {
          c.end(true);
          version = 4;
          c = open(version);
          await connected(c);
          // Shared subscriptions are MQTT 5: a 3.1.1 broker may grant "$share/…" as a plain filter that matches nothing.
          shared = false;
        }
        clients.push(c);
        const granted = shared ? await c.subscribeAsync(o.filters.shared, { qos: 1 }).catch(() => null) : null;
        if (!shared || !granted || granted.some((g) => g.qos > 2)) {
          // No shared subscriptions on this broker: one connection takes everything.
          shared = false;
          await c.subscribeAsync(o.filters.plain, { qos: 1 });
          break;
        }
      }
    },
    async close() {
      await Promise.all(clients.map((c) => c.endAsync()));
      await o.onClose?.();
    },
    async publish(topic, payload) {
      await clients[0]?.publishAsync(topic, Buffer.from(payload), { qos: 1 });
    },
  };
  return b;
}
