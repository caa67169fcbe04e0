import type { RawSql } from '../db/client.ts';

export interface StoredPacket {
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
export interface Sub {
  topic: string;
  qos: number;
  rh?: number;
  rap?: boolean;
  nl?: boolean;
  subscriptionIdentifier?: number;
}
export type ClientRef = { id: string };

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
export const bytes = (p: StoredPacket) => (typeof p.payload === 'string' ? Buffer.from(p.payload) : p.payload);

/** The embedded broker's durable state: sessions' subscriptions, queued QoS 1 downlinks, retained messages. */
export function mqttRepository(raw: RawSql) {
  return {
    async subscriptions(): Promise<{ client_id: string; topic: string; qos: number; options: Omit<Sub, 'topic' | 'qos'> }[]> {
      const subs = await raw.query<{ client_id: string; topic: string; qos: number; options: Omit<Sub, 'topic' | 'qos'> }>(
        'select client_id, topic, qos, options from mqtt_subscriptions order by client_id',
      );
      return subs.rows;
    },

    async outgoing(): Promise<{ client_id: string; packet: StoredPacket; payload: Uint8Array; message_id: number | null }[]> {
      const out = await raw.query<{ client_id: string; packet: StoredPacket; payload: Uint8Array; message_id: number | null }>(
        'select client_id, packet, payload, message_id from mqtt_outgoing order by id',
      );
      return out.rows;
    },

    async retained(): Promise<{ packet: StoredPacket; payload: Uint8Array }[]> {
      const ret = await raw.query<{ packet: StoredPacket; payload: Uint8Array }>('select packet, payload from mqtt_retained');
      return ret.rows;
    },

    /** An empty payload clears the topic's retained message. */
    async storeRetained(packet: StoredPacket): Promise<void> {
      if (bytes(packet).length === 0) await raw.query('delete from mqtt_retained where topic = $1', [packet.topic]);
      else
        await raw.query(
          'insert into mqtt_retained (topic, packet, payload) values ($1,$2::jsonb,$3) on conflict (topic) do update set packet = excluded.packet, payload = excluded.payload',
          [packet.topic, meta(packet), bytes(packet)],
        );
    },

    /** Subscriptions of several clients in one statement (the last of a client and topic wins). */
    async addSubscriptionsMany(list: { clientId: string; subs: Sub[] }[]): Promise<void> {
      const last = new Map<string, { clientId: string; sub: Sub }>();
      for (const { clientId, subs } of list) for (const sub of subs) last.set(JSON.stringify([clientId, sub.topic]), { clientId, sub });
      const params: unknown[] = [];
      const rows = [...last.values()].map(({ clientId, sub }) => {
        const { topic, qos, ...options } = sub;
        params.push(clientId, topic, qos, JSON.stringify(options));
        const b = params.length - 4;
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4}::jsonb)`;
      });
      if (!rows.length) return;
      await raw.query(
        `insert into mqtt_subscriptions (client_id, topic, qos, options) values ${rows.join(',')}
         on conflict (client_id, topic) do update set qos = excluded.qos, options = excluded.options`,
        params,
      );
    },

    async addSubscriptions(clientId: string, subs: Sub[]): Promise<void> {
      const params: unknown[] = [];
      const rows = subs.map((s) => {
        const { topic, qos, ...options } = s;
        params.push(clientId, topic, qos, JSON.stringify(options));
        const b = params.length - 4;
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4}::jsonb)`;
      });
      await raw.query(
        `insert into mqtt_subscriptions (client_id, topic, qos, options) values ${rows.join(',')}
         on conflict (client_id, topic) do update set qos = excluded.qos, options = excluded.options`,
        params,
      );
    },

    async removeSubscriptions(clientId: string, topics: string[]): Promise<void> {
      await raw.query('delete from mqtt_subscriptions where client_id = $1 and topic = any($2::text[])', [clientId, topics]);
    },

    /** Forgets the client's session: subscriptions and queued downlinks. */
    async clean(clientId: string): Promise<void> {
      await raw.query('delete from mqtt_subscriptions where client_id = $1', [clientId]);
      await raw.query('delete from mqtt_outgoing where client_id = $1', [clientId]);
    },

    async enqueue(clientIds: string[], packet: StoredPacket): Promise<void> {
      const params: unknown[] = [];
      const rows = clientIds.map((clientId) => {
        params.push(clientId, packet.brokerId ?? '', packet.brokerCounter ?? 0, meta(packet), bytes(packet));
        const b = params.length - 5;
        return `($${b + 1},$${b + 2},$${b + 3},$${b + 4}::jsonb,$${b + 5})`;
      });
      await raw.query(`insert into mqtt_outgoing (client_id, broker_id, broker_counter, packet, payload) values ${rows.join(',')}`, params);
    },

    async setMessageId(clientId: string, packet: StoredPacket): Promise<void> {
      await raw.query('update mqtt_outgoing set message_id = $4 where client_id = $1 and broker_id = $2 and broker_counter = $3', [
        clientId,
        packet.brokerId ?? '',
        packet.brokerCounter ?? 0,
        packet.messageId ?? null,
      ]);
    },

    async removeOutgoing(clientId: string, packet: StoredPacket): Promise<void> {
      await raw.query('delete from mqtt_outgoing where client_id = $1 and broker_id = $2 and broker_counter = $3', [
        clientId,
        packet.brokerId ?? '',
        packet.brokerCounter ?? 0,
      ]);
    },
  };
}
