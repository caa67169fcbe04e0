import type { WorkOrderListQuery } from '@loggerhead/contract/schemas/workorder.ts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type Side, workOrderApi } from './workorder.api.ts';

export const workOrderKeys = {
  all: ['workorder'] as const,
  lists: () => [...workOrderKeys.all, 'list'] as const,
  list: (side: Side, tenantId: string | null, q: WorkOrderListQuery) => [...workOrderKeys.lists(), side, tenantId, q] as const,
  details: () => [...workOrderKeys.all, 'detail'] as const,
  detail: (side: Side, id: string) => [...workOrderKeys.details(), side, id] as const,
};

export const workOrderListQuery = (side: Side, tenantId: string | null, q: WorkOrderListQuery) =>
  queryOptions({
    queryKey: workOrderKeys.list(side, tenantId, q),
    queryFn: ({ signal }) => workOrderApi.list(side, tenantId ?? '', q, signal),
    enabled: side === 'handler' || Boolean(tenantId),
    placeholderData: keepPreviousData,
  });

export const workOrderQuery = (side: Side, tenantId: string | null, id: string) =>
  queryOptions({
    queryKey: workOrderKeys.detail(side, id),
    queryFn: ({ signal }) => workOrderApi.get(side, tenantId ?? '', id, signal),
    enabled: Boolean(id) && (side === 'handler' || Boolean(tenantId)),
    meta: { silent: true },
  });
