import type { CanFrame } from '@loggerhead/can';
import type { DeviceAgent, OperationResult } from './commands.ts';
import { DeviceCodes } from './commands.ts';

interface WireFrame {
  channel?: number;
  id: number | string;
  ext?: boolean;
  fd?: boolean;
  brs?: boolean;
  data: string;
}

const FD_LENGTHS = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 64]);

/** The device's own check of a frame (it never trusts the cloud): a reason, or null when fine. */
export function checkWireFrame(f: WireFrame): string | null {
  const id = typeof f.id === 'string' ? Number.parseInt(f.id.replace(/^0x/i, ''), 16) : f.id;
  if (!Number.isInteger(id) || id < 0 || id > (f.ext ? 0x1fffffff : 0x7ff)) return 'bad id';
  if (typeof f.data !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(f.data)) return 'data must be an even number of hex characters';
  const len = f.data.length / 2;
  if (f.fd ? !FD_LENGTHS.has(len) : len > 8) return 'bad length';
  return null;
}

/**
 * The simulated CAN bus of the logger: `common_fn.send_can` puts frames "on the bus" (kept in
 * `sent`) and echoes them in the uplink as transmitted frames, once or every `period_ms`;
 * `common_fn.stop_can` stops periodic sends.
 */
export class SimulatedBus {
  readonly sent: CanFrame[] = [];
  private timers = new Set<NodeJS.Timeout>();

  constructor(private readonly echo: (frames: CanFrame[]) => Promise<void>) {}

  attach(agent: DeviceAgent) {
    agent.on('common_fn.send_can', (p) => this.send(p));
    agent.on('common_fn.stop_can', () => {
      this.stop();
      return { code: 0 };
    });
  }

  private async transmit(list: WireFrame[]) {
    const now = Date.now() * 1000;
    const frames: CanFrame[] = list.map((f, i) => {
      const data = new Uint8Array(Buffer.from(f.data, 'hex'));
      const id = typeof f.id === 'string' ? Number.parseInt(f.id.replace(/^0x/i, ''), 16) : f.id;
      return {
        ts: now + i,
        channel: f.channel ?? 0,
        id,
        ext: !!f.ext,
        fd: !!f.fd,
        brs: !!f.brs,
        esi: false,
        rtr: false,
        err: false,
        tx: true,
        data,
      };
    });
    this.sent.push(...frames);
    await this.echo(frames);
  }

  async send(p: Record<string, unknown>): Promise<OperationResult> {
    const list = p.frames as WireFrame[] | undefined;
    if (!Array.isArray(list) || list.length === 0 || list.length > 100)
      return { code: DeviceCodes.invalidParams, message: 'frames: 1-100 frames' };
    for (const [i, f] of list.entries()) {
      const why = checkWireFrame(f);
      if (why) return { code: DeviceCodes.invalidParams, message: `frames.${i}: ${why}` };
    }
    await this.transmit(list);
    if (p.mode === 'periodic') {
      const period = Number(p.period_ms);
      if (!Number.isInteger(period) || period < 1) return { code: DeviceCodes.invalidParams, message: 'period_ms' };
      let left = p.count === undefined ? Number.POSITIVE_INFINITY : Number(p.count) - 1;
      const t = setInterval(() => {
        if (left-- <= 0) {
          clearInterval(t);
          this.timers.delete(t);
          return;
        }
        void this.transmit(list).catch(() => {});
      }, period);
      t.unref();
      this.timers.add(t);
    }
    return { code: 0, payload: { sent: list.length, periodic: p.mode === 'periodic' } };
  }

  stop() {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
  }
}
