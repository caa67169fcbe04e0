import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const E = Routes.edgeRules;
const M = Routes.mappingRules;
const N = Routes.mappingEntities;
const tenant = (tenantId: string) => ({ tenant_id: tenantId });

export type EdgeRuleBody = RouteBody<typeof E.create>;
export type EdgeIssueBody = RouteBody<typeof E.issue>;
export type MappingRuleBody = RouteBody<typeof M.create>;
export type EntityBody = RouteBody<typeof N.create>;

/** Edge-computing rules with their issuances (decision 0155) and mapping rules (decision 0156). */
export const rulesApi = {
  edgeRules: (tenantId: string, signal?: AbortSignal) =>
    call(E.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 100 }, signal }),
  createEdge: (tenantId: string, body: EdgeRuleBody) => call(E.create, { params: tenant(tenantId), body }),
  updateEdge: (tenantId: string, id: string, body: EdgeRuleBody) => call(E.update, { params: { ...tenant(tenantId), id }, body }),
  removeEdge: (tenantId: string, id: string) => call(E.remove, { params: { ...tenant(tenantId), id } }),
  issue: (tenantId: string, id: string, body: EdgeIssueBody) => call(E.issue, { params: { ...tenant(tenantId), id }, body }),
  issuances: (tenantId: string, q: { current_page: number; page_size: number; rule_id?: string }, signal?: AbortSignal) =>
    call(E.issuances, { params: tenant(tenantId), query: q, signal }),
  modelDevices: (tenantId: string, modelId: string, signal?: AbortSignal) =>
    call(Routes.things.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 500, info_model_id: modelId }, signal }),
  mappingRules: (tenantId: string, signal?: AbortSignal) =>
    call(M.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 100 }, signal }),
  createMapping: (tenantId: string, body: MappingRuleBody) => call(M.create, { params: tenant(tenantId), body }),
  updateMapping: (tenantId: string, id: string, body: MappingRuleBody) => call(M.update, { params: { ...tenant(tenantId), id }, body }),
  removeMapping: (tenantId: string, id: string) => call(M.remove, { params: { ...tenant(tenantId), id } }),
  entities: (tenantId: string, signal?: AbortSignal) =>
    call(N.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 100 }, signal }),
  createEntity: (tenantId: string, body: EntityBody) => call(N.create, { params: tenant(tenantId), body }),
  updateEntity: (tenantId: string, id: string, body: EntityBody) => call(N.update, { params: { ...tenant(tenantId), id }, body }),
  removeEntity: (tenantId: string, id: string) => call(N.remove, { params: { ...tenant(tenantId), id } }),
};

export const rulesKeys = {
  all: ['device-rules'] as const,
  edge: (tenantId: string | null) => [...rulesKeys.all, 'edge', tenantId] as const,
  issuances: (tenantId: string | null, ruleId: string | undefined, page: number, size: number) =>
    [...rulesKeys.all, 'issuances', tenantId, ruleId ?? null, page, size] as const,
  modelDevices: (tenantId: string | null, modelId: string) => [...rulesKeys.all, 'model-devices', tenantId, modelId] as const,
  mapping: (tenantId: string | null) => [...rulesKeys.all, 'mapping', tenantId] as const,
  entities: (tenantId: string | null) => [...rulesKeys.all, 'entities', tenantId] as const,
};

export const edgeRulesQuery = (tenantId: string) =>
  queryOptions({
    queryKey: rulesKeys.edge(tenantId),
    queryFn: ({ signal }) => rulesApi.edgeRules(tenantId, signal),
    refetchInterval: 3000,
  });
/** The issuance history, read again every 2 s: a device's answer shows as it comes. */
export const issuancesQuery = (tenantId: string, ruleId: string | undefined, page: number, size: number) =>
  queryOptions({
    queryKey: rulesKeys.issuances(tenantId, ruleId, page, size),
    queryFn: ({ signal }) => rulesApi.issuances(tenantId, { current_page: page, page_size: size, rule_id: ruleId }, signal),
    refetchInterval: 2000,
  });
export const modelDevicesQuery = (tenantId: string, modelId: string) =>
  queryOptions({
    queryKey: rulesKeys.modelDevices(tenantId, modelId),
    queryFn: ({ signal }) => rulesApi.modelDevices(tenantId, modelId, signal),
    enabled: !!modelId,
  });
export const mappingRulesQuery = (tenantId: string) =>
  queryOptions({ queryKey: rulesKeys.mapping(tenantId), queryFn: ({ signal }) => rulesApi.mappingRules(tenantId, signal) });
export const entitiesQuery = (tenantId: string, enabled = true) =>
  queryOptions({ queryKey: rulesKeys.entities(tenantId), queryFn: ({ signal }) => rulesApi.entities(tenantId, signal), enabled });
