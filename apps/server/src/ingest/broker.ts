import net from 'node:net';
import type { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { InOrder, type InOrderEntry } from '../lib/in-order.ts';

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
  /** Connections in the shared group. */
  connections: number;
  /** Messages each connection processes at once (its MQTT 5 receive maximum); default `EXTERNAL_WINDOW`. */
  window?: number;
  /** Settles when the message may be acknowledged to the broker. */
  onMessage: (topic: string, payload: Buffer) => Promise<unknown>;
  onError: (err: unknown, topic: string) => void;
  onClose?: () => Promise<void>;
  /**
   * A connection the broker has delivered nothing to for this long subscribes again (default
   * `EXTERNAL_IDLE_RESUBSCRIBE_MS`): a subscription the broker lost must not stop ingest for good.
   */
  idleResubscribeMs?: number;
  /** Told of each subscription made again (reconnect or silence) and of one refused. */
  onResubscribe?: (connection: number, reason: 'reconnect' | 'idle', err?: unknown) => void;
}

/**
 * Silence after which a connection subscribes again. A subscription that is there already is only
 * replaced (MQTT-3.8.4-3), so a quiet fleet costs one SUBSCRIBE per connection this often.
 */
export const EXTERNAL_IDLE_RESUBSCRIBE_MS = 30_000;

/**
 * Messages in flight per connection of the external broker. A group commit takes up to 2,000 rows
 * (chunk-writer.ts): 4 connections of 1,000 fill one whatever the copies' share of the fleet, and
 * hold a few MB of payload at most.
 */
export const EXTERNAL_WINDOW = 1000;

/**
 * Given to mqtt.js's `handleMessage` callback: mqtt.js then reads on without sending its own PUBACK
 * (handlers/publish.js: an error from `handleMessage` skips the PUBACK), and `AckWindow` sends it.
 */
const HELD = new Error('acknowledged by the window');

/**
 * One connection's messages in flight: processed at once, up to `limit`; their PUBACKs leave in the
 * order the PUBLISHes came (MQTT-4.6.0-2), each once its message and all before it settled. A
 * message that fails is not acknowledged, nor anything after it: the connection is dropped and the
 * broker re-delivers them. Lives as long as one network connection (a reconnect gets a new one, so
 * no PUBACK ever reaches a connection its PUBLISH did not come on).
 */
class AckWindow {
  /** Messages not yet acknowledged, in arrival order (QoS 0 ones hold a place but get no PUBACK). */
  private readonly unacked = new InOrder<number | null>((messageId) => {
    if (messageId !== null && !this.failed && this.stream.writable)
      mqttPacket.writeToStream({ cmd: 'puback', messageId, reasonCode: 0 }, this.stream, { protocolVersion: this.protocolVersion });
  });
  /** Messages whose processing has not settled. */
  private running = 0;
  private waiting: (() => void) | null = null;
  private idle: (() => void)[] = [];
  failed = false;

  constructor(
    readonly stream: MqttClient['stream'],
    private readonly protocolVersion: 4 | 5,
    private readonly limit: number,
  ) {}

  /** Takes a message in; `next` lets mqtt.js read the following packet, at once or when there is room. */
  admit(messageId: number | null, work: Promise<unknown>, next: () => void, fail: (err: unknown) => void) {
    const entry = this.unacked.add(messageId);
    this.running++;
    work.then(
      () => this.settled(entry),
      (err) => {
        if (!this.failed) {
          this.failed = true;
          fail(err);
          // Not acknowledged: drop the connection so the broker re-delivers it and everything after it.
          this.stream.destroy();
        }
        this.settled(entry);
      },
    );
    if (this.unacked.length < this.limit) next();
    else this.waiting = next; // full: the connection is not read until a PUBACK leaves
  }

  private settled(entry: InOrderEntry<number | null>) {
    this.running--;
    // After a failure nothing is acknowledged any more (the release writes no PUBACK).
    this.unacked.settle(entry);
    // After a failure mqtt.js discards what it still holds of this connection.
    if (this.waiting && (this.failed || this.unacked.length < this.limit)) {
      const next = this.waiting;
      this.waiting = null;
      next();
    }
    if (this.running === 0) for (const r of this.idle.splice(0)) r();
  }

  /** Resolves once every message taken in has settled (and, unless one failed, was acknowledged). */
  drained(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }
}

