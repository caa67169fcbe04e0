import { parseTopic, TOPIC_ROOT } from '@loggerhead/can/protocol/topics.ts';
import type { Aedes, Client, PublishPacket } from 'aedes';
import { InOrder } from '../lib/in-order.ts';
import { isOverCeiling } from './broker.ts';
import { deviceMayConnect, deviceMaySubscribe } from './device-acl.ts';
import type { DeviceDirectory, DeviceIdentity } from './device-directory.ts';
import { isStorageLow } from './disk-watch.ts';
import { acceptMqtt5, installMqtt5Writes } from './mqtt5-shim.ts';
import type { UplinkPipeline } from './uplink-pipeline.ts';

/** The MQTT packet cap (1 MiB): a larger packet closes the connection before it is buffered. */
export const MAX_PACKET_BYTES = 1024 * 1024;

type DeviceClient = Client & {
  device?: DeviceIdentity;
  /** `lh/v1/{device}/up/`: the topics this client's uplinks are stored from. */
  upPrefix?: string;
  /** Its uplinks' aedes callbacks in the order they came, each called once it and those before it settled. */
  acks?: InOrder<(err: Error | null) => void>;
};

/** Calls aedes's callback of an uplink, which writes its PUBACK (or, with an error, none). */
const callBack = (done: (err: Error | null) => void, err: unknown) => done(err as Error | null);

interface Log {
  warn: (o: object, m: string) => void;
  error: (o: object, m: string) => void;
}

function authError(code: number, message: string) {
  const e = new Error(message) as Error & { returnCode: number };
  e.returnCode = code;
  return e;
}

/**
 * Device authentication (ID + things_key), the topic ACL, and ingest with acknowledgement after
 * commit: aedes writes a QoS 1 PUBACK only after `authorizePublish` calls back, so the uplink is
 * stored inside it. PUBACKs of one client leave in the order its PUBLISHes came (MQTT-4.6.0-2).
 */
