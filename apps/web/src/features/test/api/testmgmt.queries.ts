import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type RunQuery, testApi } from './testmgmt.api.ts';

export const testKeys = {
  all: ['test-mgmt'] as const,
  runtime: () => [...testKeys.all, 'runtime'] as const,
  scripts: (tenantId: string | null) => [...testKeys.all, 'scripts', tenantId] as const,
  scriptList: (tenantId: string | null, q: object) => [...testKeys.scripts(tenantId), 'list', q] as const,
  script: (tenantId: string | null, id: string) => [...testKeys.scripts(tenantId), 'one', id] as const,
  versions: (tenantId: string | null, id: string) => [...testKeys.scripts(tenantId), 'versions', id] as const,
  routines: (tenantId: string | null) => [...testKeys.all, 'routines', tenantId] as const,
  routineList: (tenantId: string | null, q: object) => [...testKeys.routines(tenantId), q] as const,
  runs: (tenantId: string | null) => [...testKeys.all, 'runs', tenantId] as const,
  runList: (tenantId: string | null, q: RunQuery) => [...testKeys.runs(tenantId), 'list', q] as const,
  report: (tenantId: string | null, id: string) => [...testKeys.all, 'report', tenantId, id] as const,
  compare: (tenantId: string | null, a: string, b: string) => [...testKeys.all, 'compare', tenantId, a, b] as const,
};

/** The Groovy runtime's state; checked again now and then while it starts. */
export const runtimeQuery = () =>
  queryOptions({
    queryKey: testKeys.runtime(),
    queryFn: ({ signal }) => testApi.runtime(signal),
    staleTime: 10_000,
    refetchInterval: (q) => (q.state.data?.state === 'starting' ? 3_000 : false),
  });

export const scriptListQuery = (tenantId: string | null, q: { current_page: number; page_size: number; name?: string }) =>
  queryOptions({
    queryKey: testKeys.scriptList(tenantId, q),
    queryFn: ({ signal }) => testApi.scripts(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const scriptQuery = (tenantId: string | null, id: string | null) =>
  queryOptions({
    queryKey: testKeys.script(tenantId, id ?? ''),
    queryFn: ({ signal }) => testApi.script(tenantId as string, id as string, signal),
    enabled: Boolean(tenantId && id),
    staleTime: 0,
  });

export const versionsQuery = (tenantId: string | null, id: string | null) =>
  queryOptions({
    queryKey: testKeys.versions(tenantId, id ?? ''),
    queryFn: ({ signal }) => testApi.scriptVersions(tenantId as string, id as string, signal),
    enabled: Boolean(tenantId && id),
  });

export const routineListQuery = (tenantId: string | null, q: { current_page: number; page_size: number; name?: string }) =>
  queryOptions({
    queryKey: testKeys.routineList(tenantId, q),
    queryFn: ({ signal }) => testApi.routines(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const runListQuery = (tenantId: string | null, q: RunQuery) =>
  queryOptions({
    queryKey: testKeys.runList(tenantId, q),
    queryFn: ({ signal }) => testApi.runs(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const reportQuery = (tenantId: string | null, id: string | null) =>
  queryOptions({
    queryKey: testKeys.report(tenantId, id ?? ''),
    queryFn: ({ signal }) => testApi.report(tenantId as string, id as string, signal),
    enabled: Boolean(tenantId && id),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Two finished runs' reports compared on the server (a report does not change once written). */
export const compareQuery = (tenantId: string | null, a: string, b: string) =>
  queryOptions({
    queryKey: testKeys.compare(tenantId, a, b),
    queryFn: ({ signal }) => testApi.compareReports(tenantId as string, a, b, signal),
    enabled: Boolean(tenantId),
    staleTime: Number.POSITIVE_INFINITY,
  });
