import { Timeouts } from '@loggerhead/contract/api.ts';
import { type RouteQuery, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const T = Routes.traffic;
const B = Routes.billing;

export type FlowQuery = RouteQuery<typeof T.flow>;
export type RankingQuery = RouteQuery<typeof T.ranking>;
export type Flow = RouteResponse<typeof T.flow>;
export type RankingPage = RouteResponse<typeof T.ranking>;
export type ThingUsagePage = RouteResponse<typeof B.usageByThing>;

/** Data usage (spec §7 /data-mgmt: tenant flow, ranking, usage). */
export const dataUsageApi = {
  flow: (tenantId: string, query: FlowQuery, signal?: AbortSignal) => call(T.flow, { params: { tenant_id: tenantId }, query, signal }),
  ranking: (tenantId: string, query: RankingQuery, signal?: AbortSignal) =>
    call(T.ranking, { params: { tenant_id: tenantId }, query, signal }),
  usage: (tenantId: string, signal?: AbortSignal) => call(B.usage, { params: { tenant_id: tenantId }, signal, timeout: Timeouts.usage }),
  perDevice: (tenantId: string, query: RouteQuery<typeof B.usageByThing>, signal?: AbortSignal) =>
    call(B.usageByThing, { params: { tenant_id: tenantId }, query, signal, timeout: Timeouts.usage }),
};

export const dataUsageKeys = {
  all: ['data-usage'] as const,
  flow: (tenantId: string | null, q: FlowQuery) => [...dataUsageKeys.all, 'flow', tenantId, q] as const,
  ranking: (tenantId: string | null, q: RankingQuery) => [...dataUsageKeys.all, 'ranking', tenantId, q] as const,
  usage: (tenantId: string | null) => [...dataUsageKeys.all, 'usage', tenantId] as const,
  perDevice: (tenantId: string | null, q: object) => [...dataUsageKeys.all, 'per-device', tenantId, q] as const,
};

export const flowQuery = (tenantId: string | null, q: FlowQuery, enabled: boolean) =>
  queryOptions({
    queryKey: dataUsageKeys.flow(tenantId, q),
    queryFn: ({ signal }) => dataUsageApi.flow(tenantId as string, q, signal),
    enabled: Boolean(tenantId) && enabled,
    placeholderData: keepPreviousData,
  });

export const rankingQuery = (tenantId: string | null, q: RankingQuery, enabled: boolean) =>
  queryOptions({
    queryKey: dataUsageKeys.ranking(tenantId, q),
    queryFn: ({ signal }) => dataUsageApi.ranking(tenantId as string, q, signal),
    enabled: Boolean(tenantId) && enabled,
    placeholderData: keepPreviousData,
  });
