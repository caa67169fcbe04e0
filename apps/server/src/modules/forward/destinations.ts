import { createHmac } from 'node:crypto';
import type { ForwardDestination } from '@loggerhead/contract';
import * as amqp from 'amqplib';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import mqtt from 'mqtt';
import { type NatsConnection, connect as natsConnect } from 'nats';
import pg from 'pg';

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

/** A URL with the password put in (a destination's `password` field beside a URL without one). */
function withPassword(url: string, username: string | undefined, password: string | undefined): string {
  if (!password && !username) return url;
  const u = new URL(url);
  if (username) u.username = encodeURIComponent(username);
  if (password) u.password = encodeURIComponent(password);
  return u.toString();
}

/** Webhook: one POST per round, `{"messages":[…]}` in order; a 2xx answer acknowledges them all. */
function httpSender(d: Extract<ForwardDestination, { kind: 'http' }>): Sender {
  return {
    async send(messages) {
      const body = JSON.stringify({ messages });
      const headers: Record<string, string> = { ...d.headers, 'content-type': 'application/json' };
      if (d.secret) headers[SIGNATURE_HEADER] = signBody(d.secret, body);
      const res = await fetch(d.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(d.timeout_ms), redirect: 'error' });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
    },
    async close() {},
  };
}

/** MQTT: one publish per message on the topic template, at the rule's QoS (QoS ≥ 1 waits for the broker's ack). */
async function mqttSender(d: Extract<ForwardDestination, { kind: 'mqtt' }>): Promise<Sender> {
  const client = await mqtt.connectAsync(d.url, {
    username: d.username,
    password: d.password,
    clientId: d.client_id || `loggerhead-fwd-${Math.random().toString(16).slice(2, 10)}`,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    clean: true,
  });
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
async function amqpSender(d: Extract<ForwardDestination, { kind: 'amqp' }>): Promise<Sender> {
  const conn = await amqp.connect(withPassword(d.url, undefined, d.password), { timeout: 10_000 });
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
async function natsSender(d: Extract<ForwardDestination, { kind: 'nats' }>): Promise<Sender> {
  const u = new URL(d.url);
  const nc: NatsConnection = await natsConnect({
    servers: `${u.hostname}:${u.port || 4222}`,
    user: d.username || (u.username ? decodeURIComponent(u.username) : undefined),
    pass: d.password || (u.password ? decodeURIComponent(u.password) : undefined),
    token: d.token,
    timeout: 10_000,
    maxReconnectAttempts: 0,
    tls: u.protocol === 'tls:' ? {} : undefined,
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

/** Redis streams: `XADD stream * message <json>` per message, in one pipeline. */
async function redisSender(d: Extract<ForwardDestination, { kind: 'redis' }>): Promise<Sender> {
  const r = new Redis(d.url, {
    password: d.password || undefined,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 10_000,
    retryStrategy: () => null,
  });
  r.on('error', () => {});
  await r.connect();
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
async function postgresSender(d: Extract<ForwardDestination, { kind: 'postgres' }>): Promise<Sender> {
  const client = new pg.Client({
    connectionString: d.url,
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
async function kafkaSender(d: Extract<ForwardDestination, { kind: 'kafka' }>): Promise<Sender> {
  const kafka = new Kafka({
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

/** Opens a client for the destination (rejects when it cannot connect). */
export async function openSender(d: ForwardDestination): Promise<Sender> {
  switch (d.kind) {
    case 'http':
      return httpSender(d);
    case 'mqtt':
      return mqttSender(d);
    case 'amqp':
      return amqpSender(d);
    case 'nats':
      return natsSender(d);
    case 'redis':
      return redisSender(d);
    case 'postgres':
      return postgresSender(d);
    case 'kafka':
      return kafkaSender(d);
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
