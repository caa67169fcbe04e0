import type { Thing, ThingPageSchema, Vehicle, VehicleCreate, VehiclePageSchema } from '@loggerhead/contract/schemas/things.ts';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';

export type VehiclePage = z.infer<typeof VehiclePageSchema>;
type ThingPage = z.infer<typeof ThingPageSchema>;
export type VehicleInput = Omit<VehicleCreate, 'channels'> & { channels: VehicleCreate['channels'] };

const base = (tenantId: string) => `/things/tenants/${encodeURIComponent(tenantId)}`;

/** Vehicles (CarManager) and the device picker they bind channels from. */
export const carApi = {
  list: (tenantId: string, q: { current_page: number; page_size: number; keyword?: string }, signal?: AbortSignal) =>
    api.get<VehiclePage>(`${base(tenantId)}/vehicles`, { signal, query: { ...q }, permission: 'car:car:query' }),
  get: (tenantId: string, id: string, signal?: AbortSignal) =>
    api.get<Vehicle>(`${base(tenantId)}/vehicles/${encodeURIComponent(id)}`, { signal, permission: 'car:car:query' }),
  create: (tenantId: string, body: VehicleInput) => api.post<Vehicle>(`${base(tenantId)}/vehicles`, body, { permission: 'car:car:create' }),
  update: (tenantId: string, id: string, body: VehicleInput) =>
    api.put<Vehicle>(`${base(tenantId)}/vehicles/${encodeURIComponent(id)}`, body, { permission: 'car:car:update' }),
  remove: (tenantId: string, id: string) =>
    api.delete<void>(`${base(tenantId)}/vehicles/${encodeURIComponent(id)}`, { permission: 'car:car:delete' }),
  /** Spec §7: the device picker lists things with page size 9999. */
  devices: async (tenantId: string, signal?: AbortSignal): Promise<Thing[]> =>
    (
      await api.get<ThingPage>(`${base(tenantId)}/things`, {
        signal,
        query: { current_page: 1, page_size: 9999, order_param: 'name', order_type: 0 },
        permission: 'things:things:page',
      })
    ).list,
};