export function externalBroker(o: ExternalOptions): Broker {
  const clients: MqttClient[] = [];
  const limit = o.window ?? EXTERNAL_WINDOW;
  /** The windows whose messages may still be running (a dropped connection's until they settle). */
  const windows = new Set<AckWindow>();
  let closing = false;
  let shared = true;
  /** Per connection: when the broker last delivered to it or it last subscribed. */
  const lastHeard: number[] = [];
  const filterOf: string[] = [];
  const idleMs = o.idleResubscribeMs ?? EXTERNAL_IDLE_RESUBSCRIBE_MS;
  let watchdog: NodeJS.Timeout | null = null;
  const resubscribe = (i: number, reason: 'reconnect' | 'idle') => {
    const c = clients[i];
    lastHeard[i] = Date.now();
    if (closing || !c?.connected) return;
    c.subscribeAsync(filterOf[i], { qos: 1 }).then(
      (granted) => o.onResubscribe?.(i, reason, granted.some((g) => g.qos > 2) ? new Error('subscription refused') : undefined),
      (err) => o.onResubscribe?.(i, reason, err),
    );
  };
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
            // The receive maximum lets the broker send a window's worth before the first PUBACK;
            // without it Mosquitto sends `max_inflight_messages` (default 20).
            ...(protocolVersion === 5 ? { properties: { sessionExpiryInterval: 3600, receiveMaximum: limit } } : {}),
            // Back soon after a broker restart: the broker does not keep a shared subscription over
            // its restart (Mosquitto 2.0), and what devices publish before the connection has
            // subscribed again reaches no one. Loggers back off for 1 s or more (docs/device-protocol.md).
            reconnectPeriod: 200,
            // mqtt.js subscribes again only when the broker says it kept no session; a broker that
            // kept the session may still have lost its subscriptions (Mosquitto restarted from its
            // persistence file drops shared ones), so the connection subscribes itself on every reconnect.
            resubscribe: false,
          });
          // mqtt.js handles a connection's PUBLISHes one at a time and sends each PUBACK when
          // handleMessage calls back. The window instead takes up to `limit` of them at once and
          // sends their PUBACKs itself, in order, each only after its commit.
          let w: AckWindow | null = null;
          c.handleMessage = (packet, callback) => {
            if (packet.cmd !== 'publish') return callback();
            lastHeard[i] = Date.now();
            if (w?.stream !== c.stream) {
              const old = w;
              if (old) void old.drained().then(() => windows.delete(old));
              w = new AckWindow(c.stream, protocolVersion, limit);
              windows.add(w);
            }
            // Closing, or the connection is being dropped: neither processed nor acknowledged, so re-delivered.
            if (closing || w.failed) return callback(HELD);
            let work: Promise<unknown>;
            try {
              work = o.onMessage(packet.topic, packet.payload as Buffer);
            } catch (err) {
              work = Promise.reject(err);
            }
            const topic = packet.topic;
            w.admit(
              packet.qos > 0 ? (packet.messageId ?? null) : null,
              work,
              () => callback(HELD),
              (err) => o.onError(err, topic),
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
        lastHeard[i] = Date.now();
        const granted = shared ? await c.subscribeAsync(o.filters.shared, { qos: 1 }).catch(() => null) : null;
        const plain = !shared || !granted || granted.some((g) => g.qos > 2);
        if (plain) {
          // No shared subscriptions on this broker: one connection takes everything.
          shared = false;
          await c.subscribeAsync(o.filters.plain, { qos: 1 });
        }
        filterOf[i] = plain ? o.filters.plain : o.filters.shared;
        c.on('connect', () => resubscribe(i, 'reconnect'));
        if (plain) break;
      }
      // What the broker delivers must keep flowing: a connection that has heard nothing for a
      // while subscribes again.
      watchdog = setInterval(
        () => {
          const now = Date.now();
          for (let i = 0; i < clients.length; i++) if (now - lastHeard[i] >= idleMs) resubscribe(i, 'idle');
        },
        Math.max(50, Math.floor(idleMs / 4)),
      );
      watchdog.unref();
    },
    async close() {
      // Take nothing more in; what is in flight commits and is acknowledged before the disconnect.
      closing = true;
      if (watchdog) clearInterval(watchdog);
      await Promise.all([...windows].map((w) => w.drained()));
      await Promise.all(clients.map((c) => c.endAsync()));
      await o.onClose?.();
    },
    async publish(topic, payload) {
      await clients[0]?.publishAsync(topic, Buffer.from(payload), { qos: 1 });
    },
  };
  return b;
}
