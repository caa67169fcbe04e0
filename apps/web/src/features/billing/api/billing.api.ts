import { type RouteBody, type RouteQuery, type RouteResponse, Routes, routePath } from '@loggerhead/contract/routes/index.ts';
import { buildUrl, call } from '../../../api/client.ts';
import { getToken } from '../../../api/session-storage.ts';

const C = Routes.catalogue;
const O = Routes.orders;

export type OrderPage = RouteResponse<typeof O.list>;
export type OrderBody = RouteBody<typeof O.create>;

/** The billing catalogue and the tenant's own orders (docs/billing.md). */
export const billingApi = {
  packages: (signal?: AbortSignal) => call(C.packages, { query: {}, signal }),
  discounts: (signal?: AbortSignal) => call(C.discounts, { signal }),
  quote: (tenantId: string, body: OrderBody) => call(O.quote, { params: { tenant_id: tenantId }, body }),
  create: (tenantId: string, body: OrderBody) => call(O.create, { params: { tenant_id: tenantId }, body }),
  list: (tenantId: string, query: RouteQuery<typeof O.list>, signal?: AbortSignal) =>
    call(O.list, { params: { tenant_id: tenantId }, query, signal }),
  pay: (tenantId: string, id: string) => call(O.pay, { params: { tenant_id: tenantId, id } }),
  cancel: (tenantId: string, id: string) => call(O.cancel, { params: { tenant_id: tenantId, id } }),
  uploadReceipt: (tenantId: string, id: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return call(O.uploadReceipt, { params: { tenant_id: tenantId, id }, body: form });
  },
  /** The receipt as an object URL (the route needs the bearer token); the caller revokes it. */
  receiptUrl: async (tenantId: string, id: string): Promise<string> => {
    const res = await fetch(buildUrl(routePath(O.receipt, { tenant_id: tenantId, id })), {
      headers: { authorization: `Bearer ${getToken() ?? ''}` },
    });
    if (!res.ok) throw new Error(`receipt ${res.status}`);
    return URL.createObjectURL(await res.blob());
  },
};

export const billingKeys = {
  all: ['billing'] as const,
  packages: () => [...billingKeys.all, 'packages'] as const,
  discounts: () => [...billingKeys.all, 'discounts'] as const,
  orders: (tenantId: string | null, page: number, size: number, state?: string) =>
    [...billingKeys.all, 'orders', tenantId, page, size, state ?? ''] as const,
};
