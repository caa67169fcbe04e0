import { type DeviceConfig, DeviceConfigSchema, MAX_CONFIG_FILE_BYTES, Operations } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, notFound } from '../../lib/errors.ts';
import { requireDevice } from '../things/things.access.ts';
import type { CommandRow } from './command.repository.ts';
import { type CommandService, toCommand, zodToApiError } from './command.service.ts';
import { configRepository } from './config.repository.ts';

/**
 * Logger configuration over commands: read (`common_fn.get_config`), write (`common_fn.set_config`),
 * export and import of a JSON file. The last known config is kept per device.
 */
export function configService(raw: RawSql, commands: CommandService) {
  const repo = configRepository(raw);
  async function remember(tenantId: string, thingsId: string, config: unknown, source: 'read' | 'write') {
    await repo.remember(tenantId, thingsId, config, source);
  }

  /** Waits for the device unless the command had to be queued; maps the outcome to a result or an error. */
  async function outcome(row: CommandRow, source: 'read' | 'write') {
    if (row.state === 'queued') return { status: 202 as const, body: { command: toCommand(row), config: null } };
    const done = await commands.waitFinal(row);
    if (done.state === 'failed')
      throw new ApiError(400, 'config.device-refused', done.message ?? 'The device refused the configuration', {
        details: { correlation_id: done.correlation_id, device_code: done.code },
      });
    if (done.state !== 'answered')
      throw new ApiError(504, 'command.no-response', undefined, {
        details: { correlation_id: done.correlation_id },
      });
    const parsed = DeviceConfigSchema.safeParse((done.result as { config?: unknown } | null)?.config ?? {});
    const config = parsed.success ? parsed.data : null;
    if (config) await remember(done.tenant_id, done.things_id, config, source);
    return { status: 200 as const, body: { command: toCommand(done), config } };
  }

  return {
    async read(auth: Auth, thingsId: string) {
      await requireDevice(raw, auth, thingsId, 'write');
      const t = await commands.target(auth.tenantId, thingsId);
      return outcome(await commands.issueRaw(t, { operation_name: Operations.getConfig, operation_params: {} }, auth.userId), 'read');
    },

    async write(auth: Auth, thingsId: string, config: DeviceConfig) {
      await requireDevice(raw, auth, thingsId, 'write');
      const t = await commands.target(auth.tenantId, thingsId);
      const row = await commands.issueRaw(t, { operation_name: Operations.setConfig, operation_params: { config } }, auth.userId);
      return outcome(row, 'write');
    },

    /** The last config known for the device (read or written), as stored. */
    async last(auth: Auth, thingsId: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      const r = await repo.last(auth.tenantId, thingsId);
      if (!r) throw notFound('No configuration known for this device yet');
      return { things_id: thingsId, config: r.config, source: r.source, updated_at: new Date(r.updated_at).getTime() };
    },

    /** A config file (JSON, at most 10 MB), validated like a form, then written to the device. */
    async import(auth: Auth, thingsId: string, bytes: Uint8Array) {
      if (bytes.byteLength > MAX_CONFIG_FILE_BYTES) throw new ApiError(413, 'config.file-too-large');
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(bytes).toString('utf8'));
      } catch {
        throw badRequest('config.bad-file');
      }
      const body = (json as { config?: unknown })?.config ?? json;
      const r = DeviceConfigSchema.safeParse(body);
      if (!r.success) throw zodToApiError(r.error, 'config');
      return this.write(auth, thingsId, r.data);
    },
  };
}

export type ConfigService = ReturnType<typeof configService>;

/** Server-side check of `common_fn.set_config` issued as a raw command. */
export function validateSetConfig(params: Record<string, unknown>) {
  const r = DeviceConfigSchema.safeParse(params.config ?? params);
  if (!r.success) throw zodToApiError(r.error, 'operation_params.config');
  return { config: r.data };
}
