import { childUpTopic, parseTopic, type Uplink, upTopic } from '@loggerhead/can/protocol/topics.ts';
import { EDGE_RULE_OPERATION, type EdgeRuleOnDevice } from '@loggerhead/contract';
import { type DeviceAgent, DeviceCodes } from './commands.ts';
import { EdgeRules } from './edge-rules.ts';
import type { LoggerDevice } from './logger-device.ts';

/** What the simulator needs of a function block (the API's `…/info-models/{id}/function-blocks` answer fits). */
export interface ModelBlockSpec {
  name: string;
  json_schema: {
    status?: { identifier: string; data_type: number; read_only?: boolean; default_value?: unknown }[];
    events?: { identifier: string; type?: string }[];
    operations?: { identifier: string; params?: { identifier: string; data_type: number; required?: boolean }[] }[];
  };
}

const initial = (dataType: number, given: unknown) => {
  if (given !== undefined && given !== null) return given;
  return dataType === 1 ? 20 : dataType === 2 ? '' : dataType === 4 ? [] : dataType === 5 ? {} : false;
};

const typeOk = (t: number, v: unknown) =>
  t === 1
    ? typeof v === 'number'
    : t === 2
      ? typeof v === 'string'
      : t === 4
        ? Array.isArray(v)
        : t === 5
          ? typeof v === 'object' && v !== null && !Array.isArray(v)
          : typeof v === 'boolean';

/**
 * A plain IoT device of an info model (decision 0123): it reports its status properties as JSON
 * telemetry, read-only numbers drifting a little each time; it applies the desired values it is sent
 * on `down/twin`, acknowledges them on `up/twin` with what it now holds; and it answers the model's
 * operations (`block.identifier`) with code 0 after checking their parameters' types. Edge-computing
 * rules it is sent (`edge.set_rule`) filter or aggregate its properties before each upload.
 */
export class ModelDevice {
  /** Current values: block → identifier → value. */
  readonly state: Record<string, Record<string, unknown>> = {};
  /** Desired versions applied, in order. */
  readonly applied: number[] = [];
  /** Edge-computing rules it holds, applied to each upload (`edge.set_rule`). */
  readonly edge = new EdgeRules();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly types = new Map<string, { dataType: number; readOnly: boolean }>();

  /**
   * `device` is the connection it speaks on. With `childId` it is a child of that gateway: its uplinks
   * go on `up/sub/{childId}/…`, its twin deltas come on `down/sub/{childId}/twin`, and its operations
   * and edge rules through `agent`, the child's own agent on the gateway's connection.
   */
  constructor(
    readonly device: LoggerDevice,
    agent: DeviceAgent | null,
    readonly blocks: ModelBlockSpec[],
    private readonly random: () => number = Math.random,
    readonly childId?: string,
  ) {
    for (const b of blocks) {
      this.state[b.name] = {};
      for (const p of b.json_schema.status ?? []) {
        this.state[b.name][p.identifier] = initial(p.data_type, p.default_value);
        this.types.set(`${b.name}.${p.identifier}`, { dataType: p.data_type, readOnly: p.read_only ?? false });
      }
      for (const op of agent ? (b.json_schema.operations ?? []) : [])
        agent?.on(`${b.name}.${op.identifier}`, (params) => {
          for (const p of op.params ?? []) {
            const v = params[p.identifier];
            if (v === undefined ? p.required : !typeOk(p.data_type, v))
              return { code: DeviceCodes.invalidParams, message: `parameter ${p.identifier}` };
          }
          return { code: DeviceCodes.ok, message: 'ok', payload: { operation: `${b.name}.${op.identifier}`, params } };
        });
    }
    const numeric = new Set([...this.types].filter(([, t]) => t.dataType === 1).map(([path]) => path));
    agent?.on(EDGE_RULE_OPERATION, (params) => {
      const rule = params.rule as EdgeRuleOnDevice;
      const why = this.edge.accept(rule, numeric);
      return why
        ? { code: DeviceCodes.invalidParams, message: why }
        : { code: DeviceCodes.ok, message: 'ok', payload: { rule_id: rule.id, version: rule.version, rules: this.edge.held.size } };
    });
    const twinKind = childId ? `sub/${childId}/twin` : 'twin';
    device.downlinkHandlers.push((topic, payload) => {
      // A reply that cannot go out (the client is disconnecting) is lost as on a real link: the
      // server's request times out. It must not end the process as an unhandled rejection.
      if (parseTopic(topic)?.kind === twinKind) void this.onDesired(payload).catch(() => {});
    });
  }

  /** Where its uplink of `kind` goes: its own topic, or its gateway's for it. */
  topic(kind: Uplink): string {
    const id = this.device.opts.deviceId;
    return this.childId ? childUpTopic(id, this.childId, kind) : upTopic(id, kind);
  }

  /** A child tells its online state through its gateway (a device of its own connection has its will). */
  async announce(online: boolean): Promise<void> {
    if (!this.childId) return;
    await this.device.client?.publishAsync(this.topic('status'), JSON.stringify({ online }), { qos: 1 });
  }

  /** Moves each read-only number a little, as a sensor does. */
  drift() {
    for (const [path, t] of this.types) {
      if (t.dataType !== 1 || !t.readOnly) continue;
      const [block, id] = [path.slice(0, path.indexOf('.')), path.slice(path.indexOf('.') + 1)];
      const v = this.state[block][id] as number;
      this.state[block][id] = Math.round((v + (this.random() - 0.5)) * 100) / 100;
    }
  }

  async report(events: { block: string; event: string; data?: Record<string, unknown> }[] = []): Promise<void> {
    const c = this.device.client;
    if (!c) throw new Error('not connected');
    const now = Date.now();
    const body: Record<string, unknown> = { ts: now, properties: this.edge.apply(this.state, now) };
    if (events.length) body.events = events;
    await c.publishAsync(this.topic('telemetry'), JSON.stringify(body), { qos: 1 });
  }

  /** Reports every `ms` until stopped. */
  start(ms: number) {
    this.stop();
    this.timer = setInterval(() => {
      this.drift();
      this.report().catch(() => {});
    }, ms);
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async onDesired(payload: Buffer) {
    let m: { version?: number; delta?: Record<string, Record<string, unknown>> };
    try {
      m = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    if (!Number.isInteger(m.version)) return;
    let code: number = DeviceCodes.ok;
    for (const [block, values] of Object.entries(m.delta ?? {}))
      for (const [id, v] of Object.entries(values ?? {})) {
        const t = this.types.get(`${block}.${id}`);
        if (!t || t.readOnly || !typeOk(t.dataType, v)) code = DeviceCodes.invalidParams;
        else this.state[block][id] = v;
      }
    this.applied.push(m.version as number);
    const c = this.device.client;
    await c?.publishAsync(
      this.topic('twin'),
      JSON.stringify({ version: m.version, code, message: code ? 'some values refused' : 'ok', reported: this.state }),
      { qos: 1 },
    );
  }
}
