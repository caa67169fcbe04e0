import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const R = Routes.dashboard;
const at = (tenantId: string, dashboardId: string) => ({ tenant_id: tenantId, dashboard_id: dashboardId });

/** Panels of a dashboard (data service, spec §7 "dashboards and panels"). */
export const dashboardApi = {
  panels: async (tenantId: string, dashboardId: string, signal?: AbortSignal) =>
    (await call(R.panels, { params: at(tenantId, dashboardId), signal })).list,
  create: (tenantId: string, dashboardId: string, body: RouteBody<typeof R.createPanel>) =>
    call(R.createPanel, { params: at(tenantId, dashboardId), body }),
  update: (tenantId: string, dashboardId: string, id: string, body: RouteBody<typeof R.updatePanel>) =>
    call(R.updatePanel, { params: { ...at(tenantId, dashboardId), id }, body }),
  remove: (tenantId: string, dashboardId: string, id: string) => call(R.removePanel, { params: { ...at(tenantId, dashboardId), id } }),
  /** The given panels in the given order (they take the places they held between them). */
  reorder: async (tenantId: string, dashboardId: string, ids: string[]) =>
    (await call(R.reorderPanels, { params: at(tenantId, dashboardId), body: { ids } })).list,
  /** Latest value of each signal of a panel, with unit, time and the DBC's range. */
  values: async (tenantId: string, dashboardId: string, id: string, signal?: AbortSignal) =>
    (await call(R.panelValues, { params: { ...at(tenantId, dashboardId), id }, signal })).list,
};
