import { z } from 'zod';
import { UuidSchema } from '../schemas/common.ts';
import {
  CatalogueInputSchema,
  CataloguePackageSchema,
  CatalogueQuerySchema,
  ContentItemInputSchema,
  ContentItemSchema,
  CouponInputSchema,
  CouponSchema,
  OrderAllQuerySchema,
  OrderConfirmSchema,
  OrderInputSchema,
  OrderPageSchema,
  OrderPaySchema,
  OrderQuerySchema,
  OrderQuoteSchema,
  OrderRemarkSchema,
  OrderSchema,
  StageDiscountInputSchema,
  StageDiscountSchema,
} from '../schemas/orders.ts';
import { defineRoute, IdParams, TenantParams } from './define.ts';

/**
 * The billing catalogue (spec §3 packages for sale with their contents, content items, stage
 * discounts, coupons): read by every signed-in user (the buy screen), written by system managers.
 */
export const CatalogueRoutes = {
  /** Packages on sale; `all=1` also the withdrawn ones (system managers). */
  packages: defineRoute({
    method: 'GET',
    path: '/billing/packages',
    query: CatalogueQuerySchema,
    response: z.array(CataloguePackageSchema),
    signedIn: true,
  }),
  createPackage: defineRoute({
    method: 'POST',
    path: '/billing/packages',
    body: CatalogueInputSchema,
    response: CataloguePackageSchema,
    status: 201,
    permission: 'billing:catalogue:update',
  }),
  updatePackage: defineRoute({
    method: 'PUT',
    path: '/billing/packages/:id',
    params: IdParams,
    body: CatalogueInputSchema,
    response: CataloguePackageSchema,
    permission: 'billing:catalogue:update',
  }),
  removePackage: defineRoute({ method: 'DELETE', path: '/billing/packages/:id', params: IdParams, permission: 'billing:catalogue:update' }),
  items: defineRoute({ method: 'GET', path: '/billing/content-items', response: z.array(ContentItemSchema), signedIn: true }),
  /** Creates the item of a field, or replaces it. */
  saveItem: defineRoute({
    method: 'PUT',
    path: '/billing/content-items',
    body: ContentItemInputSchema,
    response: ContentItemSchema,
    permission: 'billing:catalogue:update',
  }),
  removeItem: defineRoute({
    method: 'DELETE',
    path: '/billing/content-items/:id',
    params: IdParams,
    permission: 'billing:catalogue:update',
  }),
  discounts: defineRoute({ method: 'GET', path: '/billing/stage-discounts', response: z.array(StageDiscountSchema), signedIn: true }),
  createDiscount: defineRoute({
    method: 'POST',
    path: '/billing/stage-discounts',
    body: StageDiscountInputSchema,
    response: StageDiscountSchema,
    status: 201,
    permission: 'billing:catalogue:update',
  }),
  removeDiscount: defineRoute({
    method: 'DELETE',
    path: '/billing/stage-discounts/:id',
    params: IdParams,
    permission: 'billing:catalogue:update',
  }),
  coupons: defineRoute({ method: 'GET', path: '/billing/coupons', response: z.array(CouponSchema), permission: 'billing:coupon:query' }),
  createCoupon: defineRoute({
    method: 'POST',
    path: '/billing/coupons',
    body: CouponInputSchema,
    response: CouponSchema,
    status: 201,
    permission: 'billing:catalogue:update',
  }),
  removeCoupon: defineRoute({ method: 'DELETE', path: '/billing/coupons/:id', params: IdParams, permission: 'billing:catalogue:update' }),
};

const tenant = '/billing/tenants/:tenant_id/orders';
const OrderParams = TenantParams.extend({ id: UuidSchema });

/**
 * Orders (spec §3 order, §4 order actions: create, pay, cancel, refund, upload receipt): the tenant
 * manager buys; a system manager confirms the bank transfer from its receipt, rejects it, or refunds.
 */
export const OrderRoutes = {
  /** The price of an order, without making it. */
  quote: defineRoute({
    method: 'POST',
    path: `${tenant}/quote`,
    params: TenantParams,
    body: OrderInputSchema,
    response: OrderQuoteSchema,
    permission: 'billing:order:create',
  }),
  create: defineRoute({
    method: 'POST',
    path: tenant,
    params: TenantParams,
    body: OrderInputSchema,
    response: OrderSchema,
    status: 201,
    permission: 'billing:order:create',
  }),
  list: defineRoute({
    method: 'GET',
    path: tenant,
    params: TenantParams,
    query: OrderQuerySchema,
    response: OrderPageSchema,
    permission: 'billing:order:query',
  }),
  get: defineRoute({ method: 'GET', path: `${tenant}/:id`, params: OrderParams, response: OrderSchema, permission: 'billing:order:query' }),
  /** Starts paying: the payment's instructions (for a bank transfer: the account and the reference). */
  pay: defineRoute({
    method: 'POST',
    path: `${tenant}/:id/pay`,
    params: OrderParams,
    response: OrderPaySchema,
    permission: 'billing:order:pay',
  }),
  /** Body: the receipt as a multipart file. */
  uploadReceipt: defineRoute({
    method: 'POST',
    path: `${tenant}/:id/receipt`,
    params: OrderParams,
    response: OrderSchema,
    permission: 'billing:order:pay',
  }),
  /** The receipt itself (no JSON answer). */
  receipt: defineRoute({ method: 'GET', path: `${tenant}/:id/receipt`, params: OrderParams, permission: 'billing:order:query' }),
  cancel: defineRoute({
    method: 'POST',
    path: `${tenant}/:id/cancel`,
    params: OrderParams,
    response: OrderSchema,
    permission: 'billing:order:cancel',
  }),

  /** Every tenant's orders (system managers). */
  listAll: defineRoute({
    method: 'GET',
    path: '/billing/orders',
    query: OrderAllQuerySchema,
    response: OrderPageSchema,
    permission: 'billing:order:handle',
  }),
  receiptAny: defineRoute({ method: 'GET', path: '/billing/orders/:id/receipt', params: IdParams, permission: 'billing:order:handle' }),
  /** The transfer arrived: the order is paid, and applies at its start time. */
  confirm: defineRoute({
    method: 'POST',
    path: '/billing/orders/:id/confirm',
    params: IdParams,
    body: OrderConfirmSchema,
    response: OrderSchema,
    permission: 'billing:order:handle',
  }),
  /** The receipt does not show the payment: the order waits for another one. */
  reject: defineRoute({
    method: 'POST',
    path: '/billing/orders/:id/reject',
    params: IdParams,
    body: OrderRemarkSchema,
    response: OrderSchema,
    permission: 'billing:order:handle',
  }),
  /** Money returned: a running order ends now and its package falls back. */
  refund: defineRoute({
    method: 'POST',
    path: '/billing/orders/:id/refund',
    params: IdParams,
    body: OrderRemarkSchema,
    response: OrderSchema,
    permission: 'billing:order:handle',
  }),
};
