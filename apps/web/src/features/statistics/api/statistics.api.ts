import { type RouteBody, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { fetchFile } from '../../../components/data-view/file-download.ts';

const R = Routes.statistics;

export type StatisticsTaskBody = RouteBody<typeof R.create>;
export interface ResultQuery {
  task_id: string;
  things_id?: string;
  signal?: string;
  begin_time?: number;
  end_time?: number;
  current_page: number;
  page_size: number;
}
export interface PageQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/** Statistics (spec §7 /data-mgmt): tasks, runs, results and the history of runs. */
export const statisticsApi = {
  methods: (signal?: AbortSignal) => call(R.methods, { signal }),
  list: (tenantId: string, q: PageQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  create: (tenantId: string, body: StatisticsTaskBody) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: StatisticsTaskBody) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  setStatus: (tenantId: string, id: string, status: 0 | 1) => call(R.setStatus, { params: { tenant_id: tenantId, id, status } }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, id } }),
  run: (tenantId: string, id: string, range: [number, number]) =>
    call(R.run, { params: { tenant_id: tenantId, id }, body: { begin_time: range[0], end_time: range[1] } }),
  results: (tenantId: string, q: ResultQuery, signal?: AbortSignal) =>
    call(R.results, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  csv: (tenantId: string, q: Omit<ResultQuery, 'current_page' | 'page_size'>) =>
    fetchFile(routePath(R.resultsCsv, { tenant_id: tenantId }), {
      query: { ...q },
      permission: R.resultsCsv.permission,
      fallbackName: 'statistics.csv',
    }),
  history: (tenantId: string, q: { current_page: number; page_size: number; task_id?: string }, signal?: AbortSignal) =>
    call(R.history, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  /** The device picker: the tenant's first 200 devices matching a keyword. */
  devices: (tenantId: string, keyword: string | undefined, signal?: AbortSignal) =>
    call(Routes.things.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 200, keyword }, signal }),
};

export const statisticsKeys = {
  all: ['statistics'] as const,
  methods: () => [...statisticsKeys.all, 'methods'] as const,
  list: (tenantId: string | null, q: PageQuery) => [...statisticsKeys.all, 'list', tenantId, q] as const,
  results: (tenantId: string | null, q: ResultQuery) => [...statisticsKeys.all, 'results', tenantId, q] as const,
  csv: (tenantId: string, q: Omit<ResultQuery, 'current_page' | 'page_size'>) =>
    fetchFile(routePath(R.resultsCsv, { tenant_id: tenantId }), {
      query: { ...q },
      permission: R.resultsCsv.permission,
      fallbackName: 'statistics.csv',
    }),
  history: (tenantId: string | null, q: object) => [...statisticsKeys.all, 'history', tenantId, q] as const,
  devices: (tenantId: string | null, keyword?: string) => [...statisticsKeys.all, 'devices', tenantId, keyword] as const,
};

export const statisticsListQuery = (tenantId: string | null, q: PageQuery) =>
  queryOptions({
    queryKey: statisticsKeys.list(tenantId, q),
    queryFn: ({ signal }) => statisticsApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
  });
