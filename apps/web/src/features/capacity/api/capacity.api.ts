import { Timeouts } from '@loggerhead/contract/api.ts';
import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import type {
  CapacityRequest,
  TenantPackage,
  ThingUsagePageSchema,
  TpsRequest,
  TpsResponse,
  Usage,
} from '@loggerhead/contract/schemas/billing.ts';
import type { WorkOrderDetail } from '@loggerhead/contract/schemas/workorder.ts';
import type { z } from 'zod';
import { api, call } from '../../../api/client.ts';

export type ThingUsagePage = z.infer<typeof ThingUsagePageSchema>;
export interface DeviceRef {
  id: string;
  third_things_id: string;
  name: string;
  info_model_id: string;
  info_model_name: string;
}

const tenant = (id: string) => encodeURIComponent(id);

/** Capacity, package, TPS estimate and the capacity request (a work order of type capacity). */
export const capacityApi = {
  usage: (tenantId: string, signal?: AbortSignal) =>
    api.get<Usage>(`/data-mgmt/tenants/${tenant(tenantId)}/usage`, { signal, timeout: Timeouts.usage }),
  perDevice: (tenantId: string, q: { current_page: number; page_size: number }, signal?: AbortSignal) =>
    api.get<ThingUsagePage>(`/data-mgmt/tenants/${tenant(tenantId)}/usage/things`, { signal, query: q, timeout: Timeouts.usage }),
  package: (tenantId: string, signal?: AbortSignal) => api.get<TenantPackage>(`/billing/tenants/${tenant(tenantId)}/package`, { signal }),
  request: (tenantId: string, body: CapacityRequest) =>
    api.post<WorkOrderDetail>(`/billing/tenants/${tenant(tenantId)}/capacity-requests`, body, {
      permission: 'workorder:workorder:create',
    }),
  assessTps: (body: TpsRequest) => api.post<TpsResponse>('/billing/tools/assess-tps', body),
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
