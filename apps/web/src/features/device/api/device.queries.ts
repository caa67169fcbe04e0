import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { deviceApi, type EventsQuery, type FramesFilter } from './device.api.ts';

/** Query keys of the device details (factory: every key of this area is built here). */
export const deviceKeys = {
  all: ['device'] as const,
  one: (tenantId: string | null, id: string) => [...deviceKeys.all, tenantId, id] as const,
  thing: (tenantId: string | null, id: string) => [...deviceKeys.one(tenantId, id), 'thing'] as const,
  status: (tenantId: string | null, id: string) => [...deviceKeys.one(tenantId, id), 'status'] as const,
  events: (tenantId: string | null, id: string, q: EventsQuery) => [...deviceKeys.one(tenantId, id), 'events', q] as const,
  frames: (tenantId: string | null, id: string, f: FramesFilter, page: number, size: number) =>
    [...deviceKeys.one(tenantId, id), 'frames', f, page, size] as const,
  download: (tenantId: string | null, id: string, taskId: string) => [...deviceKeys.one(tenantId, id), 'download', taskId] as const,
  exportPlugins: (tenantId: string | null) => [...deviceKeys.all, tenantId, 'export-plugins'] as const,
};

/** Status and log change while the page is open: refreshed every 5 s. */
export const STATUS_POLL_MS = 5_000;
/** The download dialog polls its task every second. */
export const DOWNLOAD_POLL_MS = 1_000;

export const thingQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: deviceKeys.thing(tenantId, id),
    queryFn: ({ signal }) => deviceApi.get(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
    refetchInterval: 3 * STATUS_POLL_MS,
    meta: { silent: true },
  });

export const statusQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: deviceKeys.status(tenantId, id),
    queryFn: ({ signal }) => deviceApi.status(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
    refetchInterval: STATUS_POLL_MS,
  });

export const eventsQuery = (tenantId: string | null, id: string, q: EventsQuery) =>
  queryOptions({
    queryKey: deviceKeys.events(tenantId, id, q),
    queryFn: ({ signal }) => deviceApi.events(tenantId as string, id, q, signal),
    enabled: Boolean(tenantId && id),
    placeholderData: keepPreviousData,
    refetchInterval: STATUS_POLL_MS,
  });

export const framesQuery = (tenantId: string | null, id: string, f: FramesFilter | null, page: number, size: number) =>
  queryOptions({
    queryKey: deviceKeys.frames(tenantId, id, f ?? { begin_time: 0, end_time: 0, channels: [], ids: [] }, page, size),
    queryFn: ({ signal }) => deviceApi.frames(tenantId as string, id, f as FramesFilter, { current_page: page, page_size: size }, signal),
    enabled: Boolean(tenantId && id && f),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