export function attachDeviceHooks(aedes: Aedes, deps: { devices: DeviceDirectory; pipeline: UplinkPipeline; log: Log }) {
  const { devices, pipeline, log } = deps;

  let refusedAt = 0;
  let refused = 0;
  aedes.authenticate = (client, username, password, done) => {
    // Over the connection ceiling: a clean "server unavailable" before any lookup; the device backs off.
    if (isOverCeiling(client.conn)) {
      refused++;
      if (Date.now() - refusedAt > 60_000) {
        refusedAt = Date.now();
        log.warn({ refused }, 'MQTT_MAX_CONNECTIONS reached: connection refused (server unavailable)');
      }
      return done(authError(3, 'server unavailable'), false);
    }
    const deviceId = username ?? '';
    const key = password ? Buffer.from(password).toString('utf8') : '';
    const id = client.id ?? '';
    if (!deviceMayConnect(deviceId, id)) {
      return done(authError(4, 'bad username or password'), false);
    }
    devices
      .authenticate(deviceId, key)
      .then(async (device) => {
        if (!device) {
          const known = await devices.identify(deviceId);
          if (known)
            await devices.eventThrottled(known, 'auth-failed', 'connection refused: wrong key', {
              ip: client.conn && (client.conn as { remoteAddress?: string }).remoteAddress,
            });
          return done(authError(4, 'bad username or password'), false);
        }
        (client as DeviceClient).device = device;
        (client as DeviceClient).upPrefix = `${TOPIC_ROOT}/${device.deviceId}/up/`;
        (client as DeviceClient).acks = new InOrder(callBack);
        done(null, true);
      })
      .catch((err) => {
        log.error({ err, deviceId }, 'device authentication failed');
        done(authError(3, 'server unavailable'), false);
      });
  };

  aedes.authorizeSubscribe = (client, sub, done) => {
    const d = (client as DeviceClient).device;
    if (d && deviceMaySubscribe(d.deviceId, sub.topic)) {
      return done(null, sub);
    }
    done(null, null); // refused: SUBACK 0x80 / 0x87
  };

  aedes.authorizePublish = (client, packet, done) => {
    const c = client as DeviceClient | null;
    const device = c?.device;
    const prefix = c?.upPrefix;
    // The device's own uplink topic, `lh/v1/{device}/up/{kind}`.
    if (!device || !prefix || !packet.topic.startsWith(prefix)) {
      const t = parseTopic(packet.topic);
      // A will published by the broker itself after its client is gone: trust the stored device.
      if (c === null && t?.direction === 'up' && t.kind === 'status') return done(null);
      return done(new Error(`not authorized to publish to ${packet.topic}`));
    }
    const work = pipeline.handle(device, packet.topic.slice(prefix.length), packet.topic, packet.payload as Buffer);
    // PUBACKs of one client leave in the order its PUBLISHes came, each after its own commit: a
    // queue per client, released from its head (one settled-callback per uplink, no promise chain).
    const dc = c as DeviceClient; // it has a device, so it is a client
    dc.acks ??= new InOrder(callBack);
    const q = dc.acks;
    const pending = q.add(done);
    work.then(
      () => q.settle(pending),
      (err) => {
        // Not stored: no PUBACK; the client is disconnected and re-sends after reconnecting. A
        // refusal for want of disk is said once by the disk watch, not for every uplink.
        if (!isStorageLow(err)) log.error({ err, deviceId: device.deviceId }, 'uplink not stored');
        q.settle(pending, err instanceof Error ? err : new Error(String(err)));
      },
    );
  };

  // A device's own uplink is stored (or refused) in `authorizePublish` above, and nothing may
  // subscribe to it: devices subscribe to their own downlinks only, and the server subscribes to
  // nothing on this broker. aedes's routing of it — the retained store, the offline queues, two
  // topic matches and the 'publish' event — cost about a fifth of the broker's work per message at
  // fleet rates, for no receiver; it is skipped. Downlinks and everything else are routed as before.
  const route = aedes.publish.bind(aedes) as (packet: PublishPacket, client: unknown, done?: (err?: Error) => void) => void;
  (aedes as unknown as { publish: typeof route }).publish = (packet, client, done) => {
    const prefix = (client as DeviceClient | null)?.upPrefix;
    if (prefix && typeof done === 'function' && packet.topic.startsWith(prefix)) {
      process.nextTick(done);
      return;
    }
    route(packet, client, done);
  };

  aedes.on('clientReady', (client) => {
    const d = (client as DeviceClient).device;
    if (d) void devices.setOnline(d, true, { client_id: client.id }).catch(() => {});
  });
  aedes.on('clientDisconnect', (client) => {
    const d = (client as DeviceClient).device;
    if (d) void devices.setOnline(d, false, { client_id: client.id }).catch(() => {});
  });
  aedes.on('clientError', (client, err) => {
    const d = (client as DeviceClient).device;
    if (d) void devices.eventThrottled(d, 'error', err.message).catch(() => {});
  });
}

/**
 * Wraps `aedes.handle` so each connection's parser refuses a packet whose declared length is over
 * the cap as soon as the length is read, instead of buffering it, and accepts MQTT 5.
 */
export function cappedHandle(aedes: Aedes, maxBytes = MAX_PACKET_BYTES) {
  installMqtt5Writes();
  return (conn: import('node:net').Socket, req?: unknown) => {
    // biome-ignore lint/suspicious/noExplicitAny: aedes' Client keeps its mqtt-packet parser private
    const client = (aedes.handle as any)(conn, req) as { _parser: any };
    const parser = client._parser;
    acceptMqtt5(parser, conn);
    const parseLength = parser._parseLength;
    parser._parseLength = function (this: typeof parser) {
      const ok = parseLength.call(this);
      if (ok && this.packet.length > maxBytes)
        return this._emitError(new Error(`packet of ${this.packet.length} bytes over the ${maxBytes} limit`));
      return ok;
    };
    return client;
  };
}
