import { timingSafeEqual } from 'node:crypto';
import type { RawSql } from '../db/client.ts';
import { Batcher } from '../lib/batcher.ts';
import { ingestDevicesRepository } from './devices.repository.ts';

export interface DeviceIdentity {
  deviceId: string;
  thingsId: string;
  tenantId: string;
  thingType: number;
}

interface Entry extends DeviceIdentity {
  key: string;
  parentThingsId: string | null;
  parentDeviceId: string | null;
  at: number;
}

const TTL_MS = 30_000;
/** How long a child's parent is trusted from the cache: an unbound child stops being forwarded within this. */
const PARENT_TTL_MS = 5_000;

export type DeviceEventKind = 'connect' | 'disconnect' | 'error' | 'malformed' | 'status' | 'auth-failed' | 'upload';

/**
 * Who a device is (by its 20-hex ID) and what happens to it: credentials with a short cache,
 * online state, the device event log and malformed-uplink counting. Device IDs are unique
 * platform-wide, so these lookups are by device, not by tenant.
 */
export class DeviceDirectory {
  private cache = new Map<string, Entry | null>();
  private malformed = new Map<string, { tenantId: string; n: number; reasons: string[] }>();
  private lastEvent = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** Malformed messages seen since start, all devices. */
  malformedTotal = 0;
  /** Told when a device connects or disconnects (the live hub pushes it to browsers). */
  onOnlineChange: ((thingsId: string, online: boolean) => void) | null = null;
  private statusListeners = new Set<(d: DeviceIdentity, online: boolean) => void>();

