import { CONFIG_LIMITS, MAX_ID_FILTERS, MAX_TIME_FILTERS } from '@loggerhead/contract';
import type { DeviceAgent, OperationResult } from './commands.ts';
import { DeviceCodes } from './commands.ts';

export type LoggerConfig = Record<string, unknown>;

/** A freshly flashed logger's settings. */
export const FACTORY_CONFIG: LoggerConfig = {
  timer_period_ms: 1000,
  record_time: 3600,
  pretrigger_frames: 1000,
  record_file_size_mb: 64,
  storage_allocation_pct: 80,
  timeout_ms: 5000,
  resumable_cache: 10,
  remote_host: 'localhost',
  remote_port: 1883,
  local_port: 0,
  gps_record_period_s: 10,
  time_filters: [],
  id_filters: [],
};

/**
 * The device's own validation of a configuration change (spec §9 ranges, checked on the device as
 * well as in the cloud): the first problem found, or null.
 */
export function checkConfig(c: LoggerConfig): string | null {
  for (const [k, v] of Object.entries(c)) {
    if (k in CONFIG_LIMITS) {
      const [min, max] = CONFIG_LIMITS[k as keyof typeof CONFIG_LIMITS];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) return `${k} must be ${min}-${max}`;
    } else if (k === 'time_filters') {
      if (!Array.isArray(v) || v.length > MAX_TIME_FILTERS) return `at most ${MAX_TIME_FILTERS} time filters`;
    } else if (k === 'id_filters') {
      if (!Array.isArray(v) || v.length > MAX_ID_FILTERS) return `at most ${MAX_ID_FILTERS} ID filters`;
    } else if (k === 'remote_host') {
      if (typeof v !== 'string' || !v) return 'remote_host must be a host name';
    } else return `unknown setting ${k}`;
  }
  return null;
}

/** `common_fn.get_config` / `common_fn.set_config` on the simulated logger; a refused change changes nothing. */
export class ConfigStore {
  config: LoggerConfig;

  constructor(initial: LoggerConfig = FACTORY_CONFIG) {
    this.config = structuredClone(initial);
  }

  attach(agent: DeviceAgent) {
    agent.on('common_fn.get_config', () => ({ code: 0, payload: { config: this.config } }));
    agent.on('common_fn.set_config', (p) => this.set(p));
  }

  set(p: Record<string, unknown>): OperationResult {
    const change = (p.config ?? p) as LoggerConfig;
    if (typeof change !== 'object' || change === null || Array.isArray(change))
      return { code: DeviceCodes.invalidParams, message: 'config must be an object' };
    const why = checkConfig(change);
    if (why) return { code: DeviceCodes.invalidParams, message: why };
    this.config = { ...this.config, ...structuredClone(change) };
    return { code: 0, payload: { config: this.config } };
  }
}
