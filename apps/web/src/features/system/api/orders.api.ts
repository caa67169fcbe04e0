import { type RouteQuery, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { buildUrl, call } from '../../../api/client.ts';
import { getToken } from '../../../api/session-storage.ts';

const O = Routes.orders;

/** Every tenant's orders, for the system manager who confirms transfers (docs/billing.md). */
export const ordersAdminApi = {
  list: (query: RouteQuery<typeof O.listAll>, signal?: AbortSignal) => call(O.listAll, { query, signal }),
  confirm: (id: string, trade_no: string, remark: string) => call(O.confirm, { params: { id }, body: { trade_no, remark } }),
  reject: (id: string, remark: string) => call(O.reject, { params: { id }, body: { remark } }),
  refund: (id: string, remark: string) => call(O.refund, { params: { id }, body: { remark } }),
  /** The receipt as an object URL (the route needs the bearer token); the caller revokes it. */
  receiptUrl: async (id: string): Promise<string> => {
    const res = await fetch(buildUrl(routePath(O.receiptAny, { id })), { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
    if (!res.ok) throw new Error(`receipt ${res.status}`);
    return URL.createObjectURL(await res.blob());
  },
};
