import { checkBatch } from '@loggerhead/can/protocol/batch.ts';
import {
  type CommandResponse,
  type GpsFix,
  parseGps,
  parseResponse,
  parseStatus,
  parseTelemetry,
  parseTwinAck,
  type TwinAck,
} from '@loggerhead/can/protocol/messages.ts';
import { isUplink, parseChildKind, parseTopic } from '@loggerhead/can/protocol/topics.ts';
import type { RawSql } from '../db/client.ts';
import { Batcher } from '../lib/batcher.ts';
import type { ChunkWriter } from './chunk-writer.ts';
import type { DeviceDirectory, DeviceIdentity } from './device-directory.ts';
import { ingestDevicesRepository } from './devices.repository.ts';
import type { TrafficCounter } from './traffic-counter.ts';

export type ResponseHandler = (device: DeviceIdentity, resp: CommandResponse) => void | Promise<void>;
export type GpsHandler = (device: DeviceIdentity, fixes: GpsFix[]) => void | Promise<void>;
export type TelemetryHandler = (device: DeviceIdentity, values: Record<string, unknown>, topic: string) => void | Promise<void>;
export type TwinAckHandler = (device: DeviceIdentity, ack: TwinAck, topic: string) => void | Promise<void>;

export type UplinkResult = 'stored' | 'malformed' | 'ignored';

type StatusChange = Parameters<ReturnType<typeof ingestDevicesRepository>['setStatusMany']>[0][number];

/**
 * What happens to each uplink, whichever broker carried it. The returned promise settles when the
 * message may be acknowledged: for frames, after the chunk is committed. A malformed message
 * resolves as 'malformed' (acknowledged and dropped); only a storage failure rejects.
 */
export class UplinkPipeline {
  private responseHandlers: ResponseHandler[] = [];
  private telemetryHandlers: TelemetryHandler[] = [];
  private gpsHandlers: GpsHandler[] = [];
  private twinHandlers: TwinAckHandler[] = [];

  private readonly repo: ReturnType<typeof ingestDevicesRepository>;
  /** Status uplinks of many devices in one statement (a fleet reports its status as it connects). */
  private readonly statuses: Batcher<StatusChange, void>;

  constructor(
    raw: RawSql,
    private readonly writer: ChunkWriter,
    readonly devices: DeviceDirectory,
    private readonly traffic?: TrafficCounter,
  ) {
    this.repo = ingestDevicesRepository(raw);
    this.statuses = new Batcher<StatusChange, void>(async (list) => {
      await this.repo.setStatusMany(list);
      return list.map(() => undefined);
    }, 2000);
  }

  /** Command responses go to the commands feature (a later issue) through here. */
  onResponse(h: ResponseHandler) {
    this.responseHandlers.push(h);
  }

  /** Fixes after they are stored (fences, tracks). */
  onGps(h: GpsHandler) {
    this.gpsHandlers.push(h);
  }

  onTelemetry(h: TelemetryHandler) {
    this.telemetryHandlers.push(h);
  }

  /** A device's acknowledgement of a desired-state change (digital twin). */
  onTwinAck(h: TwinAckHandler) {
    this.twinHandlers.push(h);
  }

  /** An uplink from an external broker: the topic names the device. */
  async handleTopic(topic: string, payload: Uint8Array): Promise<UplinkResult> {
    const t = parseTopic(topic);
    if (t?.direction !== 'up') return 'ignored';
    const d = await this.devices.identify(t.deviceId);
    if (!d) return 'ignored';
    return this.handle(d, t.kind, topic, payload);
  }

  /**
   * What a device's clock may claim around the server's time (`DEVICE_CLOCK_PAST_DAYS`,
   * `DEVICE_CLOCK_FUTURE_MINUTES`): a batch stamped outside it is malformed.
   */
  clock = { pastDays: 3650, futureMinutes: 60 };

  /** Throws while uplinks may not be stored (the disk watermark): the uplink is then not acknowledged. */
  assertRoom: () => void = () => {};

