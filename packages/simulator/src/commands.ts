import { childUpTopic, parseTopic, upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { LoggerDevice } from './logger-device.ts';

/** The spec §7 envelope as the device receives it on `down/cmd`. */
export interface Envelope {
  correlation_id: string;
  message_type: number;
  payload: { operation_name: string; operation_params: Record<string, unknown> };
  things_id: string;
  third_things_id: string;
  expires_at?: number;
}

export interface OperationResult {
  code: number;
  message?: string;
  payload?: unknown;
}

export interface OperationContext {
  envelope: Envelope;
  /** Sends a partial response (progress report); the final one is the handler's return value. */
  progress(payload: Record<string, unknown>): Promise<void>;
}

export type OperationHandler = (params: Record<string, unknown>, ctx: OperationContext) => Promise<OperationResult> | OperationResult;

/** Device response codes of the simulator (0 = ok). */
export const DeviceCodes = {
  ok: 0,
  unknownOperation: 404,
  invalidParams: 400,
  busy: 409,
  failed: 500,
} as const;

/**
 * The remote-operations side of a simulated logger: takes commands from `down/cmd`, runs the
 * handler of the operation and answers on `up/resp` with the same correlation id. A command seen
 * before (a QoS 1 re-delivery) is not run twice; one past its `expires_at` is dropped unanswered.
 * With `childId` it is the agent of a gateway's child: its commands come on the gateway's
 * `down/sub/{child}/cmd` and its answers go on `up/sub/{child}/resp` (docs/device-protocol.md).
 */
export class DeviceAgent {
  readonly handlers = new Map<string, OperationHandler>();
  /** Operations the device receives but never answers (to test time-outs). */
  readonly silent = new Set<string>();
  readonly received: Envelope[] = [];
  private readonly seen = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();

  private readonly cmdKind: string;

  constructor(
    readonly device: LoggerDevice,
    readonly childId?: string,
  ) {
    this.cmdKind = childId ? `sub/${childId}/cmd` : 'cmd';
    device.downlinkHandlers.push((topic, payload) => this.onDownlink(topic, payload));
  }

  on(operation: string, handler: OperationHandler): this {
    this.handlers.set(operation, handler);
    return this;
  }

  async respond(correlationId: string, r: OperationResult, partial = false): Promise<void> {
    const c = this.device.client;
    if (!c) return;
    await c.publishAsync(
      this.childId ? childUpTopic(this.device.opts.deviceId, this.childId, 'resp') : upTopic(this.device.opts.deviceId, 'resp'),
      JSON.stringify({
        correlation_id: correlationId,
        code: r.code,
        message: r.message ?? (r.code === 0 ? 'ok' : 'error'),
        payload: r.payload,
        ...(partial ? { partial: true } : {}),
      }),
      { qos: 1 },
    );
  }

  private onDownlink(topic: string, payload: Buffer) {
    if (parseTopic(topic)?.kind !== this.cmdKind) return;
    let env: Envelope;
    try {
      env = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (typeof env?.correlation_id !== 'string' || !env.payload?.operation_name) return;
    if (this.seen.has(env.correlation_id)) return;
    this.seen.add(env.correlation_id);
    if (env.expires_at && env.expires_at < Date.now()) return;
    this.received.push(env);
    const op = env.payload.operation_name;
    if (this.silent.has(op)) return;
    // Commands run one after another, like a logger's command task.
    this.chain = this.chain.then(() => this.run(env, op)).catch(() => {});
  }

  private async run(env: Envelope, op: string) {
    const h = this.handlers.get(op);
    const ctx: OperationContext = { envelope: env, progress: (p) => this.respond(env.correlation_id, { code: 0, payload: p }, true) };
    let r: OperationResult;
    try {
      r = h ? await h(env.payload.operation_params ?? {}, ctx) : { code: DeviceCodes.unknownOperation, message: `unknown operation ${op}` };
    } catch (e) {
      r = { code: DeviceCodes.failed, message: (e as Error)?.message ?? String(e) };
    }
    await this.respond(env.correlation_id, r);
  }
}
