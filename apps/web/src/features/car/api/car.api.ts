import { type RouteBody, type RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { call } from '../../../api/client.ts';

const R = Routes.things;

export type VehiclePage = RouteResponse<typeof R.vehicles>;
export type VehicleInput = RouteBody<typeof R.createVehicle>;

/** Vehicles (CarManager) and the device picker they bind channels from. */
export const carApi = {
  list: (tenantId: string, q: { current_page: number; page_size: number; keyword?: string }, signal?: AbortSignal) =>
    call(R.vehicles, { params: { tenant_id: tenantId }, query: { ...q }, signal }),
  get: (tenantId: string, id: string, signal?: AbortSignal) => call(R.vehicle, { params: { tenant_id: tenantId, id }, signal }),
  create: (tenantId: string, body: VehicleInput) => call(R.createVehicle, { params: { tenant_id: tenantId }, body }),
  update: (tenantId: string, id: string, body: VehicleInput) => call(R.updateVehicle, { params: { tenant_id: tenantId, id }, body }),
  remove: (tenantId: string, id: string) => call(R.removeVehicle, { params: { tenant_id: tenantId, id } }),
  /** Spec §7: the device picker lists things with page size 9999. */
  devices: async (tenantId: string, signal?: AbortSignal): Promise<Thing[]> =>
    (
      await call(R.list, {
        params: { tenant_id: tenantId },
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        signal,
      })
    ).list,
};
