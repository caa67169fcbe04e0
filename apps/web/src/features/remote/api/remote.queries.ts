import { type CommandState, FINAL_COMMAND_STATES } from '@loggerhead/contract/schemas/command.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ecuApi } from '../../../api/ecu.api.ts';
import { isRecallRunning } from '../lib/recall-rules.ts';
import { type CommandListQuery, commandApi } from './command.api.ts';
import { configApi } from './config.api.ts';
import { firmwareApi } from './firmware.api.ts';
import { recallApi } from './recall.api.ts';

/** Query keys of the remote operations of one device (factory: every key of this area is built here). */
export const remoteKeys = {
  all: ['remote'] as const,
  device: (tenantId: string, id: string) => [...remoteKeys.all, tenantId, id] as const,
  commands: (tenantId: string, id: string, q: CommandListQuery) => [...remoteKeys.device(tenantId, id), 'commands', q] as const,
  command: (tenantId: string, id: string, corr: string) => [...remoteKeys.device(tenantId, id), 'command', corr] as const,
};

/** Commands move on their own (queued → sent → answered …): the list refreshes every 3 s. */
export const COMMAND_POLL_MS = 3_000;

export const isFinal = (state: CommandState) => FINAL_COMMAND_STATES.includes(state);

export const commandsQuery = (tenantId: string, id: string, q: CommandListQuery) =>
  queryOptions({
    queryKey: remoteKeys.commands(tenantId, id, q),
    queryFn: ({ signal }) => commandApi.page(tenantId, id, q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: COMMAND_POLL_MS,
  });

/** One command followed until it reaches a final state. */
export const commandQuery = (tenantId: string, id: string, corr: string | null) =>
  queryOptions({
    queryKey: remoteKeys.command(tenantId, id, corr ?? ''),
    queryFn: ({ signal }) => commandApi.get(tenantId, id, corr as string, signal),
    enabled: Boolean(corr),
    refetchInterval: (q) => (q.state.data && isFinal(q.state.data.state) ? false : 1_000),
  });

/** The last configuration the server knows (read from or written to the device); 404 until one exists. */
export const lastConfigQuery = (tenantId: string, id: string) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'config'] as const,
    queryFn: ({ signal }) => configApi.last(tenantId, id, signal),
    retry: false,
    meta: { silent: true },
  });

/** A recall list command followed every 1 s (spec §4) until the device answered or the server gave up. */
export const recallListQuery = (tenantId: string, id: string, corr: string | null) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'recall-list', corr ?? ''] as const,
    queryFn: ({ signal }) => recallApi.listResult(tenantId, id, corr as string, signal),
    enabled: Boolean(corr),
    refetchInterval: (q) => (q.state.data && isFinal(q.state.data.command.state) ? false : 1_000),
  });

/** One recall task, polled every 1 s while it runs. */
export const recallTaskQuery = (tenantId: string, id: string, taskId: string | null) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'recall-task', taskId ?? ''] as const,
    queryFn: ({ signal }) => recallApi.task(tenantId, id, taskId as string, signal),
    enabled: Boolean(taskId),
    refetchInterval: (q) => (q.state.data && !isRecallRunning(q.state.data) ? false : 1_000),
  });

/** Recall tasks of the device (batch progress); refreshed while any runs. */
export const recallTasksQuery = (tenantId: string, id: string) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'recall-tasks'] as const,
    queryFn: ({ signal }) => recallApi.tasks(tenantId, id, signal),
    refetchInterval: (q) => (q.state.data?.some(isRecallRunning) ? 2_000 : 15_000),
  });

export const recalledFilesQuery = (tenantId: string, id: string) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'recalled'] as const,
    queryFn: ({ signal }) => recallApi.recalled(tenantId, id, signal),
    refetchInterval: 10_000,
  });

export const tenantPackageQuery = (tenantId: string) =>
  queryOptions({
    queryKey: [...remoteKeys.all, tenantId, 'package'] as const,
    queryFn: ({ signal }) => recallApi.package(tenantId, signal),
    staleTime: 60_000,
    meta: { silent: true },
  });

export const firmwareListQuery = (tenantId: string, q: { current_page: number; page_size: number; model_id?: string }) =>
  queryOptions({
    queryKey: [...remoteKeys.all, tenantId, 'firmware', q] as const,
    queryFn: ({ signal }) => firmwareApi.list(tenantId, q, signal),
    placeholderData: keepPreviousData,
  });

/** The device's upgrades: polled every 2 s while one is running, else every 15 s. */
export const upgradesQuery = (tenantId: string, id: string) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'upgrades'] as const,
    queryFn: ({ signal }) => firmwareApi.upgrades(tenantId, id, signal),
    refetchInterval: (q) => (q.state.data?.some((u) => u.state === 'busy' || u.state === 'idle') ? 2_000 : 15_000),
  });

/** An ECU flashing job, polled every 1 s while it runs. */
export const flashJobQuery = (tenantId: string, id: string, jobId: string | null) =>
  queryOptions({
    queryKey: [...remoteKeys.device(tenantId, id), 'flash', jobId ?? ''] as const,
    queryFn: ({ signal }) => ecuApi.flashJob(tenantId, id, jobId as string, signal),
    enabled: Boolean(jobId),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'running' ? false : 1_000),
  });
