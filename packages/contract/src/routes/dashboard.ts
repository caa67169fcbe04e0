import { z } from 'zod';
import { UuidSchema } from '../schemas/common.ts';
import {
  CreateDashboardRequestSchema,
  DashboardListQuerySchema,
  DashboardSchema,
  PanelBodySchema,
  PanelOrderSchema,
  PanelSchema,
  PanelValuesSchema,
} from '../schemas/dashboard.ts';
import { defineRoute, TenantParams } from './define.ts';

const dashboards = '/data-mgmt/tenants/:tenant_id/dashboards';
const panels = `${dashboards}/:dashboard_id/panels` as const;
const DashboardParams = TenantParams.extend({ dashboard_id: UuidSchema });
const PanelParams = DashboardParams.extend({ id: UuidSchema });
const PanelList = z.object({ list: z.array(PanelSchema) });

/** Dashboards and their panels (spec §7 data service "dashboards and panels"). */
export const DashboardRoutes = {
  /** The tenant's dashboards of a business type (at login: its default dashboard). */
  list: defineRoute({
    method: 'GET',
    path: dashboards,
    params: TenantParams,
    query: DashboardListQuerySchema,
    response: z.object({ list: z.array(DashboardSchema) }),
    signedIn: true,
  }),
  create: defineRoute({
    method: 'POST',
    path: dashboards,
    params: TenantParams,
    body: CreateDashboardRequestSchema,
    response: DashboardSchema,
    status: 201,
    permission: 'data-mgmt:dashboard:create',
  }),

  panels: defineRoute({
    method: 'GET',
    path: panels,
    params: DashboardParams,
    response: PanelList,
    permission: 'data-mgmt:dashboard:query',
  }),
  createPanel: defineRoute({
    method: 'POST',
    path: panels,
    params: DashboardParams,
    body: PanelBodySchema,
    response: PanelSchema,
    status: 201,
    permission: 'data-mgmt:dashboard:create',
  }),
  /** The given panels in the given order (they take the places they held between them). */
  reorderPanels: defineRoute({
    method: 'PUT',
    path: `${panels}/order`,
    params: DashboardParams,
    body: PanelOrderSchema,
    response: PanelList,
    permission: 'data-mgmt:dashboard:update',
  }),
  panel: defineRoute({
    method: 'GET',
    path: `${panels}/:id`,
    params: PanelParams,
    response: PanelSchema,
    permission: 'data-mgmt:dashboard:query',
  }),
  updatePanel: defineRoute({
    method: 'PUT',
    path: `${panels}/:id`,
    params: PanelParams,
    body: PanelBodySchema,
    response: PanelSchema,
    permission: 'data-mgmt:dashboard:update',
  }),
  /** 204. */
  removePanel: defineRoute({
    method: 'DELETE',
    path: `${panels}/:id`,
    params: PanelParams,
    permission: 'data-mgmt:dashboard:delete',
  }),
  /** Latest value of each signal of a panel, with unit, time and the DBC's range. */
  panelValues: defineRoute({
    method: 'GET',
    path: `${panels}/:id/values`,
    params: PanelParams,
    response: PanelValuesSchema,
    permission: 'data-mgmt:dashboard:query',
  }),
};
