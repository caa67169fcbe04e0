import { type RouteBody, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call, request } from '../../../api/client.ts';

const T = Routes.tenantAdmin;
const N = Routes.notice;

export interface NoticeFilter {
  current_page: number;
  page_size: number;
  kind?: 'notice' | 'upgrade';
}

export interface TenantFilter {
  current_page: number;
  page_size: number;
  name?: string;
  mobile?: string;
  status?: number;
}

export interface PushLogFilter {
  current_page: number;
  page_size: number;
  destination?: string;
  purpose?: string;
}

/** Spec §9: tenants 20 a page; the push log 10. */
export const TENANT_PAGE_SIZE = 20;
export const PUSH_LOG_PAGE_SIZE = 10;

/** Platform administration (system managers): tenant audit and list, the push log (spec §7). */
export const systemApi = {
  tenants: (q: TenantFilter, signal?: AbortSignal) => call(T.list, { query: { ...q }, signal }),
  audits: (q: TenantFilter, signal?: AbortSignal) => call(T.audits, { query: { ...q }, signal }),
  statistic: (signal?: AbortSignal) => call(T.auditStatistic, { signal }),
  /** Spec §4: the audit carries pass (1/0) and a notify flag. */
  audit: (id: string, pass: boolean, body: RouteBody<typeof T.audit>) => call(T.audit, { params: { id, pass: pass ? '1' : '0' }, body }),
  update: (id: string, body: RouteBody<typeof T.update>) => call(T.update, { params: { id }, body }),
  /** The CSV as text (the route answers text/csv, read here as the text it is). */
  csv: (q: Omit<TenantFilter, 'current_page' | 'page_size'>) =>
    request<string>(routePath(T.csv, undefined), { query: { ...q }, permission: T.csv.permission, timeout: 120_000 }),
  tenant: (id: string, signal?: AbortSignal) => call(T.get, { params: { id }, signal }),
  users: (id: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(T.users, { params: { id }, query: { ...q }, signal }),
  resetUserPassword: (id: string, user_id: string, body: RouteBody<typeof T.resetUserPassword>) =>
    call(T.resetUserPassword, { params: { id, user_id }, body }),
  quotas: (id: string, signal?: AbortSignal) => call(T.quotas, { params: { id }, signal }),
  updateQuotas: (id: string, body: RouteBody<typeof T.updateQuotas>) => call(T.updateQuotas, { params: { id }, body }),
  /** A tenant's package (spec §7 tenant service: specification). */
  tenantPackage: (id: string, signal?: AbortSignal) => call(Routes.billing.package, { params: { id }, signal }),
  updateTenantPackage: (id: string, body: RouteBody<typeof Routes.billing.updatePackage>) =>
    call(Routes.billing.updatePackage, { params: { id }, body }),
  pushLogs: (q: PushLogFilter, signal?: AbortSignal) => call(Routes.notification.pushLogs, { query: { ...q }, signal }),
  notices: (q: NoticeFilter, signal?: AbortSignal) => call(N.list, { query: { ...q }, signal }),
  createNotice: (body: RouteBody<typeof N.create>) => call(N.create, { body }),
  updateNotice: (id: string, body: RouteBody<typeof N.update>) => call(N.update, { params: { id }, body }),
  removeNotice: (id: string) => call(N.remove, { params: { id } }),
  commonRoles: (signal?: AbortSignal) => call(Routes.commonRoles.list, { signal }),
  createCommonRole: (body: RouteBody<typeof Routes.commonRoles.create>) => call(Routes.commonRoles.create, { body }),
  updateCommonRole: (id: string, body: RouteBody<typeof Routes.commonRoles.update>) =>
    call(Routes.commonRoles.update, { params: { id }, body }),
  removeCommonRole: (id: string) => call(Routes.commonRoles.remove, { params: { id } }),
  openSuperSession: (tenantId: string, readOnly: boolean) =>
    call(Routes.superSession.open, { body: { tenant_id: tenantId, read_only: readOnly } }),
  globalMenu: (signal?: AbortSignal) => call(Routes.globalMenu.get, { signal }),
  setGlobalMenu: (body: RouteBody<typeof Routes.globalMenu.update>) => call(Routes.globalMenu.update, { body }),
};

export const systemKeys = {
  all: ['system'] as const,
  tenants: () => [...systemKeys.all, 'tenants'] as const,
  tenantList: (q: TenantFilter) => [...systemKeys.tenants(), 'list', q] as const,
  auditList: (q: TenantFilter) => [...systemKeys.tenants(), 'audits', q] as const,
  statistic: () => [...systemKeys.tenants(), 'statistic'] as const,
  tenant: (id: string) => [...systemKeys.tenants(), 'one', id] as const,
  users: (id: string, page: number) => [...systemKeys.tenants(), 'one', id, 'users', page] as const,
  quotas: (id: string) => [...systemKeys.tenants(), 'one', id, 'quotas'] as const,
  tenantPackage: (id: string) => [...systemKeys.tenants(), 'one', id, 'package'] as const,
  pushLogs: (q: PushLogFilter) => [...systemKeys.all, 'push-logs', q] as const,
  notices: () => [...systemKeys.all, 'notices'] as const,
  noticeList: (q: NoticeFilter) => [...systemKeys.notices(), q] as const,
  commonRoles: () => [...systemKeys.all, 'common-roles'] as const,
  globalMenu: () => [...systemKeys.all, 'global-menu'] as const,
};

export const noticeListQuery = (q: NoticeFilter) =>
  queryOptions({
    queryKey: systemKeys.noticeList(q),
    queryFn: ({ signal }) => systemApi.notices(q, signal),
    placeholderData: keepPreviousData,
  });

export const tenantListQuery = (q: TenantFilter) =>
  queryOptions({
    queryKey: systemKeys.tenantList(q),
    queryFn: ({ signal }) => systemApi.tenants(q, signal),
    placeholderData: keepPreviousData,
  });

export const auditListQuery = (q: TenantFilter) =>
  queryOptions({
    queryKey: systemKeys.auditList(q),
    queryFn: ({ signal }) => systemApi.audits(q, signal),
    placeholderData: keepPreviousData,
  });

export const statisticQuery = () =>
  queryOptions({ queryKey: systemKeys.statistic(), queryFn: ({ signal }) => systemApi.statistic(signal) });

export const pushLogQuery = (q: PushLogFilter) =>
  queryOptions({
    queryKey: systemKeys.pushLogs(q),
    queryFn: ({ signal }) => systemApi.pushLogs(q, signal),
    placeholderData: keepPreviousData,
  });

/** Saves text as a file through a temporary link (the CSV comes over the authenticated client). */
export function saveText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
