import type { Panel, PanelBody, PanelValue } from '@loggerhead/contract/schemas/dashboard.ts';
import { api } from '../../../api/client.ts';

const panels = (tenantId: string, dashboardId: string) =>
  `/data-mgmt/tenants/${encodeURIComponent(tenantId)}/dashboards/${encodeURIComponent(dashboardId)}/panels`;
const one = (tenantId: string, dashboardId: string, id: string) => `${panels(tenantId, dashboardId)}/${encodeURIComponent(id)}`;

/** Panels of a dashboard (data service, spec §7 "dashboards and panels"). */
export const dashboardApi = {
  panels: async (tenantId: string, dashboardId: string, signal?: AbortSignal) =>
    (await api.get<{ list: Panel[] }>(panels(tenantId, dashboardId), { signal, permission: 'data-mgmt:dashboard:query' })).list,
  create: (tenantId: string, dashboardId: string, body: PanelBody) =>
    api.post<Panel>(panels(tenantId, dashboardId), body, { permission: 'data-mgmt:dashboard:create' }),
  update: (tenantId: string, dashboardId: string, id: string, body: PanelBody) =>
    api.put<Panel>(one(tenantId, dashboardId, id), body, { permission: 'data-mgmt:dashboard:update' }),
  remove: (tenantId: string, dashboardId: string, id: string) =>
    api.delete<void>(one(tenantId, dashboardId, id), { permission: 'data-mgmt:dashboard:delete' }),
  /** The given panels in the given order (they take the places they held between them). */
  reorder: async (tenantId: string, dashboardId: string, ids: string[]) =>
    (await api.put<{ list: Panel[] }>(`${panels(tenantId, dashboardId)}/order`, { ids }, { permission: 'data-mgmt:dashboard:update' }))
      .list,
  /** Latest value of each signal of a panel, with unit, time and the DBC's range. */
  values: async (tenantId: string, dashboardId: string, id: string, signal?: AbortSignal) =>
    (
      await api.get<{ list: PanelValue[] }>(`${one(tenantId, dashboardId, id)}/values`, {
        signal,
        permission: 'data-mgmt:dashboard:query',
      })
    ).list,
};
