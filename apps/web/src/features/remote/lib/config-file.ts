import { type DeviceConfig, DeviceConfigSchema, MAX_CONFIG_FILE_BYTES } from '@loggerhead/contract/schemas/command.ts';

export type ConfigFileResult =
  | { ok: true; config: DeviceConfig }
  | { ok: false; error: 'tooLarge' | 'badJson' | 'badConfig'; detail?: string };

/**
 * A configuration file as exported (`{ "config": {...} }`) or a bare config object; at most
 * 10 MB (spec §5) and every value inside the spec §9 ranges before it can reach the form.
 */
export function parseConfigFile(text: string, byteSize: number): ConfigFileResult {
  if (byteSize > MAX_CONFIG_FILE_BYTES) return { ok: false, error: 'tooLarge' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'badJson' };
  }
  const body = json && typeof json === 'object' && 'config' in json ? (json as { config: unknown }).config : json;
  const parsed = DeviceConfigSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: 'badConfig', detail: issue ? `${issue.path.join('.')}: ${issue.message}` : undefined };
  }
  return { ok: true, config: parsed.data };
}

/** The export file: the same shape the server's export gives, so either can be imported. */
export function configFileText(config: DeviceConfig): string {
  return JSON.stringify({ config }, null, 2);
}

/** Drops empty fields the form holds as undefined/null so `set_config` changes only what is set. */
export function cleanConfig(values: Record<string, unknown>): DeviceConfig {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out as DeviceConfig;
}
