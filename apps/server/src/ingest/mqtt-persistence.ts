import { createRequire } from 'node:module';
import type { RawSql } from '../db/client.ts';
import { Batcher } from '../lib/batcher.ts';
import { type ClientRef, mqttRepository, type StoredPacket, type Sub } from './mqtt.repository.ts';

// aedes-persistence ships the in-memory store as a CommonJS class; we extend it so that every
// change to sessions, queued downlinks and retained messages is written through to the database
// before aedes goes on, and is loaded back at start.
const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: untyped CommonJS base class
const MemoryPersistence: new (opts?: object) => any = require('aedes-persistence/asyncPersistence.js');

/**
 * Durable aedes persistence: MQTT sessions (subscriptions of clients with clean=false), QoS 1
 * downlinks queued for offline devices and retained messages survive a restart. QoS 2 in-flight
 * state and wills stay in memory: devices use QoS 1, and a will belongs to a connection that a
 * restart ends anyway (devices are marked offline at start).
 */
export class DatabasePersistence extends MemoryPersistence {
  private readonly repo: ReturnType<typeof mqttRepository>;
  /** Subscriptions of many clients written together (a fleet re-subscribing after a restart). */
  private readonly subscribing: Batcher<{ clientId: string; subs: Sub[] }, void>;

  constructor(raw: RawSql) {
    super();
    this.repo = mqttRepository(raw);
    this.subscribing = new Batcher<{ clientId: string; subs: Sub[] }, void>(async (list) => {
      await this.repo.addSubscriptionsMany(list);
      return list.map(() => undefined);
    }, 500);
  }

  async setup(broker: unknown): Promise<void> {
    await super.setup(broker);
    const byClient = new Map<string, Sub[]>();
    for (const r of await this.repo.subscriptions()) {
      const list = byClient.get(r.client_id) ?? [];
      list.push({ topic: r.topic, qos: r.qos, ...r.options });
      byClient.set(r.client_id, list);
    }
    for (const [id, list] of byClient) await super.addSubscriptions({ id }, list);
    for (const r of await this.repo.outgoing()) {
      await super.outgoingEnqueue({ clientId: r.client_id }, { ...r.packet, payload: Buffer.from(r.payload) });
    }
    for (const r of await this.repo.retained()) await super.storeRetained({ ...r.packet, payload: Buffer.from(r.payload) });
  }

  async storeRetained(packet: StoredPacket): Promise<void> {
    await this.repo.storeRetained(packet);
    await super.storeRetained(packet);
  }

  /**
   * Stored before aedes answers the SUBACK. A persistent session that subscribes again to what it
   * already holds (every reconnect of a logger) writes nothing; new ones are written together with
   * other clients' in one statement.
   */
  async addSubscriptions(client: ClientRef, subs: Sub[]): Promise<void> {
    const held = ((await super.subscriptionsByClient(client)) ?? []) as Sub[];
    const same = (a: Sub, b: Sub) =>
      a.topic === b.topic &&
      a.qos === b.qos &&
      (a.rh ?? null) === (b.rh ?? null) &&
      (a.rap ?? null) === (b.rap ?? null) &&
      (a.nl ?? null) === (b.nl ?? null) &&
      (a.subscriptionIdentifier ?? null) === (b.subscriptionIdentifier ?? null);
    const changed = subs.filter((s) => !held.some((h) => same(h, s)));
    if (changed.length) await this.subscribing.call({ clientId: client.id, subs: changed });
    await super.addSubscriptions(client, subs);
  }

  async removeSubscriptions(client: ClientRef, topics: string[]): Promise<void> {
    await this.repo.removeSubscriptions(client.id, topics);
    await super.removeSubscriptions(client, topics);
  }

  async cleanSubscriptions(client: ClientRef): Promise<unknown> {
    await this.repo.clean(client.id);
    return super.cleanSubscriptions(client);
  }

  private async enqueueRows(subs: { clientId: string }[], packet: StoredPacket) {
    if (!subs.length) return;
    await this.repo.enqueue(
      subs.map((s) => s.clientId),
      packet,
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
    await this.repo.setMessageId(client.id, packet);
  }

  async outgoingClearMessageId(client: ClientRef, packet: StoredPacket): Promise<unknown> {
    const cleared = (await super.outgoingClearMessageId(client, packet)) as StoredPacket | undefined;
    if (cleared) await this.repo.removeOutgoing(client.id, cleared);
    return cleared;
  }
}
