import type { Dashboard } from '@loggerhead/contract/schemas/dashboard.ts';
import { queryOptions } from '@tanstack/react-query';
import { sessionKeys } from '../../../session/session.queries.ts';
import { loadDefaultDashboard } from '../../../session/session.ts';
import type { SessionInfo } from '../../../session/use-session.ts';
import { dashboardApi } from './dashboard.api.ts';

/** How often a number or gauge panel asks for its latest value. */
export const VALUES_POLL_MS = 5_000;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  panels: (tenantId: string | null, dashboardId: string | null) => [...dashboardKeys.all, 'panels', tenantId, dashboardId] as const,
  values: (tenantId: string | null, dashboardId: string | null, panelId: string) =>
    [...dashboardKeys.panels(tenantId, dashboardId), 'values', panelId] as const,
  curve: (tenantId: string | null, panelId: string) => [...dashboardKeys.all, 'curve', tenantId, panelId] as const,
};

/**
 * The tenant's default dashboard: the one the login loaded, or (after a reload) the same look-up
 * again — found, or created when the user is the manager (spec §4, §6).
 */
export const defaultDashboardQuery = (session: Pick<SessionInfo, 'tenantId' | 'self' | 'privileges' | 'settled'>) =>
  queryOptions<Dashboard | null>({
    queryKey: sessionKeys.dashboard(),
    queryFn: () => loadDefaultDashboard(session.tenantId as string, session.self, session.privileges),
    enabled: Boolean(session.tenantId && session.settled),
    staleTime: 60_000,
  });

export const panelsQuery = (tenantId: string | null, dashboardId: string | null) =>
  queryOptions({
    queryKey: dashboardKeys.panels(tenantId, dashboardId),
    queryFn: ({ signal }) => dashboardApi.panels(tenantId as string, dashboardId as string, signal),
    enabled: Boolean(tenantId && dashboardId),
  });

export const panelValuesQuery = (tenantId: string | null, dashboardId: string | null, panelId: string) =>
  queryOptions({
    queryKey: dashboardKeys.values(tenantId, dashboardId, panelId),
    queryFn: ({ signal }) => dashboardApi.values(tenantId as string, dashboardId as string, panelId, signal),
    enabled: Boolean(tenantId && dashboardId),
    refetchInterval: VALUES_POLL_MS,
  });