  /** Also told of every connect and disconnect, with the device (forwarding rules); returns the unsubscribe. */
  onStatus(listener: (d: DeviceIdentity, online: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private readonly repo: ReturnType<typeof ingestDevicesRepository>;

  constructor(
    raw: RawSql,
    private readonly log: { warn: (o: object, m: string) => void },
  ) {
    this.repo = ingestDevicesRepository(raw);
  }

  start() {
    this.timer = setInterval(() => void this.flushMalformed().catch(() => {}), 1000);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.online.idle();
    await this.flushMalformed().catch(() => {});
    await this.events.idle();
  }

  /** Lookups of devices not in the cache, read together: a storm of connects costs a few statements. */
  private readonly lookups = new Batcher<string, Entry | null>(async (ids) => {
    const rows = await this.repo.byDeviceIds([...new Set(ids)]);
    const at = Date.now();
    const found = new Map<string, Entry>(
      rows.map((r) => [
        r.third_things_id,
        {
          deviceId: r.third_things_id,
          thingsId: r.id,
          tenantId: r.tenant_id,
          key: r.things_key,
          thingType: r.thing_type,
          parentThingsId: r.parent_things_id,
          parentDeviceId: r.parent_device_id,
          at,
        },
      ]),
    );
    return ids.map((id) => found.get(id) ?? null);
  }, 2000);
  /** Lookups under way, per device: a device that connects twice at once is read once. */
  private readonly loading = new Map<string, Promise<Entry | null>>();

  private async load(deviceId: string, ttl = TTL_MS): Promise<Entry | null> {
    const hit = this.cache.get(deviceId);
    if (hit !== undefined && (hit === null ? false : Date.now() - hit.at < ttl)) return hit;
    const pending = this.loading.get(deviceId);
    if (pending) return pending;
    const p = this.lookups.call(deviceId).then((e) => {
      if (e) this.cache.set(deviceId, e);
      else this.cache.delete(deviceId);
      return e;
    });
    this.loading.set(deviceId, p);
    try {
      return await p;
    } finally {
      this.loading.delete(deviceId);
    }
  }

  /** The device when ID and key match, else null (constant-time key comparison). */
  async authenticate(deviceId: string, key: string): Promise<DeviceIdentity | null> {
    const e = await this.load(deviceId);
    if (!e) return null;
    const a = Buffer.from(e.key);
    const b = Buffer.from(key);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
    return { deviceId: e.deviceId, thingsId: e.thingsId, tenantId: e.tenantId, thingType: e.thingType };
  }

  async identify(deviceId: string): Promise<DeviceIdentity | null> {
    const e = await this.load(deviceId);
    return e ? { deviceId: e.deviceId, thingsId: e.thingsId, tenantId: e.tenantId, thingType: e.thingType } : null;
  }

  /**
   * The child `childDeviceId` of `gateway` for an uplink the gateway forwards, or null when there is
   * no such device or it is not the gateway's child (another gateway's, nobody's, another tenant's).
   */
  async childOf(gateway: DeviceIdentity, childDeviceId: string): Promise<DeviceIdentity | null> {
    const e = await this.load(childDeviceId, PARENT_TTL_MS);
    if (!e || e.parentThingsId !== gateway.thingsId || e.tenantId !== gateway.tenantId) return null;
    return { deviceId: e.deviceId, thingsId: e.thingsId, tenantId: e.tenantId, thingType: e.thingType };
  }

  /** The device ID of the gateway `deviceId` is a child of, or null: its downlinks go through that gateway too. */
  async gatewayOf(deviceId: string): Promise<string | null> {
    return (await this.load(deviceId, PARENT_TTL_MS))?.parentDeviceId ?? null;
  }

  forget(deviceId: string) {
    this.cache.delete(deviceId);
  }

  /** Events of many devices written together (a storm of refused or failing connects). */
  private readonly events = new Batcher<
    { tenantId: string; thingsId: string; kind: DeviceEventKind; message: string; detail: Record<string, unknown> | null },
    void
  >(async (list) => {
    await this.repo.events(list);
    return list.map(() => undefined);
  }, 1000);

  async event(
    d: Pick<DeviceIdentity, 'tenantId' | 'thingsId'>,
    kind: DeviceEventKind,
    message: string,
    detail: Record<string, unknown> | null = null,
  ) {
    await this.events.call({ tenantId: d.tenantId, thingsId: d.thingsId, kind, message, detail });
  }

  /** Events at most once a minute per device and kind, so a noisy device cannot flood the log. */
  async eventThrottled(d: DeviceIdentity, kind: DeviceEventKind, message: string, detail: Record<string, unknown> | null = null) {
    const k = `${d.thingsId}/${kind}`;
    const now = Date.now();
    if ((this.lastEvent.get(k) ?? 0) > now - 60_000) return;
    this.lastEvent.set(k, now);
    await this.event(d, kind, message, detail);
  }

  /**
   * Marks a device online or offline and logs the connect or disconnect. Changes arriving while a
   * write runs go together in the next one (in their order), so a fleet connecting at once costs a
   * few statements instead of two per device; resolves once the change is written.
   */
  setOnline(d: DeviceIdentity, online: boolean, detail: Record<string, unknown>): Promise<void> {
    this.onOnlineChange?.(d.thingsId, online);
    for (const l of this.statusListeners) {
      try {
        l(d, online);
      } catch (err) {
        this.log.warn({ err }, 'device status listener failed');
      }
    }
    return this.online.call({ tenantId: d.tenantId, thingsId: d.thingsId, online, detail });
  }

  private readonly online = new Batcher<
    { tenantId: string; thingsId: string; online: boolean; detail: Record<string, unknown> | null },
    void
  >(async (list) => {
    await this.repo.setOnlineMany(list);
    return list.map(() => undefined);
  }, 1000);

  /**
   * A malformed uplink: counted, logged once (per device, then once a minute) and dropped.
   * Counts reach the database in the next second, one update per device.
   */
  malformedUplink(d: DeviceIdentity, topic: string, reason: string) {
    this.malformedTotal++;
    const m = this.malformed.get(d.thingsId) ?? { tenantId: d.tenantId, n: 0, reasons: [] };
    if (m.n === 0 && !this.lastEvent.has(`${d.thingsId}/malformed`))
      this.log.warn({ deviceId: d.deviceId, topic, reason }, 'malformed uplink dropped');
    m.n++;
    if (m.reasons.length < 3) m.reasons.push(`${topic.split('/').slice(3).join('/')}: ${reason}`);
    this.malformed.set(d.thingsId, m);
  }

  private async flushMalformed() {
    const batch = [...this.malformed.entries()];
    this.malformed.clear();
    // The events first (together), then the counts: once a count shows, its event is there too.
    await Promise.all(
      batch.map(([thingsId, m]) =>
        this.eventThrottled(
          { thingsId, tenantId: m.tenantId, deviceId: '', thingType: 0 },
          'malformed',
          `${m.n} malformed uplink(s) dropped`,
          {
            count: m.n,
            reasons: m.reasons,
          },
        ),
      ),
    );
    for (const [thingsId, m] of batch) await this.repo.addMalformed(thingsId, m.n);
  }
}
