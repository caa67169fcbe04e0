import type { ConfigResultSchema, DeviceConfig, DeviceConfigStateSchema } from '@loggerhead/contract/schemas/command.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { thingPath } from './command.api.ts';

export type ConfigResult = z.infer<typeof ConfigResultSchema>;
export type ConfigState = z.infer<typeof DeviceConfigStateSchema>;

const configPath = (tenantId: string, id: string) => `${thingPath(tenantId, id)}/config`;

/** Device configuration: last known (server), read from / write to the logger (a command each). */
export const configApi = {
  last: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<ConfigState>(configPath(tenantId, id), { signal, permission: 'things:things:queryone' }),
  read: (tenantId: string, id: string) =>
    api.get<ConfigResult>(`${configPath(tenantId, id)}/device`, { permission: 'things:things:command', timeout: 40_000 }),
  write: (tenantId: string, id: string, config: DeviceConfig) =>
    api.put<ConfigResult>(configPath(tenantId, id), config, { permission: 'things:things:command', timeout: 40_000 }),
};
