import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';

const F = Routes.functionBlocks;
const M = Routes.infoModels;
const T = Routes.twin;
const R = Routes.twinRules;
const tenant = (tenantId: string) => ({ tenant_id: tenantId });
const thing = (tenantId: string, thingsId: string) => ({ tenant_id: tenantId, things_id: thingsId });

export type FunctionBlockBody = RouteBody<typeof F.create>;
export type InfoModelBody = RouteBody<typeof M.create>;
export type TwinRuleBody = RouteBody<typeof R.create>;

/** Function blocks, info models, a device's twin and model events (decisions 0123, 0124). */
export const modelApi = {
  blocks: (tenantId: string, signal?: AbortSignal) =>
    call(F.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 100 }, signal }),
  publicBlocks: (signal?: AbortSignal) => call(F.listPublic, { query: { current_page: 1, page_size: 100 }, signal }),
  createBlock: (tenantId: string, body: FunctionBlockBody) => call(F.create, { params: tenant(tenantId), body }),
  updateBlock: (tenantId: string, id: string, body: FunctionBlockBody) => call(F.update, { params: { ...tenant(tenantId), id }, body }),
  removeBlock: (tenantId: string, id: string) => call(F.remove, { params: { ...tenant(tenantId), id } }),
  models: (tenantId: string, signal?: AbortSignal) =>
    call(M.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 100 }, signal }),
  publicModels: (signal?: AbortSignal) => call(M.listPublic, { query: { current_page: 1, page_size: 100 }, signal }),
  createModel: (tenantId: string, body: InfoModelBody) => call(M.create, { params: tenant(tenantId), body }),
  removeModel: (tenantId: string, id: string, force: boolean) =>
    call(M.remove, { params: { ...tenant(tenantId), info_model_id: id }, query: { force: force ? 'true' : 'false' } }),
  modelBlocks: (tenantId: string, id: string, signal?: AbortSignal) =>
    call(M.blocks, { params: { ...tenant(tenantId), info_model_id: id }, signal }),
  twin: (tenantId: string, thingsId: string, signal?: AbortSignal) => call(T.get, { params: thing(tenantId, thingsId), signal }),
  setDesired: (tenantId: string, thingsId: string, desired: Record<string, unknown>) =>
    call(T.setDesired, { params: thing(tenantId, thingsId), body: { desired } }),
  events: (tenantId: string, thingsId: string, signal?: AbortSignal) =>
    call(T.events, { params: thing(tenantId, thingsId), query: { current_page: 1, page_size: 50 }, signal }),
  rules: (tenantId: string, signal?: AbortSignal) =>
    call(R.list, { params: tenant(tenantId), query: { current_page: 1, page_size: 100 }, signal }),
  createRule: (tenantId: string, body: TwinRuleBody) => call(R.create, { params: tenant(tenantId), body }),
  updateRule: (tenantId: string, id: string, body: TwinRuleBody) => call(R.update, { params: { ...tenant(tenantId), id }, body }),
  removeRule: (tenantId: string, id: string) => call(R.remove, { params: { ...tenant(tenantId), id } }),
  setRuleStatus: (tenantId: string, id: string, status: 0 | 1) =>
    call(R.setStatus, { params: { ...tenant(tenantId), id }, body: { status } }),
  fires: (tenantId: string, signal?: AbortSignal) =>
    call(R.fires, { params: tenant(tenantId), query: { current_page: 1, page_size: 20 }, signal }),
  operate: (tenantId: string, thingsId: string, operation: string, params: Record<string, unknown>) =>
    call(Routes.command.issue, { params: thing(tenantId, thingsId), body: { operation_name: operation, operation_params: params } }),
};

export const modelKeys = {
  all: ['model'] as const,
  blocks: (tenantId: string | null) => [...modelKeys.all, 'blocks', tenantId] as const,
  publicBlocks: () => [...modelKeys.all, 'public-blocks'] as const,
  models: (tenantId: string | null) => [...modelKeys.all, 'models', tenantId] as const,
  publicModels: () => [...modelKeys.all, 'public-models'] as const,
  modelBlocks: (tenantId: string | null, id: string) => [...modelKeys.all, 'model-blocks', tenantId, id] as const,
  twin: (tenantId: string | null, thingsId: string) => [...modelKeys.all, 'twin', tenantId, thingsId] as const,
  events: (tenantId: string | null, thingsId: string) => [...modelKeys.all, 'events', tenantId, thingsId] as const,
  rules: (tenantId: string | null) => [...modelKeys.all, 'twin-rules', tenantId] as const,
  fires: (tenantId: string | null) => [...modelKeys.all, 'twin-rule-fires', tenantId] as const,
};

export const blocksQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: modelKeys.blocks(tenantId),
    queryFn: ({ signal }) => modelApi.blocks(tenantId as string, signal),
    enabled: !!tenantId,
  });
export const publicBlocksQuery = () =>
  queryOptions({ queryKey: modelKeys.publicBlocks(), queryFn: ({ signal }) => modelApi.publicBlocks(signal) });
export const modelsQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: modelKeys.models(tenantId),
    queryFn: ({ signal }) => modelApi.models(tenantId as string, signal),
    enabled: !!tenantId,
  });
export const publicModelsQuery = () =>
  queryOptions({ queryKey: modelKeys.publicModels(), queryFn: ({ signal }) => modelApi.publicModels(signal) });
export const modelBlocksQuery = (tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: modelKeys.modelBlocks(tenantId, id),
    queryFn: ({ signal }) => modelApi.modelBlocks(tenantId as string, id, signal),
    enabled: !!tenantId && !!id,
  });
/** The twin, read again every 2 s: the properties table is live. */
export const twinQuery = (tenantId: string | null, thingsId: string) =>
  queryOptions({
    queryKey: modelKeys.twin(tenantId, thingsId),
    queryFn: ({ signal }) => modelApi.twin(tenantId as string, thingsId, signal),
    enabled: !!tenantId && !!thingsId,
    refetchInterval: 2000,
  });
export const eventsQuery = (tenantId: string | null, thingsId: string) =>
  queryOptions({
    queryKey: modelKeys.events(tenantId, thingsId),
    queryFn: ({ signal }) => modelApi.events(tenantId as string, thingsId, signal),
    enabled: !!tenantId && !!thingsId,
    refetchInterval: 5000,
  });
export const twinRulesQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: modelKeys.rules(tenantId),
    queryFn: ({ signal }) => modelApi.rules(tenantId as string, signal),
    enabled: !!tenantId,
  });
/** The latest fires, read again every 3 s (and the rules' counters with them). */
export const twinRuleFiresQuery = (tenantId: string | null) =>
  queryOptions({
    queryKey: modelKeys.fires(tenantId),
    queryFn: ({ signal }) => modelApi.fires(tenantId as string, signal),
    enabled: !!tenantId,
    refetchInterval: 3000,
  });
