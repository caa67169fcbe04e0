import { SimulatedBus } from './can-bus.ts';
import { DeviceAgent } from './commands.ts';
import { ConfigStore, type LoggerConfig } from './config-store.ts';
import { UdsRelay } from './ecu-sim.ts';
import { FirmwareSlot } from './firmware.ts';
import { type DeviceOptions, LoggerDevice } from './logger-device.ts';
import { type ModelBlockSpec, ModelDevice } from './model-device.ts';
import { VirtualSdCard } from './sd-card.ts';

export interface RemoteDeviceOptions extends DeviceOptions {
  config?: LoggerConfig;
  /** Whether the logger's CAN controller does CAN FD (UDS over FD is refused otherwise). */
  canFd?: boolean;
  /** The function blocks of its info model: it then also reports JSON telemetry and keeps a twin (model-device.ts). */
  model?: ModelBlockSpec[];
  /**
   * It is a gateway: the device IDs of its children, each a device of `model` whose telemetry, twin,
   * operations and edge rules it carries on its own connection (`up/sub/{child}/…` and
   * `down/sub/{child}/…`, docs/device-protocol.md). The gateway itself then reports no telemetry.
   */
  children?: string[];
}

/** `n` child device IDs of a gateway: its own ID with the last four digits counting from 0001. */
export const childIds = (gatewayId: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${gatewayId.slice(0, 16)}${(i + 1).toString(16).toUpperCase().padStart(4, '0')}`);

/**
 * A simulated logger that plays every remote operation: CAN sending, configuration, SD-card
 * file recall, firmware upgrade and UDS to simulated ECUs. Parts are public so tests can look
 * at (or break) each one.
 */
export class RemoteDevice {
  readonly device: LoggerDevice;
  readonly agent: DeviceAgent;
  readonly bus: SimulatedBus;
  readonly config: ConfigStore;
  readonly sd: VirtualSdCard;
  readonly uds: UdsRelay;
  readonly firmware: FirmwareSlot;
  readonly model: ModelDevice | null;
  /** A gateway's children, by device ID. */
  readonly children: ModelDevice[];

  constructor(readonly opts: RemoteDeviceOptions) {
    this.device = new LoggerDevice(opts);
    this.agent = new DeviceAgent(this.device);
    this.bus = new SimulatedBus((frames) => this.device.sendBatch(frames));
    this.bus.attach(this.agent);
    this.config = new ConfigStore(opts.config);
    this.config.attach(this.agent);
    this.sd = new VirtualSdCard(opts.key);
    this.sd.attach(this.agent);
    this.uds = new UdsRelay(opts.canFd ?? true);
    this.uds.attach(this.agent);
    this.firmware = new FirmwareSlot(this.device);
    this.firmware.attach(this.agent);
    const children = opts.children ?? [];
    this.model = opts.model && !children.length ? new ModelDevice(this.device, this.agent, opts.model) : null;
    this.children = children.map((id) => new ModelDevice(this.device, new DeviceAgent(this.device, id), opts.model ?? [], Math.random, id));
  }

  async connect() {
    await this.device.connect();
    for (const c of this.children) await c.announce(true);
  }

  /** Reports every `ms`: its own model's telemetry, or each child's. */
  start(ms: number) {
    this.model?.start(ms);
    for (const c of this.children) c.start(ms);
  }

  async close() {
    this.model?.stop();
    for (const c of this.children) {
      c.stop();
      await c.announce(false).catch(() => {});
    }
    this.bus.stop();
    await this.device.drain().catch(() => {});
    await this.device.close();
  }
}
