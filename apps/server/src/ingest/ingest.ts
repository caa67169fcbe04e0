import { createHash, randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseTopic, SERVER_FILTER, SERVER_SHARED_FILTER, TOPIC_ROOT } from '@loggerhead/can/protocol/topics.ts';
import { Aedes } from 'aedes';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { EventBus } from '../lib/events.ts';
import { LiveHub } from '../live/live-hub.ts';
import { attachDeviceHooks, cappedHandle } from './aedes-hooks.ts';
import { type Broker, embeddedBroker, externalBroker } from './broker.ts';
import { ChunkWriter } from './chunk-writer.ts';
import { DeviceDirectory } from './device-directory.ts';
import { ingestDevicesRepository } from './devices.repository.ts';
import { DiskWatch, isStorageLow } from './disk-watch.ts';
import { DynsecAccounts } from './dynsec.ts';
import { DatabasePersistence } from './mqtt-persistence.ts';
import { TrafficCounter } from './traffic-counter.ts';
import { UplinkPipeline } from './uplink-pipeline.ts';

export interface Ingest {
  broker: Broker;
  writer: ChunkWriter;
  devices: DeviceDirectory;
  pipeline: UplinkPipeline;
  live: LiveHub;
  /** Each device's traffic per hour (tenant flow and ranking): `traffic.flush()` stores what is counted. */
  traffic: TrafficCounter;
  /**
   * A device was added, re-keyed or deleted: forget what is cached of it, close its connection, and
   * (with `MQTT_DYNSEC`) bring its account on the external broker in line.
   */
  forgetDevice(deviceId: string): void;
  /** Device accounts on an external Mosquitto (`MQTT_DYNSEC`), or null. */
  accounts: DynsecAccounts | null;
  /** The free-space watermark of `DATA_DIR`: under it uplinks are refused. */
  disk: DiskWatch;
}

interface Log {
  info: (o: object | string, m?: string) => void;
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

/**
 * Copies of one deployment share a database, so they share the subscription group (and the cluster
 * topics); servers of other deployments on the same broker (or parallel test runs) do not take their
 * messages.
 */
export function deploymentId(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  return createHash('sha256')
    .update(config.databaseUrl ?? config.dataDir)
    .digest('hex')
    .slice(0, 8);
}

/** Wires broker → pipeline → chunk writer → live hub (which hears decoded samples on `events`). */
export async function createIngest(opts: { config: Config; database: Database; events: EventBus; log: Log }): Promise<Ingest> {
  const { config, database, events, log } = opts;
  const raw = database.raw;
  const writer = new ChunkWriter(raw, { concurrency: database.offThread ? 2 : 1, log });
  const devices = new DeviceDirectory(raw, log);
  const traffic = new TrafficCounter(raw, { log });
  const pipeline = new UplinkPipeline(raw, writer, devices, traffic);
  const live = new LiveHub({ events });
  const disk = new DiskWatch(config.dataDir, config.diskFreeMinBytes, { log });
  pipeline.assertRoom = () => disk.assertRoom();
  pipeline.clock = config.deviceClock;
  devices.onOnlineChange = (thingsId, online) => live.publishStatus(thingsId, online);
  writer.on('committed', (chunks) => {
    for (const c of chunks) live.publishChunk(c.thingsId, c.data);
  });

  const starting = async () => {
    disk.start();
    devices.start();
    live.start();
    traffic.start();
  };
  const closing = async () => {
    disk.stop();
    await writer.close();
    await devices.stop();
    live.stop();
    await traffic.stop().catch((err) => log.error({ err }, 'traffic counts not stored'));
  };

  let broker: Broker;
  let accounts: DynsecAccounts | null = null;
  if (config.mqttUrl) {
    const deployment = deploymentId(config);
    if (config.mqttDynsec)
      accounts = new DynsecAccounts({ url: config.mqttUrl, clientId: `lh-${deployment}-accounts-${randomUUID().slice(0, 8)}`, raw, log });
    broker = externalBroker({
      url: config.mqttUrl,
      // Stable per host and port, so a restarted copy resumes its persistent session.
      clientId: `lh-${deployment}-${os.hostname()}-${config.port}`,
      filters: {
        shared: SERVER_SHARED_FILTER.replace('$share/loggerhead/', `$share/loggerhead-${deployment}/`),
        plain: SERVER_FILTER,
      },
      connections: 4,
      onMessage: (topic, payload) => pipeline.handleTopic(topic, payload),
      // Refused for want of disk: said once by the watch, not for every uplink.
      onError: (err, topic) => {
        if (!isStorageLow(err)) log.error({ err, topic }, 'uplink not stored');
      },
      onResubscribe: (connection, reason, err) => {
        if (err) log.warn({ err, connection, reason }, 'external broker: subscription not renewed');
        else if (reason === 'reconnect') log.info({ connection }, 'external broker: reconnected and subscribed again');
      },
      onClose: closing,
    });
    await starting();
  } else {
    const aedes = await Aedes.createBroker({
      persistence: new DatabasePersistence(raw),
      maxClientsIdLength: 64,
      // Topic-level limits: our topics have 5 levels; nothing legitimate needs more than 8.
      maxTopicLevels: 8,
      // A client that does not read its socket for 10 s is disconnected instead of holding others up.
      drainTimeout: 10_000,
      connectTimeout: 10_000,
      concurrency: 1000,
      queueLimit: 100,
    });
    attachDeviceHooks(aedes, { devices, pipeline, log });
    broker = embeddedBroker({
      port: config.mqttPort,
      host: config.host,
      aedes,
      maxConnections: config.mqttMaxConnections,
      handle: cappedHandle(aedes),
      onStart: async () => {
        await ingestDevicesRepository(raw).resetOnline();
        await starting();
      },
      onClose: closing,
    });
  }

  // A child's downlinks also go to its gateway, on `down/sub/{child}/…` (docs/device-protocol.md):
  // a child that has no connection of its own gets them there.
  const publishDirect = broker.publish.bind(broker);
  broker.publish = async (topic, payload) => {
    await publishDirect(topic, payload);
    const t = parseTopic(topic);
    if (t?.direction !== 'down') return;
    const gateway = await devices.gatewayOf(t.deviceId);
    if (gateway) await publishDirect(`${TOPIC_ROOT}/${gateway}/down/sub/${t.deviceId}/${t.kind}`, payload);
  };

  return {
    broker,
    writer,
    devices,
    pipeline,
    live,
    traffic,
    accounts,
    disk,
    forgetDevice(deviceId) {
      devices.forget(deviceId);
      accounts?.sync(deviceId).catch((err) => log.error({ err, deviceId }, 'device account not updated on the broker'));
      const aedes = broker.aedes;
      if (!aedes) return;
      const clients = (aedes as unknown as { clients: Record<string, { close(): void; device?: { deviceId: string } }> }).clients;
      for (const c of Object.values(clients)) if (c.device?.deviceId === deviceId) c.close();
    },
  };
}
