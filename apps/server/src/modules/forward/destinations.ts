import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { ForwardDestination } from '@loggerhead/contract';
import * as amqp from 'amqplib';
import { Redis, type RedisOptions } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import mqtt from 'mqtt';
import { type NatsConnection, connect as natsConnect } from 'nats';
import pg from 'pg';
import { type ConnectOptions, type Egress, hostOf } from '../../lib/egress.ts';

/** One message as a destination receives it (docs/decisions/0126-forwarding-delivery.md). */
export interface ForwardMessage {
  /** The outbox id: at-least-once delivery may repeat a message; the id tells the duplicate. */
  id: string;
  rule_id: string;
  tenant_id: string;
  things_id: string | null;
  third_things_id: string | null;
  kind: string;
  /** When the data was captured, ms since the epoch. */
  ts: number;
  data: unknown;
}

/**
 * An open connection to a destination. `send` resolves once the destination acknowledged every
 * message of the list (in the list's order), and rejects if any was not.
 */
export interface Sender {
  send(messages: readonly ForwardMessage[]): Promise<void>;
  close(): Promise<void>;
}

export const SIGNATURE_HEADER = 'x-loggerhead-signature';

/** Fills `{tenant_id}`, `{things_id}`, `{third_things_id}`, `{kind}`, `{rule_id}` of a topic, subject or key. */
export function fillTemplate(t: string, m: ForwardMessage): string {
  return t.replace(/\{(tenant_id|things_id|third_things_id|kind|rule_id)\}/g, (_, k: keyof ForwardMessage) => String(m[k] ?? ''));
}

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });

/** The HMAC-SHA256 signature of a webhook body, as sent in `X-Loggerhead-Signature`. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const decode = (s: string) => (s ? decodeURIComponent(s) : undefined);

/** Host and port of a destination URL, as the egress policy checks them and the socket connects to them. */
function target(u: URL, defaultPort: number): { host: string; port: number } {
  return { host: hostOf(u), port: Number(u.port) || defaultPort };
}

/**
 * One POST under the egress policy: the connection resolves through the policy's lookup (every
 * connect checked again), and a redirect is not followed (a 3xx is a failure like any non-2xx).
 */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  egress: Egress,
  agent: http.Agent,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: egress.lookup,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Webhook: one POST per round, `{"messages":[…]}` in order; a 2xx answer acknowledges them all. */
async function httpSender(d: Extract<ForwardDestination, { kind: 'http' }>, egress: Egress): Promise<Sender> {
  const url = new URL(d.url);
  await egress.check(url);
  // The rule's own connections: none opened by another request to the same address is reused.
  const agent = url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  return {
    async send(messages) {
      const body = JSON.stringify({ messages });
      const headers: Record<string, string> = { ...d.headers, 'content-type': 'application/json' };
      if (d.secret) headers[SIGNATURE_HEADER] = signBody(d.secret, body);
      const status = await post(url, headers, body, d.timeout_ms, egress, agent);
      if (status >= 300 && status <= 399) throw new Error(`HTTP ${status} (redirects are not followed)`);
      if (status < 200 || status > 299) throw new Error(`HTTP ${status}`);
    },
    async close() {
      agent.destroy();
    },
  };
}

/** Resolves once an MQTT client is connected; rejects with the socket's or the broker's error. */
function connected(client: mqtt.MqttClient, ms: number, streamError: () => Error | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (e?: Error) => {
      clearTimeout(t);
      client.removeListener('connect', ok);
      client.removeListener('error', bad);
      client.removeListener('close', closed);
      if (e) {
        client.end(true);
        reject(e);
      } else resolve();
    };
    const ok = () => done();
    const bad = (e: Error) => done(streamError() ?? e);
    const closed = () => done(streamError() ?? new Error('MQTT connection closed'));
    const t = setTimeout(() => done(new Error(`MQTT: no answer in ${ms} ms`)), ms);
    client.once('connect', ok);
    client.once('error', bad);
    client.once('close', closed);
  });
}

