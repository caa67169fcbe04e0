import { createRequire } from 'node:module';
import type { RawSql } from '../db/client.ts';

// aedes-persistence ships the in-memory store as a CommonJS class; we extend it so that every
// change to sessions, queued downlinks and retained messages is written through to the database
// before aedes goes on, and is loaded back at start.
const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: untyped CommonJS base class
const MemoryPersistence: new (opts?: object) => any = require('aedes-persistence/asyncPersistence.js');

interface StoredPacket {
  cmd?: string;
  topic: string;
  payload: Buffer | Uint8Array | string;
  qos?: number;
  retain?: boolean;
  dup?: boolean;
  messageId?: number;
  brokerId?: string;
  brokerCounter?: number;
  properties?: Record<string, unknown>;
  messageExpiry?: number;
}
interface Sub {
  topic: string;
  qos: number;
  rh?: number;
  rap?: boolean;
  nl?: boolean;
  subscriptionIdentifier?: number;
}
type ClientRef = { id: string };

const meta = (p: StoredPacket) =>
  JSON.stringify({
    cmd: p.cmd ?? 'publish',
    topic: p.topic,
    qos: p.qos ?? 0,
    retain: p.retain ?? false,
    brokerId: p.brokerId,
    brokerCounter: p.brokerCounter,
    properties: p.properties,
    messageExpiry: p.messageExpiry,
  });
const bytes = (p: StoredPacket) => (typeof p.payload === 'string' ? Buffer.from(p.payload) : p.payload);

/**
 * Durable aedes persistence: MQTT sessions (subscriptions of clients with clean=false), QoS 1
 * downlinks queued for offline devices and retained messages survive a restart. QoS 2 in-flight
 * state and wills stay in memory: devices use QoS 1, and a will belongs to a connection that a
 * restart ends anyway (devices are marked offline at start).
 */
export class DatabasePersistence extends MemoryPersistence {
  constructor(private readonly raw: RawSql) {
    super();
  }

  async setup(broker: unknown): Promise<void> {
    await super.setup(broker);
    const subs = await this.raw.query<{ client_id: string; topic: string; qos: number; options: Omit<Sub, 'topic' | 'qos'> }>(
      'select client_id, topic, qos, options from mqtt_subscriptions order by client_id',
    );
    const byClient = new Map<string, Sub[]>();
    for (const r of subs.rows) {
      const list = byClient.get(r.client_id) ?? [];
      list.push({ topic: r.topic, qos: r.qos, ...r.options });
      byClient.set(r.client_id, list);
    }
    for (const [id, list] of byClient) await super.addSubscriptions({ id }, list);
    const out = await this.raw.query<{ client_id: string; packet: StoredPacket; payload: Uint8Array; message_id: number | null }>(
      'select client_id, packet, payload, message_id from mqtt_outgoing order by id',
    );
    for (const r of out.rows) {
      await super.outgoingEnqueue({ clientId: r.client_id }, { ...r.packet, payload: Buffer.from(r.payload) });
    }
    const ret = await this.raw.query<{ packet: StoredPacket; payload: Uint8Array }>('select packet, payload from mqtt_retained');
    for (const r of ret.rows) await super.storeRetained({ ...r.packet, payload: Buffer.from(r.payload) });
  }

  async storeRetained(packet: StoredPacket): Promise<void> {
    if (bytes(packet).length === 0) await this.raw.query('delete from mqtt_retained where topic = $1', [packet.topic]);
    else
      await this.raw.query(
        'insert into mqtt_retained (topic, packet, payload) values ($1,$2::jsonb,$3) on conflict (topic) do update set packet = excluded.packet, payload = excluded.payload',
        [packet.topic, meta(packet), bytes(packet)],
      );
    await super.storeRetained(packet);
  }

  async addSubscriptions(client: ClientRef, subs: Sub[]): Promise<void> {
    if (subs.length) {
      const params: unknown[] = [];
      const rows = subs.map((s) => {
        const { topic, qos, ...options } = s;
        params.push(client.id, topic, qos, JSON.stringify(options));
        const b = params.length - 4;
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4}::jsonb)`;
      });
      await this.raw.query(
        `insert into mqtt_subscriptions (client_id, topic, qos, options) values ${rows.join(',')}
         on conflict (client_id, topic) do update set qos = excluded.qos, options = excluded.options`,
        params,
      );
    }
    await super.addSubscriptions(client, subs);
  }

  async removeSubscriptions(client: ClientRef, topics: string[]): Promise<void> {
    await this.raw.query('delete from mqtt_subscriptions where client_id = $1 and topic = any($2::text[])', [client.id, topics]);
    await super.removeSubscriptions(client, topics);
  }

  async cleanSubscriptions(client: ClientRef): Promise<unknown> {
    await this.raw.query('delete from mqtt_subscriptions where client_id = $1', [client.id]);
    await this.raw.query('delete from mqtt_outgoing where client_id = $1', [client.id]);
    return super.cleanSubscriptions(client);
  }

  private async enqueueRows(subs: { clientId: string }[], packet: StoredPacket) {
    if (!subs.length) return;
    const params: unknown[] = [];
    const rows = subs.map((s) => {
      params.push(s.clientId, packet.brokerId ?? '', packet.brokerCounter ?? 0, meta(packet), bytes(packet));
      const b = params.length - 5;
      return `($${b + 1},$${b + 2},$${b + 3},$${b + 4}::jsonb,$${b + 5})`;
    });
    await this.raw.query(
      `insert into mqtt_outgoing (client_id, broker_id, broker_counter, packet, payload) values ${rows.join(',')}`,
      params,
    );
  }

  async outgoingEnqueue(sub: { clientId: string }, packet: StoredPacket): Promise<void> {
    await this.enqueueRows([sub], packet);
    await super.outgoingEnqueue(sub, packet);
  }

  async outgoingEnqueueCombi(subs: { clientId: string }[], packet: StoredPacket): Promise<void> {
    await this.enqueueRows(subs, packet);
    await super.outgoingEnqueueCombi(subs, packet);
  }

  async outgoingUpdate(client: ClientRef, packet: StoredPacket): Promise<void> {
    await super.outgoingUpdate(client, packet);
    if (packet.cmd === 'pubrel') return;
    await this.raw.query('update mqtt_outgoing set message_id = $4 where client_id = $1 and broker_id = $2 and broker_counter = $3', [
      client.id,
      packet.brokerId ?? '',
      packet.brokerCounter ?? 0,
      packet.messageId ?? null,
    ]);
  }

  async outgoingClearMessageId(client: ClientRef, packet: StoredPacket): Promise<unknown> {
    const cleared = (await super.outgoingClearMessageId(client, packet)) as StoredPacket | undefined;
    if (cleared)
      await this.raw.query('delete from mqtt_outgoing where client_id = $1 and broker_id = $2 and broker_counter = $3', [
        client.id,
        cleared.brokerId ?? '',
        cleared.brokerCounter ?? 0,
      ]);
    return cleared;
  }
}
