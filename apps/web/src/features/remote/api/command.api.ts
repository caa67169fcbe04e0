import type { Command, CommandIssue, CommandPageSchema } from '@loggerhead/contract/schemas/command.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';

export type CommandPage = z.infer<typeof CommandPageSchema>;

export interface CommandListQuery {
  current_page: number;
  page_size: number;
  operation_name?: string;
  state?: string;
}

export const thingPath = (tenantId: string, id: string) =>
  `/things/tenants/${encodeURIComponent(tenantId)}/things/${encodeURIComponent(id)}`;

/** Spec §7 device messages: issue a command, list them, cancel a queued one. */
export const commandApi = {
  issue: (tenantId: string, id: string, body: Partial<CommandIssue> & { operation_name: string }) =>
    api.post<Command>(`${thingPath(tenantId, id)}/messages`, body, { permission: 'things:things:command' }),
  page: (tenantId: string, id: string, q: CommandListQuery, signal?: AbortSignal) =>
    api.get<CommandPage>(`${thingPath(tenantId, id)}/messages`, { signal, query: { ...q }, permission: 'things:message:query' }),
  get: (tenantId: string, id: string, correlationId: string, signal?: AbortSignal) =>
    api.get<Command>(`${thingPath(tenantId, id)}/messages/${encodeURIComponent(correlationId)}`, {
      signal,
      permission: 'things:message:query',
    }),
  cancel: (tenantId: string, id: string, correlationId: string) =>
    api.post<Command>(`${thingPath(tenantId, id)}/messages/${encodeURIComponent(correlationId)}/cancel`, undefined, {
      permission: 'things:things:command',
    }),
};
