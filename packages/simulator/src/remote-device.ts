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
}

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

  constructor(readonly opts: RemoteDeviceOptions) {
    this.device = new LoggerDevice(opts);
    this.agent = new DeviceAgent(this.device);
    this.bus = new SimulatedBus((frames) => this.device.sendBatch(frames));
    this.bus.attach(this.agent);
    this.config = new ConfigStore(opts.config);
    this.config.attach(this.agent);
    this.sd = new VirtualSdCard();
    this.sd.attach(this.agent);
    this.uds = new UdsRelay(opts.canFd ?? true);
    this.uds.attach(this.agent);
    this.firmware = new FirmwareSlot(this.device);
    this.firmware.attach(this.agent);
    this.model = opts.model ? new ModelDevice(this.device, this.agent, opts.model) : null;
  }

  connect() {
    return this.device.connect();
  }

  async close() {
    this.model?.stop();
    this.bus.stop();
    await this.device.drain().catch(() => {});
    await this.device.close();
  }
}
