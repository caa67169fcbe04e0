import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Tenant, TenantUpdateRequest } from '@loggerhead/contract/schemas/tenant.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../api/client.ts';

export interface Page<T> {
  total: number;
  current_page: number;
  page_size: number;
  list: T[];
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

export interface AuditStatistic {
  total: number;
  pending: number;
  active: number;
  rejected: number;
  disabled: number;
}

/** Spec §9: tenants 20 a page; the push log 10. */
export const TENANT_PAGE_SIZE = 20;
export const PUSH_LOG_PAGE_SIZE = 10;

/** Platform administration (system managers): tenant audit and list, the push log (spec §7). */
export const systemApi = {
  tenants: (q: TenantFilter, signal?: AbortSignal) =>
    api.get<Page<Tenant>>('/tenant/tenants', { query: { ...q }, signal, permission: 'tenant:tenant:query' }),
  audits: (q: TenantFilter, signal?: AbortSignal) =>
    api.get<Page<Tenant>>('/tenant/tenant-audits', { query: { ...q }, signal, permission: 'tenant:tenant:query' }),
  statistic: (signal?: AbortSignal) =>
    api.get<AuditStatistic>('/tenant/tenant-audit-statistic', { signal, permission: 'tenant:tenant:query' }),
  /** Spec §4: the audit carries pass (1/0) and a notify flag. */
  audit: (id: string, pass: boolean, body: { notify: boolean; remark?: string }) =>
    api.put<Tenant>(`/tenant/tenants/${encodeURIComponent(id)}/audit/${pass ? 1 : 0}`, body, { permission: 'tenant:tenant:audit' }),
  update: (id: string, body: TenantUpdateRequest) =>
    api.put<Tenant>(`/tenant/tenants/${encodeURIComponent(id)}`, body, { permission: 'tenant:tenant:update' }),
  csv: (q: Omit<TenantFilter, 'current_page' | 'page_size'>) =>
    api.get<string>('/tenant/tenants-csv-file', { query: { ...q }, permission: 'tenant:tenant:export', timeout: 120_000 }),
  pushLogs: (q: PushLogFilter, signal?: AbortSignal) => call(Routes.notification.pushLogs, { query: { ...q }, signal }),
};

export const systemKeys = {
  all: ['system'] as const,
  tenants: () => [...systemKeys.all, 'tenants'] as const,
  tenantList: (q: TenantFilter) => [...systemKeys.tenants(), 'list', q] as const,
  auditList: (q: TenantFilter) => [...systemKeys.tenants(), 'audits', q] as const,
  statistic: () => [...systemKeys.tenants(), 'statistic'] as const,
  pushLogs: (q: PushLogFilter) => [...systemKeys.all, 'push-logs', q] as const,
};

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
