import { z } from 'zod';
import {
  WORK_ORDER_STATUSES,
  WorkOrderCreateSchema,
  WorkOrderDetailSchema,
  WorkOrderImageSchema,
  WorkOrderListQuerySchema,
  WorkOrderPageSchema,
  WorkOrderReplySchema,
  WorkOrderStatusBodySchema,
} from '../schemas/workorder.ts';
import { defineRoute, IdParams, TenantIdParams, TenantParams } from './define.ts';

const tenant = '/workorder/tenants/:tenant_id';
const all = '/workorder/work-orders';
const Status = z.enum(WORK_ORDER_STATUSES);
const StatusBody = WorkOrderStatusBodySchema.prefault({});

/**
 * Work orders (docs/workorders.md). Tenant side: create, list, detail, the initiator's status
 * changes and images. System side: every tenant's orders and the handler's status changes.
 */
export const WorkOrderRoutes = {
  /** Body: the image as a multipart file. */
  uploadImage: defineRoute({
    method: 'POST',
    path: `${tenant}/images`,
    params: TenantParams,
    response: WorkOrderImageSchema,
    status: 201,
    permission: 'workorder:workorder:create',
  }),
  /** The image itself (no JSON answer). */
  image: defineRoute({
    method: 'GET',
    path: `${tenant}/images/:id`,
    params: TenantIdParams,
    permission: 'workorder:workorder:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${tenant}/work-orders`,
    params: TenantParams,
    body: WorkOrderCreateSchema,
    response: WorkOrderDetailSchema,
    status: 201,
    permission: 'workorder:workorder:create',
  }),
  list: defineRoute({
    method: 'GET',
    path: `${tenant}/work-orders`,
    params: TenantParams,
    query: WorkOrderListQuerySchema.omit({ tenant_id: true }),
    response: WorkOrderPageSchema,
    permission: 'workorder:workorder:query',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${tenant}/work-orders/:id`,
    params: TenantIdParams,
    response: WorkOrderDetailSchema,
    permission: 'workorder:workorder:query',
  }),
  /** A transition by the initiator (or its tenant manager). */
  move: defineRoute({
    method: 'PUT',
    path: `${tenant}/work-orders/:id/status/:status`,
    params: TenantIdParams.extend({ status: Status }),
    body: StatusBody,
    response: WorkOrderDetailSchema,
    permission: 'workorder:workorder:create',
  }),
  /** A reply by the initiator (or its tenant manager) while the order is being handled. */
  reply: defineRoute({
    method: 'POST',
    path: `${tenant}/work-orders/:id/replies`,
    params: TenantIdParams,
    body: WorkOrderReplySchema,
    response: WorkOrderDetailSchema,
    status: 201,
    permission: 'workorder:workorder:create',
  }),

  listAll: defineRoute({
    method: 'GET',
    path: all,
    query: WorkOrderListQuerySchema,
    response: WorkOrderPageSchema,
    permission: 'workorder:workorder:handle',
  }),
  getAny: defineRoute({
    method: 'GET',
    path: `${all}/:id`,
    params: IdParams,
    response: WorkOrderDetailSchema,
    permission: 'workorder:workorder:handle',
  }),
  /** A transition by the handler; `apply` (capacity requests) writes the requested values into the package. */
  moveAny: defineRoute({
    method: 'PUT',
    path: `${all}/:id/status/:status`,
    params: IdParams.extend({ status: Status }),
    body: StatusBody,
    response: WorkOrderDetailSchema,
    permission: 'workorder:workorder:handle',
  }),
  /** A reply by the handler while the order is being handled. */
  replyAny: defineRoute({
    method: 'POST',
    path: `${all}/:id/replies`,
    params: IdParams,
    body: WorkOrderReplySchema,
    response: WorkOrderDetailSchema,
    status: 201,
    permission: 'workorder:workorder:handle',
  }),
  /** An image of any tenant's order (no JSON answer). */
  imageAny: defineRoute({
    method: 'GET',
    path: '/workorder/images/:id',
    params: IdParams,
    permission: 'workorder:workorder:handle',
  }),
};