/** MQTT: one publish per message on the topic template, at the rule's QoS (QoS ≥ 1 waits for the broker's ack). */
async function mqttSender(d: Extract<ForwardDestination, { kind: 'mqtt' }>, egress: Egress): Promise<Sender> {
  const u = new URL(d.url);
  await egress.check(u);
  const options = {
    username: d.username ?? decode(u.username),
    password: d.password ?? decode(u.password),
    clientId: d.client_id || `loggerhead-fwd-${Math.random().toString(16).slice(2, 10)}`,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    clean: true,
  };
  let client: mqtt.MqttClient;
  if (u.protocol === 'ws:' || u.protocol === 'wss:') {
    // WebSocket: the handshake's connection resolves through the policy; redirects are not followed.
    client = await mqtt.connectAsync(d.url, { ...options, wsOptions: { lookup: egress.lookup, followRedirects: false } });
  } else {
    // TCP and TLS: the client's socket is the policy's (the library's own would connect by any name it parsed).
    let streamError: Error | undefined;
    const secure = u.protocol === 'mqtts:';
    const to: ConnectOptions = { ...target(u, secure ? 8883 : 1883), tls: secure };
    client = new mqtt.MqttClient(() => {
      const socket = egress.connect(to);
      socket.on('error', (e) => {
        streamError ??= e;
      });
      return socket;
    }, options);
    await connected(client, 10_000, () => streamError);
  }
  client.on('error', () => {});
  return {
    async send(messages) {
      if (!client.connected) throw new Error('MQTT connection lost');
      await withTimeout(
        Promise.all(messages.map((m) => client.publishAsync(fillTemplate(d.topic, m), JSON.stringify(m), { qos: d.qos }))),
        30_000,
        'MQTT publish',
      );
    },
    async close() {
      await client.endAsync(true).catch(() => {});
    },
  };
}

/** AMQP (RabbitMQ): a confirm channel; a round is acknowledged when the broker confirmed every publish. */
async function amqpSender(d: Extract<ForwardDestination, { kind: 'amqp' }>, egress: Egress): Promise<Sender> {
  const u = new URL(d.url);
  await egress.check(u);
  const secure = u.protocol === 'amqps:';
  const to = target(u, secure ? 5671 : 5672);
  const num = (k: string) => (u.searchParams.has(k) ? Number(u.searchParams.get(k)) : undefined);
  // The URL as parsed here (not by the library) says where to connect; the socket resolves through the policy.
  const conn = await amqp.connect(
    {
      protocol: secure ? 'amqps' : 'amqp',
      hostname: to.host,
      port: to.port,
      username: decode(u.username),
      password: d.password || decode(u.password),
      vhost: u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : '/',
      heartbeat: num('heartbeat'),
      frameMax: num('frameMax'),
      channelMax: num('channelMax'),
    },
    { timeout: 10_000, lookup: egress.lookup },
  );
  conn.on('error', () => {});
  let broken: Error | null = null;
  conn.on('close', () => {
    broken ??= new Error('AMQP connection closed');
  });
  const ch = await conn.createConfirmChannel();
  ch.on('error', (e) => {
    broken = e;
  });
  ch.on('close', () => {
    broken ??= new Error('AMQP channel closed');
  });
  return {
    async send(messages) {
      if (broken) throw broken;
      for (const m of messages)
        ch.publish(d.exchange, fillTemplate(d.routing_key, m), Buffer.from(JSON.stringify(m)), {
          contentType: 'application/json',
          messageId: m.id,
          persistent: true,
          mandatory: false,
        });
      await withTimeout(ch.waitForConfirms(), 30_000, 'AMQP confirms');
      if (broken) throw broken;
    },
    async close() {
      await conn.close().catch(() => {});
    },
  };
}

