import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const R = Routes.forward;

export type ForwardRulePage = RouteResponse<typeof R.list>;
export type ForwardRuleInput = RouteBody<typeof R.create>;
export type ForwardDestinationInput = ForwardRuleInput['destination'];
export interface PageQuery {
  current_page: number;
  page_size: number;
  keyword?: string;
}

/** Things-forward rules (spec §7 /alert-mgmt): rules, status, destination test, dead letters. */
export const forwardApi = {
  list: (tenantId: string, q: PageQuery, signal?: AbortSignal) =>
    call(R.list, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  create: (tenantId: string, body: ForwardRuleInput) => call(R.create, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: ForwardRuleInput) => call(R.update, { params: { tenant_id: tenantId, id }, body }),
  setStatus: (tenantId: string, id: string, status: 'enable' | 'disable' | 'pause') =>
    call(R.setStatus, { params: { tenant_id: tenantId, id, status } }),
  remove: (tenantId: string, id: string) => call(R.remove, { params: { tenant_id: tenantId, id } }),
  test: (tenantId: string, destination: ForwardDestinationInput, ruleId?: string) =>
    call(R.testDestination, { params: { tenant_id: tenantId }, body: { destination, ...(ruleId ? { rule_id: ruleId } : {}) } }),
  deadLetters: (tenantId: string, id: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    call(R.deadLetters, { params: { tenant_id: tenantId, id }, query: { ...q }, signal }),
  replay: (tenantId: string, id: string, ids?: string[]) =>
    call(R.replayDeadLetters, { params: { tenant_id: tenantId, id }, body: ids ? { ids } : {} }),
  discard: (tenantId: string, id: string, ids?: string[]) =>
    call(R.discardDeadLetters, { params: { tenant_id: tenantId, id }, body: ids ? { ids } : {} }),
  /** The pickers of the rule form: the tenant's groups (first 100) and labels. */
  groups: (tenantId: string, signal?: AbortSignal) =>
    call(Routes.groups.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 100 }, signal }),
  labels: (tenantId: string, signal?: AbortSignal) => call(Routes.labels.batch, { params: { tenant_id: tenantId }, query: {}, signal }),
  /** The tenant's transform plugins (first 100), for the rule form. */
  transformPlugins: (tenantId: string, signal?: AbortSignal) =>
    call(Routes.plugins.list, { params: { tenant_id: tenantId }, query: { current_page: 1, page_size: 100, type: 'transform' }, signal }),
};

export const forwardKeys = {
  all: ['forward'] as const,
  list: (tenantId: string | null, q: PageQuery) => [...forwardKeys.all, 'list', tenantId, q] as const,
  deadLetters: (tenantId: string | null, id: string, q: { current_page: number; page_size: number }) =>
    [...forwardKeys.all, 'dead', tenantId, id, q] as const,
  pickers: (tenantId: string | null) => [...forwardKeys.all, 'pickers', tenantId] as const,
};

/** The rule list, read again every 5 s so that the counters move while the page is open. */
export const forwardListQuery = (tenantId: string | null, q: PageQuery) =>
  queryOptions({
    queryKey: forwardKeys.list(tenantId, q),
    queryFn: ({ signal }) => forwardApi.list(tenantId as string, q, signal),
    enabled: Boolean(tenantId),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
