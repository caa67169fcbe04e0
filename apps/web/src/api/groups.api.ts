import { GroupRoutes } from '@loggerhead/contract/routes/org.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './client.ts';

/**
 * The tenant's device groups to pick one as a target or a filter (the device list, its export);
 * the groups screen itself keeps its own paged calls.
 */
export const groupPickQuery = (tenantId: string | null, enabled = true) =>
  queryOptions({
    queryKey: ['groups', 'pick', tenantId] as const,
    queryFn: async ({ signal }) =>
      (await call(GroupRoutes.list, { params: { tenant_id: tenantId as string }, query: { current_page: 1, page_size: 100 }, signal }))
        .list,
    enabled: Boolean(tenantId) && enabled,
    staleTime: 30_000,
  });
