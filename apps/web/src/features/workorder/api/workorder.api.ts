import type {
  WorkOrderCreate,
  WorkOrderDetail,
  WorkOrderImage,
  WorkOrderListQuery,
  WorkOrderPageSchema,
  WorkOrderStatus,
} from '@loggerhead/contract/schemas/workorder.ts';
import type { z } from 'zod';
import { api, buildUrl } from '../../../api/client.ts';
import { getToken } from '../../../api/session-storage.ts';

export type WorkOrderPage = z.infer<typeof WorkOrderPageSchema>;
export type WorkOrderFilter = Omit<WorkOrderListQuery, 'current_page' | 'page_size'>;
/** The tenant side reads its own orders; a system manager (the handler side) reads every tenant's. */
export type Side = 'initiator' | 'handler';

const tenantBase = (tenantId: string) => `/workorder/tenants/${encodeURIComponent(tenantId)}`;
const HANDLE = 'workorder:workorder:handle';

/** Work orders (docs/workorders.md): tenant side and system side. */
export const workOrderApi = {
  list: (side: Side, tenantId: string, q: WorkOrderListQuery, signal?: AbortSignal) =>
    side === 'handler'
      ? api.get<WorkOrderPage>('/workorder/work-orders', { signal, query: { ...q }, permission: HANDLE })
      : api.get<WorkOrderPage>(`${tenantBase(tenantId)}/work-orders`, {
          signal,
          query: { ...q, tenant_id: undefined },
          permission: 'workorder:workorder:query',
        }),
  get: (side: Side, tenantId: string, id: string, signal?: AbortSignal) =>
    side === 'handler'
      ? api.get<WorkOrderDetail>(`/workorder/work-orders/${encodeURIComponent(id)}`, { signal, permission: HANDLE })
      : api.get<WorkOrderDetail>(`${tenantBase(tenantId)}/work-orders/${encodeURIComponent(id)}`, {
          signal,
          permission: 'workorder:workorder:query',
        }),
  create: (tenantId: string, body: WorkOrderCreate) =>
    api.post<WorkOrderDetail>(`${tenantBase(tenantId)}/work-orders`, body, { permission: 'workorder:workorder:create' }),
  /** One transition; `apply` (handler, capacity requests) writes the requested values into the package. */
  move: (side: Side, tenantId: string, id: string, to: WorkOrderStatus, body: { remark: string; apply?: boolean }) =>
    side === 'handler'
      ? api.put<WorkOrderDetail>(`/workorder/work-orders/${encodeURIComponent(id)}/status/${to}`, body, { permission: HANDLE })
      : api.put<WorkOrderDetail>(
          `${tenantBase(tenantId)}/work-orders/${encodeURIComponent(id)}/status/${to}`,
          { remark: body.remark },
          { permission: 'workorder:workorder:create' },
        ),
  uploadImage: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return api.post<WorkOrderImage>(`${tenantBase(tenantId)}/images`, form, { permission: 'workorder:workorder:create' });
  },
  /**
   * An attached image as an object URL: the image routes need the bearer token, which an
   * <img src> cannot send. The caller revokes the URL when done.
   */
  imageUrl: async (side: Side, tenantId: string, imageId: string, signal?: AbortSignal): Promise<string> => {
    const path =
      side === 'handler'
        ? `/workorder/images/${encodeURIComponent(imageId)}`
        : `${tenantBase(tenantId)}/images/${encodeURIComponent(imageId)}`;
    const res = await fetch(buildUrl(path), { headers: { authorization: `Bearer ${getToken() ?? ''}` }, signal });
    if (!res.ok) throw new Error(`image ${res.status}`);
    return URL.createObjectURL(await res.blob());
  },
};
