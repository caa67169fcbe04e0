import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { FINAL_COMMAND_STATES } from '@loggerhead/contract/schemas/command.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const R = Routes.groups;

export type GroupPage = RouteResponse<typeof R.list>;
export type GroupInput = RouteBody<typeof R.create>;
export type GroupCommandIssue = RouteBody<typeof R.command>;
export interface PageQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/** Device groups (spec §7 /out-group-mgmt): groups, members, group commands. */
export const groupApi = {
  list: (tenantId: string, q: PageQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  create: (tenantId: string, body: GroupInput) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: GroupInput) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, id } }),
  members: (tenantId: string, id: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(R.things, { params: { tenant_id: tenantId, id }, query: { ...q }, signal }),
  bind: (tenantId: string, id: string, thingsIds: string[]) =>
    call(R.bind, { params: { tenant_id: tenantId, id }, body: { things_ids: thingsIds } }),
  unbind: (tenantId: string, id: string, thingsIds: string[]) =>
    call(R.unbind, { params: { tenant_id: tenantId, id }, body: { things_ids: thingsIds } }),
  command: (tenantId: string, id: string, body: GroupCommandIssue) => call(R.command, { params: { tenant_id: tenantId, id }, body }),
  commands: (tenantId: string, id: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(R.commands, { params: { tenant_id: tenantId, id }, query: { ...q }, signal }),
  commandOne: (tenantId: string, id: string, commandId: string, signal?: AbortSignal) =>
    call(R.commandOne, { params: { tenant_id: tenantId, id, command_id: commandId }, signal }),
  /** The tenant's firmware files, any device type (the upgrade dialog's choice). */
  firmwares: (tenantId: string, signal?: AbortSignal) =>
    call(Routes.firmware.list, { params: { tenantId }, query: { current_page: 1, page_size: 100 }, signal }),
  /** A firmware upgrade for every member (spec §7 upgrade notify with the group as the target), now or at `at`. */
  upgrade: (tenantId: string, groupId: string, f: { model_id: string; version: string; type: 'self' | 'outer' }, at?: number) =>
    call(Routes.firmware.notify, {
      params: { tenantId, model_id: f.model_id, version: f.version },
      body: { group_id: groupId, type: f.type, ...(at ? { at } : {}) },
    }),
  /** Spec §7: the device picker lists things with page size 9999. */
  devices: async (tenantId: string, signal?: AbortSignal): Promise<Thing[]> =>
    (
      await call(Routes.things.list, {
        params: { tenant_id: tenantId },
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        signal,
      })
    ).list,
};

export const groupKeys = {
  all: ['groups'] as const,
  list: (tenantId: string | null, q: PageQuery) => [...groupKeys.all, 'list', tenantId, q] as const,
  group: (tenantId: string | null, id: string) => [...groupKeys.all, 'one', tenantId, id] as const,
  members: (tenantId: string | null, id: string, q: object) => [...groupKeys.group(tenantId, id), 'members', q] as const,
  commands: (tenantId: string | null, id: string, q: object) => [...groupKeys.group(tenantId, id), 'commands', q] as const,
  command: (tenantId: string | null, id: string, commandId: string) => [...groupKeys.group(tenantId, id), 'command', commandId] as const,
  devices: (tenantId: string | null) => [...groupKeys.all, 'devices', tenantId] as const,
  firmwares: (tenantId: string | null) => [...groupKeys.all, 'firmwares', tenantId] as const,
};

/** A group command's members' states change as the devices answer: polled while some are not final. */
export const GROUP_COMMAND_POLL_MS = 2_000;

const allFinal = (states: Record<string, number>) =>
  Object.keys(states).every((s) => (FINAL_COMMAND_STATES as readonly string[]).includes(s));

export const groupListQuery = (tenantId: string | null, q: PageQuery) =>
  queryOptions({
    queryKey: groupKeys.list(tenantId, q),
    queryFn: ({ signal }) => groupApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const groupMembersQuery = (tenantId: string | null, id: string | null, q: { current_page: number; page_size: number }) =>
  queryOptions({
    queryKey: groupKeys.members(tenantId, id ?? '', q),
    queryFn: ({ signal }) => groupApi.members(tenantId as string, id as string, q, signal),
    enabled: Boolean(tenantId && id),
    placeholderData: keepPreviousData,
  });

export const groupCommandsQuery = (tenantId: string | null, id: string | null, q: { current_page: number; page_size: number }) =>
  queryOptions({
    queryKey: groupKeys.commands(tenantId, id ?? '', q),
    queryFn: ({ signal }) => groupApi.commands(tenantId as string, id as string, q, signal),
    enabled: Boolean(tenantId && id),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.every((c) => allFinal(c.states)) ? false : GROUP_COMMAND_POLL_MS),
  });

export const groupCommandQuery = (tenantId: string | null, id: string | null, commandId: string | null) =>
  queryOptions({
    queryKey: groupKeys.command(tenantId, id ?? '', commandId ?? ''),
    queryFn: ({ signal }) => groupApi.commandOne(tenantId as string, id as string, commandId as string, signal),
    enabled: Boolean(tenantId && id && commandId),
    refetchInterval: (query) => (query.state.data && allFinal(query.state.data.states) ? false : GROUP_COMMAND_POLL_MS),
  });

export const pickerDevicesQuery = (tenantId: string | null, enabled: boolean) =>
  queryOptions({
    queryKey: groupKeys.devices(tenantId),
    queryFn: ({ signal }) => groupApi.devices(tenantId as string, signal),
    enabled: Boolean(tenantId) && enabled,
  });
