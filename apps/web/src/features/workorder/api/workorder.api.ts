import { type RouteBody, type RouteResponse, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import type { WorkOrderListQuery, WorkOrderStatus } from '@loggerhead/contract/schemas/workorder.ts';
import { buildUrl, call } from '../../../api/client.ts';
import { getToken } from '../../../api/session-storage.ts';

const R = Routes.workorder;

export type WorkOrderPage = RouteResponse<typeof R.list>;
export type WorkOrderFilter = Omit<WorkOrderListQuery, 'current_page' | 'page_size'>;
/** The tenant side reads its own orders; a system manager (the handler side) reads every tenant's. */
export type Side = 'initiator' | 'handler';

/** Work orders (docs/workorders.md): tenant side and system side. */
export const workOrderApi = {
  list: (side: Side, tenantId: string, q: WorkOrderListQuery, signal?: AbortSignal) => {
    if (side === 'handler') return call(R.listAll, { query: { ...q }, signal });
    const { tenant_id: _all, ...own } = q;
    return call(R.list, { params: { tenant_id: tenantId }, query: own, signal });
  },
  get: (side: Side, tenantId: string, id: string, signal?: AbortSignal) =>
    side === 'handler' ? call(R.getAny, { params: { id }, signal }) : call(R.get, { params: { tenant_id: tenantId, id }, signal }),
  create: (tenantId: string, body: RouteBody<typeof R.create>) => call(R.create, { params: { tenant_id: tenantId }, body }),
  /** One transition; `apply` (handler, capacity requests) writes the requested values into the package. */
  move: (side: Side, tenantId: string, id: string, to: WorkOrderStatus, body: { remark: string; apply?: boolean }) =>
    side === 'handler'
      ? call(R.moveAny, { params: { id, status: to }, body })
      : call(R.move, { params: { tenant_id: tenantId, id, status: to }, body: { remark: body.remark } }),
  /** A reply to the other side while the order is being handled. */
  reply: (side: Side, tenantId: string, id: string, remark: string) =>
    side === 'handler'
      ? call(R.replyAny, { params: { id }, body: { remark } })
      : call(R.reply, { params: { tenant_id: tenantId, id }, body: { remark } }),
  uploadImage: (tenantId: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return call(R.uploadImage, { params: { tenant_id: tenantId }, body: form });
  },
  /**
   * An attached image as an object URL: the image routes need the bearer token, which an
   * <img src> cannot send. The caller revokes the URL when done.
   */
  imageUrl: async (side: Side, tenantId: string, imageId: string, signal?: AbortSignal): Promise<string> => {
    const path = side === 'handler' ? routePath(R.imageAny, { id: imageId }) : routePath(R.image, { tenant_id: tenantId, id: imageId });
    const res = await fetch(buildUrl(path), { headers: { authorization: `Bearer ${getToken() ?? ''}` }, signal });
    if (!res.ok) throw new Error(`image ${res.status}`);
    return URL.createObjectURL(await res.blob());
  },
};