/** NATS JetStream: each message published and acknowledged by the stream that captures its subject. */
async function natsSender(d: Extract<ForwardDestination, { kind: 'nats' }>, egress: Egress): Promise<Sender> {
  const u = new URL(d.url);
  // The client connects by address only (it takes no lookup): to the one the policy checked, and to no
  // other server a cluster announces.
  const [address] = await egress.check(u);
  const host = hostOf(u);
  const named = address !== host;
  const nc: NatsConnection = await natsConnect({
    servers: `${address.includes(':') ? `[${address}]` : address}:${u.port || 4222}`,
    resolve: false,
    ignoreClusterUpdates: true,
    user: d.username || (u.username ? decodeURIComponent(u.username) : undefined),
    pass: d.password || (u.password ? decodeURIComponent(u.password) : undefined),
    token: d.token,
    timeout: 10_000,
    maxReconnectAttempts: 0,
    tls:
      u.protocol === 'tls:'
        ? named
          ? ({ checkServerIdentity: (_: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(host, cert) } as object)
          : {}
        : undefined,
  });
  const js = nc.jetstream({ timeout: 10_000 });
  const enc = new TextEncoder();
  return {
    async send(messages) {
      if (nc.isClosed()) throw new Error('NATS connection closed');
      await Promise.all(messages.map((m) => js.publish(fillTemplate(d.subject, m), enc.encode(JSON.stringify(m)), { msgID: m.id })));
    },
    async close() {
      await nc.close().catch(() => {});
    },
  };
}

/**
 * An ioredis connector whose socket is the policy's: ioredis's own connects by the options it was
 * given (a URL's query can name a socket path) and takes no lookup.
 */
function policyConnector(egress: Egress, to: ConnectOptions, failed: (e: Error) => void) {
  return class PolicyConnector {
    connecting = false;
    stream: net.Socket | undefined;
    firstError: Error | undefined;
    check() {
      return true;
    }
    disconnect() {
      this.connecting = false;
      const s = this.stream;
      if (!s) return;
      const t = setTimeout(() => s.destroy(), 2000);
      t.unref();
      s.on('close', () => clearTimeout(t));
      s.end();
    }
    connect(): Promise<net.Socket> {
      this.connecting = true;
      const s = egress.connect(to);
      s.once('error', (e) => {
        this.firstError = e;
        failed(e);
      });
      this.stream = s;
      return Promise.resolve(s);
    }
  };
}

/** Redis streams: `XADD stream * message <json>` per message, in one pipeline. */
async function redisSender(d: Extract<ForwardDestination, { kind: 'redis' }>, egress: Egress): Promise<Sender> {
  const u = new URL(d.url);
  await egress.check(u);
  const secure = u.protocol === 'rediss:';
  const to: ConnectOptions = { ...target(u, 6379), tls: secure };
  const db = Number(u.pathname.slice(1) || 0);
  // ioredis reports a socket that failed as "Connection is closed.": the socket's own error says why.
  let socketError: Error | undefined;
  const r = new Redis({
    host: to.host,
    port: to.port,
    username: decode(u.username),
    password: d.password || decode(u.password),
    db: Number.isInteger(db) ? db : 0,
    // ioredis waits for the TLS handshake when `tls` is set; the connector opens the TLS socket.
    tls: secure ? {} : undefined,
    Connector: policyConnector(egress, to, (e) => {
      socketError ??= e;
    }) as unknown as RedisOptions['Connector'],
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 10_000,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  await r.connect().catch((e) => {
    throw socketError ?? e;
  });
  return {
    async send(messages) {
      const p = r.pipeline();
      for (const m of messages) {
        const key = fillTemplate(d.stream, m);
        if (d.maxlen) p.xadd(key, 'MAXLEN', '~', d.maxlen, '*', 'id', m.id, 'message', JSON.stringify(m));
        else p.xadd(key, '*', 'id', m.id, 'message', JSON.stringify(m));
      }
      const out = await withTimeout(p.exec(), 30_000, 'Redis XADD');
      const failed = (out ?? []).find(([e]) => e);
      if (!out || failed) throw failed?.[0] ?? new Error('Redis pipeline not run');
    },
    async close() {
      r.disconnect();
    },
  };
}

/**
 * PostgreSQL: the round's messages inserted in one statement (committed = acknowledged), which may
 * take `timeout_ms` at most, lock waits included: a locked table fails the round instead of holding
 * the rule for ever. A message
 * sent again (its acknowledgement lost after the commit) is skipped when the table has a unique key on
 * `message_id`, instead of failing the round on it for ever; without one the table keeps both copies.
 */
async function postgresSender(d: Extract<ForwardDestination, { kind: 'postgres' }>, egress: Egress): Promise<Sender> {
  const u = new URL(d.url);
  await egress.check(u);
  const to = target(u, 5432);
  const client = new pg.Client({
    connectionString: d.url,
    // The socket goes to the URL's host and port as checked here, through the policy's lookup,
    // whatever host the library reads from the connection string (a `?host=` socket directory too).
    stream: () => {
      const socket = new net.Socket();
      const connect = net.Socket.prototype.connect as (o: net.TcpSocketConnectOpts) => net.Socket;
      socket.connect = (() => connect.call(socket, { host: to.host, port: to.port, lookup: egress.lookup })) as typeof socket.connect;
      return socket;
    },
    password: d.password || undefined,
    connectionTimeoutMillis: 10_000,
    // The server cancels an insert that takes longer (a locked table, a stuck trigger) …
    statement_timeout: d.timeout_ms,
    // … and the client gives up a little later if the server cannot even answer that.
    query_timeout: d.timeout_ms + 5_000,
  });
  client.on('error', () => {});
  await client.connect();
  const table = d.table
    .split('.')
    .map((p) => `"${p}"`)
    .join('.');
  let broken = false;
  client.on('end', () => {
    broken = true;
  });
  return {
    async send(messages) {
      if (broken) throw new Error('PostgreSQL connection closed');
      const values: unknown[] = [];
      const rows = messages.map((m, i) => {
        values.push(m.id, m.rule_id, m.things_id, m.kind, new Date(m.ts), JSON.stringify(m));
        const b = i * 6;
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4},$${b + 5},$${b + 6}::jsonb)`;
      });
      try {
        await client.query(
          `insert into ${table} (message_id, rule_id, things_id, kind, ts, payload) values ${rows.join(',')} on conflict do nothing`,
          values,
        );
      } catch (e) {
        // 57014 query_canceled: the statement_timeout; "Query read timeout": the client's own.
        const err = e as { code?: string; message?: string };
        if (err.code === '57014' || /query read timeout/i.test(err.message ?? ''))
          throw new Error(`PostgreSQL: the insert into ${d.table} took longer than ${d.timeout_ms} ms (is the table locked?)`);
        throw e;
      }
    },
    async close() {
      await client.end().catch(() => {});
    },
  };
}

/** Kafka: one `send` per round to the topic, keyed by device (a device's messages stay on one partition, in order). */
async function kafkaSender(d: Extract<ForwardDestination, { kind: 'kafka' }>, egress: Egress): Promise<Sender> {
  for (const b of d.brokers) await egress.check(b);
  const kafka = new Kafka({
    // Every broker connection, the seed brokers' and those the cluster's metadata names, is the policy's socket.
    socketFactory: ({ host, port, ssl, onConnect }) => {
      const socket = egress.connect({ host, port, tls: ssl ? (ssl as tls.ConnectionOptions) : false });
      socket.once(ssl ? 'secureConnect' : 'connect', onConnect);
      return socket;
    },
    clientId: d.client_id,
    brokers: d.brokers,
    ssl: d.ssl,
    sasl: d.username && d.password ? { mechanism: 'plain', username: d.username, password: d.password } : undefined,
    connectionTimeout: 10_000,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
  const producer = kafka.producer({ idempotent: false, maxInFlightRequests: 1 });
  await producer.connect();
  return {
    async send(messages) {
      const byTopic = new Map<string, { key: string; value: string }[]>();
      for (const m of messages) {
        const topic = fillTemplate(d.topic, m);
        const list = byTopic.get(topic) ?? [];
        list.push({ key: m.things_id ?? '', value: JSON.stringify(m) });
        byTopic.set(topic, list);
      }
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, msgs]) => ({ topic, messages: msgs })) });
    },
    async close() {
      await producer.disconnect().catch(() => {});
    },
  };
}

/**
 * Opens a client for the destination under the egress policy (rejects when it cannot connect, and
 * with EgressRefused before any connection when the address is refused).
 */
export async function openSender(d: ForwardDestination, egress: Egress): Promise<Sender> {
  switch (d.kind) {
    case 'http':
      return httpSender(d, egress);
    case 'mqtt':
      return mqttSender(d, egress);
    case 'amqp':
      return amqpSender(d, egress);
    case 'nats':
      return natsSender(d, egress);
    case 'redis':
      return redisSender(d, egress);
    case 'postgres':
      return postgresSender(d, egress);
    case 'kafka':
      return kafkaSender(d, egress);
  }
}

/** Every host a destination connects to (its URL's, or each Kafka broker's). */
export function destinationHosts(d: ForwardDestination): string[] {
  return d.kind === 'kafka' ? d.brokers : [d.url];
}

/**
 * Where a destination connects: scheme, host and port of its URL (and a PostgreSQL URL's `host`
 * parameter), or its Kafka brokers. Stored credentials go to the stored address only.
 */
export function destinationAddress(d: Record<string, unknown>): string {
  if (Array.isArray(d.brokers)) return `kafka:${[...d.brokers].map(String).sort().join(',')}`;
  if (typeof d.url !== 'string') return '';
  try {
    const u = new URL(d.url);
    return `${u.protocol}//${u.host}${u.searchParams.has('host') ? `?host=${u.searchParams.get('host')}` : ''}`;
  } catch {
    return d.url;
  }
}

/** A short, secret-free text for an error of a destination client. */
export function errorText(e: unknown): string {
  const err = e as { message?: string; code?: string; errors?: unknown[] };
  let m = String(err?.message || err?.code || e);
  if (!m && Array.isArray(err?.errors)) m = err.errors.map((x) => String((x as Error)?.message ?? x)).join('; ');
  // Connection strings can carry a password.
  return m.replace(/\/\/[^/@\s]*@/g, '//***@').slice(0, 300);
}