  async handle(d: DeviceIdentity, kind: string, topic: string, payload: Uint8Array): Promise<UplinkResult> {
    this.assertRoom();
    const sub = parseChildKind(kind);
    if (sub) {
      // A gateway forwarding a child's uplink (docs/device-protocol.md): stored as the child's own,
      // only for a child of this gateway; anything else is refused and counted on the gateway.
      const child = await this.devices.childOf(d, sub.childId);
      if (!child) {
        this.devices.malformedUplink(d, topic, `${sub.childId} is not a child of this gateway`);
        return 'malformed';
      }
      return this.handleOwn(child, sub.kind, topic, payload);
    }
    return this.handleOwn(d, kind, topic, payload);
  }

  /** Counted per device and hour for the tenant flow and ranking (a map update, no statement). */
  private async handleOwn(d: DeviceIdentity, kind: string, topic: string, payload: Uint8Array): Promise<UplinkResult> {
    const frames = { n: 0 };
    const r = await this.store(d, kind, topic, payload, frames);
    if (r === 'stored') this.traffic?.received(d.tenantId, d.thingsId, payload.byteLength, frames.n);
    return r;
  }

  /** Why a batch's times are outside the clock window, or null when they are inside it. */
  private outsideClockWindow(startUs: number, endUs: number): string | null {
    const nowUs = Date.now() * 1000;
    const earliest = nowUs - this.clock.pastDays * 86_400_000_000;
    const latest = nowUs + this.clock.futureMinutes * 60_000_000;
    const iso = (us: number) => new Date(Math.floor(us / 1000)).toISOString();
    if (startUs < earliest)
      return `frames stamped ${iso(startUs)}, more than ${this.clock.pastDays} days before the server's time (DEVICE_CLOCK_PAST_DAYS): is the device's clock set?`;
    if (endUs > latest)
      return `frames stamped ${iso(endUs)}, more than ${this.clock.futureMinutes} minutes after the server's time (DEVICE_CLOCK_FUTURE_MINUTES): is the device's clock set?`;
    return null;
  }

  private async store(d: DeviceIdentity, kind: string, topic: string, payload: Uint8Array, frames: { n: number }): Promise<UplinkResult> {
    if (!isUplink(kind)) {
      this.devices.malformedUplink(d, topic, 'unknown uplink topic');
      return 'malformed';
    }
    switch (kind) {
      case 'frames': {
        const info = checkBatch(payload);
        if (typeof info === 'string') {
          this.devices.malformedUplink(d, topic, info);
          return 'malformed';
        }
        const skew = this.outsideClockWindow(info.timeStart, info.timeEnd);
        if (skew) {
          this.devices.malformedUplink(d, topic, skew);
          return 'malformed';
        }
        // Copy: the MQTT buffer may be a view into a larger socket buffer.
        await this.writer.write({ tenantId: d.tenantId, thingsId: d.thingsId, info, data: Uint8Array.prototype.slice.call(payload) });
        frames.n = info.count;
        return 'stored';
      }
      case 'status': {
        const s = parseStatus(payload);
        if (typeof s === 'string') {
          this.devices.malformedUplink(d, topic, s);
          return 'malformed';
        }
        await this.statuses.call({
          thingsId: d.thingsId,
          online: s.online,
          firmware: s.firmware ?? null,
          sdState: s.sd?.state ?? null,
          channelEnable: s.channel_enable ?? null,
          server: s.server ?? null,
        });
        return 'stored';
      }
      case 'gps': {
        const fixes = parseGps(payload);
        if (typeof fixes === 'string') {
          this.devices.malformedUplink(d, topic, fixes);
          return 'malformed';
        }
        await this.repo.insertGps(d.tenantId, d.thingsId, fixes);
        for (const h of this.gpsHandlers) await h(d, fixes);
        return 'stored';
      }
      case 'resp': {
        const r = parseResponse(payload);
        if (typeof r === 'string') {
          this.devices.malformedUplink(d, topic, r);
          return 'malformed';
        }
        for (const h of this.responseHandlers) await h(d, r);
        return 'stored';
      }
      case 'telemetry': {
        const m = parseTelemetry(payload);
        if (typeof m === 'string') {
          this.devices.malformedUplink(d, topic, m);
          return 'malformed';
        }
        for (const h of this.telemetryHandlers) await h(d, m, topic);
        return 'stored';
      }
      case 'twin': {
        const a = parseTwinAck(payload);
        if (typeof a === 'string') {
          this.devices.malformedUplink(d, topic, a);
          return 'malformed';
        }
        for (const h of this.twinHandlers) await h(d, a, topic);
        return 'stored';
      }
    }
  }
}
