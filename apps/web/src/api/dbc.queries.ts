import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { dbcApi, type ListQuery } from './dbc.api.ts';
import { type SignalRange, signalsApi } from './signals.api.ts';

/** Query keys of the DBC area (factory: every key of this area is built here): DBC files, strategies, bindings, decoded signals. */
export const dbcKeys = {
  all: ['dbc'] as const,
  files: () => [...dbcKeys.all, 'files'] as const,
  fileList: (tenantId: string | null, q: ListQuery) => [...dbcKeys.files(), 'list', tenantId, q] as const,
  file: (tenantId: string | null, id: string) => [...dbcKeys.files(), 'one', tenantId, id] as const,
  messages: (tenantId: string | null, id: string) => [...dbcKeys.files(), 'messages', tenantId, id] as const,
  strategies: () => [...dbcKeys.all, 'strategies'] as const,
  strategyList: (tenantId: string | null, q: ListQuery & { dbc_id?: string }) => [...dbcKeys.strategies(), 'list', tenantId, q] as const,
  strategy: (tenantId: string | null, id: string) => [...dbcKeys.strategies(), 'one', tenantId, id] as const,
  device: (tenantId: string | null, thingsId: string) => [...dbcKeys.all, 'device', tenantId, thingsId] as const,
  bindings: (tenantId: string | null, thingsId: string) => [...dbcKeys.device(tenantId, thingsId), 'bindings'] as const,
  series: (tenantId: string | null, thingsId: string, channel: number) =>
    [...dbcKeys.device(tenantId, thingsId), 'series', channel] as const,
  data: (tenantId: string | null, thingsId: string, r: SignalRange, page: number, size: number) =>
    [...dbcKeys.device(tenantId, thingsId), 'data', r, page, size] as const,
};

export const dbcListQuery = (tenantId: string | null, q: ListQuery) =>
  queryOptions({
    queryKey: dbcKeys.fileList(tenantId, q),
    queryFn: ({ signal }) => dbcApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const dbcFileQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: dbcKeys.file(tenantId, id),
    queryFn: ({ signal }) => dbcApi.get(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
  });

/** A file's messages never change until it is replaced (which invalidates `files`). */
export const dbcMessagesQuery = (tenantId: string | null, id: string | null) =>
  queryOptions({
    queryKey: dbcKeys.messages(tenantId, id ?? ''),
    queryFn: ({ signal }) => dbcApi.messages(tenantId as string, id as string, signal),
    enabled: Boolean(tenantId && id),
    staleTime: 5 * 60_000,
  });

export const strategyListQuery = (tenantId: string | null, q: ListQuery & { dbc_id?: string }) =>
  queryOptions({
    queryKey: dbcKeys.strategyList(tenantId, q),
    queryFn: ({ signal }) => dbcApi.strategies(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const strategyQuery = (tenantId: string | null, id: string | null) =>
  queryOptions({
    queryKey: dbcKeys.strategy(tenantId, id ?? ''),
    queryFn: ({ signal }) => dbcApi.strategy(tenantId as string, id as string, signal),
    enabled: Boolean(tenantId && id),
  });

export const bindingsQuery = (tenantId: string | null, thingsId: string) =>
  queryOptions({
    queryKey: dbcKeys.bindings(tenantId, thingsId),
    queryFn: ({ signal }) => dbcApi.bindings(tenantId as string, thingsId, signal),
    enabled: Boolean(tenantId && thingsId),
  });

/** Series with stored samples on a channel; they appear as decoding stores data, so refreshed now and then. */
export const seriesQuery = (tenantId: string | null, thingsId: string, channel: number) =>
  queryOptions({
    queryKey: dbcKeys.series(tenantId, thingsId, channel),
    queryFn: ({ signal }) => signalsApi.series(tenantId as string, thingsId, channel, signal),
    enabled: Boolean(tenantId && thingsId),
    refetchInterval: 10_000,
  });

export const signalDataQuery = (tenantId: string | null, thingsId: string, r: SignalRange | null, page: number, size: number) =>
  queryOptions({
    queryKey: dbcKeys.data(tenantId, thingsId, r ?? { signals: [], channel: 0, begin_time: 0, end_time: 0 }, page, size),
    queryFn: ({ signal }) =>
      signalsApi.data(tenantId as string, thingsId, r as SignalRange, { current_page: page, page_size: size }, signal),
    enabled: Boolean(tenantId && thingsId && r?.signals.length),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
