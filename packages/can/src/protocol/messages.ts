/**
 * JSON uplinks of the device protocol (status, GPS, command responses). Parsed by hand so the
 * package stays free of dependencies; each parser returns the message or a reason string.
 */
export type SdState = 'ok' | 'absent' | 'full' | 'error' | 'readonly';

export interface StatusMessage {
  online: boolean;
  firmware?: string;
  sd?: { state: SdState; total_mb?: number; free_mb?: number };
  /** Bit n = CAN channel n enabled. */
  channel_enable?: number;
  server?: string;
  /** Device uptime in seconds. */
  uptime?: number;
}

export interface GpsFix {
  /** ms since the Unix epoch. */
  ts: number;
  lat: number;
  lon: number;
  alt?: number;
  speed?: number;
  heading?: number;
  sats?: number;
}

export interface CommandResponse {
  correlation_id: string;
  code: number;
  message?: string;
  payload?: unknown;
}

const SD_STATES = new Set(['ok', 'absent', 'full', 'error', 'readonly']);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

function json(payload: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
  } catch {
    return undefined;
  }
}

export function parseStatus(payload: Uint8Array): StatusMessage | string {
  const m = json(payload);
  if (!isObj(m)) return 'status is not a JSON object';
  if (typeof m.online !== 'boolean') return 'status.online must be a boolean';
  if (m.firmware !== undefined && (typeof m.firmware !== 'string' || m.firmware.length > 64))
    return 'status.firmware must be a short string';
  if (m.sd !== undefined) {
    if (!isObj(m.sd) || !SD_STATES.has(m.sd.state as string)) return 'status.sd.state must be ok|absent|full|error|readonly';
    if ((m.sd.total_mb !== undefined && !num(m.sd.total_mb)) || (m.sd.free_mb !== undefined && !num(m.sd.free_mb)))
      return 'status.sd sizes must be numbers';
  }
  if (
    m.channel_enable !== undefined &&
    !(Number.isInteger(m.channel_enable) && (m.channel_enable as number) >= 0 && (m.channel_enable as number) < 2 ** 31)
  ) {
    return 'status.channel_enable must be a bit mask';
  }
  if (m.server !== undefined && (typeof m.server !== 'string' || m.server.length > 128)) return 'status.server must be a short string';
  return m as unknown as StatusMessage;
}

export function parseGps(payload: Uint8Array): GpsFix[] | string {
  const m = json(payload);
  const list = Array.isArray(m) ? m : [m];
  if (list.length === 0 || list.length > 10_000) return 'gps must hold 1-10000 fixes';
  for (const f of list) {
    if (!isObj(f) || !num(f.ts) || !num(f.lat) || !num(f.lon)) return 'gps fix needs numeric ts, lat, lon';
    if ((f.lat as number) < -90 || (f.lat as number) > 90 || (f.lon as number) < -180 || (f.lon as number) > 180)
      return 'gps fix out of range';
  }
  return list as GpsFix[];
}

export function parseResponse(payload: Uint8Array): CommandResponse | string {
  const m = json(payload);
  if (!isObj(m) || typeof m.correlation_id !== 'string' || !Number.isInteger(m.code))
    return 'response needs correlation_id and an integer code';
  return m as unknown as CommandResponse;
}

export function parseTelemetry(payload: Uint8Array): Record<string, unknown> | string {
  const m = json(payload);
  if (!isObj(m)) return 'telemetry is not a JSON object';
  return m;
}

/**
 * Model-shaped telemetry (decision 0123): `properties` by block then identifier, `events` as a list,
 * optional `ts` (ms). An object with neither key is the free form: its keys are identifiers.
 */
export interface ModelTelemetry {
  ts?: number;
  properties?: Record<string, Record<string, unknown>>;
  events?: { block: string; event: string; data?: Record<string, unknown> }[];
  /** The free form's values, by identifier. */
  flat?: Record<string, unknown>;
}

export function parseModelTelemetry(m: Record<string, unknown>): ModelTelemetry | string {
  const ts = m.ts;
  if (ts !== undefined && !num(ts)) return 'telemetry ts must be a number (ms)';
  if (!('properties' in m) && !('events' in m)) {
    const { ts: _ts, ...flat } = m;
    return { ts: ts as number | undefined, flat };
  }
  const props = m.properties ?? {};
  if (!isObj(props) || !Object.values(props).every(isObj))
    return 'telemetry properties must be an object of objects (block → identifier → value)';
  const events = m.events ?? [];
  if (!Array.isArray(events) || events.length > 1000) return 'telemetry events must be a list of at most 1000';
  for (const e of events)
    if (!isObj(e) || typeof e.block !== 'string' || typeof e.event !== 'string' || (e.data !== undefined && !isObj(e.data)))
      return 'a telemetry event needs block, event and an optional data object';
  return { ts: ts as number | undefined, properties: props as ModelTelemetry['properties'], events: events as ModelTelemetry['events'] };
}

/** A device's answer to a desired-state change (`up/twin`): the version it applied, its code, optionally what it now reports. */
export interface TwinAck {
  version: number;
  code: number;
  message?: string;
  reported?: Record<string, Record<string, unknown>>;
}

export function parseTwinAck(payload: Uint8Array): TwinAck | string {
  const m = json(payload);
  if (!isObj(m) || !Number.isInteger(m.version) || !Number.isInteger(m.code)) return 'twin acknowledgement needs integer version and code';
  if (m.reported !== undefined && (!isObj(m.reported) || !Object.values(m.reported).every(isObj)))
    return 'twin acknowledgement reported must be an object of objects';
  return m as unknown as TwinAck;
}

export const encodeJson = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
