import { Timeouts } from '@loggerhead/contract/api.ts';
import { type RouteBody, type RouteQuery, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const B = Routes.billing;

export type ThingUsagePage = RouteResponse<typeof B.usageByThing>;
export interface DeviceRef {
  id: string;
  third_things_id: string;
  name: string;
  info_model_id: string;
  info_model_name: string;
}

/** Capacity, package, TPS estimate and the capacity request (a work order of type capacity). */
export const capacityApi = {
  usage: (tenantId: string, signal?: AbortSignal) => call(B.usage, { params: { tenant_id: tenantId }, signal, timeout: Timeouts.usage }),
  perDevice: (tenantId: string, query: RouteQuery<typeof B.usageByThing>, signal?: AbortSignal) =>
    call(B.usageByThing, { params: { tenant_id: tenantId }, query, signal, timeout: Timeouts.usage }),
  package: (tenantId: string, signal?: AbortSignal) => call(B.tenantPackage, { params: { tenant_id: tenantId }, signal }),
  request: (tenantId: string, body: RouteBody<typeof B.requestCapacity>) =>
    call(B.requestCapacity, { params: { tenant_id: tenantId }, body }),
  /** The same form bought at once: a capacity order (type 2), paid by transfer on the orders screen. */
  order: (tenantId: string, body: RouteBody<typeof Routes.orders.create>) =>
    call(Routes.orders.create, { params: { tenant_id: tenantId }, body }),
  assessTps: (body: RouteBody<typeof B.assessTps>) => call(B.assessTps, { body }),
  /** Spec §7: the device picker lists things with page size 9999. */
  devices: async (tenantId: string, signal?: AbortSignal): Promise<DeviceRef[]> =>
    (
      await call(Routes.things.list, {
        params: { tenant_id: tenantId },
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        signal,
      })
    ).list,
  /** Spec §7 quick-delete task (tenant, delete_children 1, things_id) with the re-confirmed password. */
  quickDelete: (tenantId: string, body: RouteBody<typeof Routes.data.createQuickDelete>) =>
    call(Routes.data.createQuickDelete, { params: { tenant_id: tenantId }, body }),
  quickDeleteTask: (tenantId: string, id: string, signal?: AbortSignal) =>
    call(Routes.data.quickDelete, { params: { tenant_id: tenantId, id }, signal }),
};
