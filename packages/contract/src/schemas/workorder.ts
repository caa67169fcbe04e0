import { z } from 'zod';
import { PageQuerySchema, pageOf } from './common.ts';

/** Spec §4 work order statuses. */
export const WORK_ORDER_STATUSES = ['pending', 'process', 'wait', 'done', 'abandon', 'refuse'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

/** Who may make a transition: the tenant side (the initiator or its tenant manager) or a system manager. */
export type WorkOrderActor = 'initiator' | 'handler';

/**
 * Every allowed transition; anything else is refused with `workorder.bad-transition`.
 * The web shows the buttons of the transitions open to the viewer.
 */
export const WORK_ORDER_TRANSITIONS: readonly { from: WorkOrderStatus; to: WorkOrderStatus; by: WorkOrderActor }[] = [
  { from: 'pending', to: 'abandon', by: 'initiator' },
  { from: 'pending', to: 'process', by: 'handler' },
  { from: 'pending', to: 'refuse', by: 'handler' },
  { from: 'process', to: 'wait', by: 'handler' },
  { from: 'process', to: 'done', by: 'handler' },
  { from: 'process', to: 'refuse', by: 'handler' },
  { from: 'wait', to: 'process', by: 'initiator' },
  { from: 'wait', to: 'done', by: 'initiator' },
];

export function findTransition(from: WorkOrderStatus, to: WorkOrderStatus) {
  return WORK_ORDER_TRANSITIONS.find((t) => t.from === from && t.to === to);
}

/** `capacity` orders are made by the capacity request form, not by the work-order form. */
export const FEEDBACK_TYPES = ['question', 'fault', 'suggestion', 'capacity', 'other'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

export const WORK_ORDER_MAX_IMAGES = 5;
export const WORK_ORDER_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const WORK_ORDER_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const WorkOrderImageSchema = z.object({ id: z.string(), name: z.string(), size: z.number().int(), mime: z.string() });
export type WorkOrderImage = z.infer<typeof WorkOrderImageSchema>;

const Person = z.object({ id: z.string(), name: z.string() });

export const WorkOrderSchema = z
  .object({
    id: z.string(),
    identifier: z.string(),
    tenant_id: z.string(),
    tenant_name: z.string(),
    name: z.string(),
    feedback_type: z.enum(FEEDBACK_TYPES),
    belong_function: z.string(),
    phone: z.string(),
    description: z.string(),
    images: z.array(WorkOrderImageSchema),
    status: z.enum(WORK_ORDER_STATUSES),
    initiator: Person,
    handler: Person.nullable(),
    remark: z.string(),
    /** Capacity requests: the package values asked for. */
    capacity_request: z.record(z.string(), z.unknown()).nullable(),
    applied: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WorkOrder' });
export type WorkOrder = z.infer<typeof WorkOrderSchema>;

export const WorkOrderHistorySchema = z.object({
  from: z.enum(WORK_ORDER_STATUSES).nullable(),
  to: z.enum(WORK_ORDER_STATUSES),
  by: Person,
  remark: z.string(),
  at: z.string(),
});
export const WorkOrderDetailSchema = WorkOrderSchema.extend({ history: z.array(WorkOrderHistorySchema) });
export type WorkOrderDetail = z.infer<typeof WorkOrderDetailSchema>;

export const WorkOrderCreateSchema = z.object({
  name: z.string().trim().min(1).max(64),
  feedback_type: z.enum(FEEDBACK_TYPES).exclude(['capacity']),
  belong_function: z.string().trim().max(64).default(''),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{3,19}$/, 'phone: 4-20 digits'),
  description: z.string().trim().min(1).max(2000),
  images: z.array(z.uuid()).max(WORK_ORDER_MAX_IMAGES).default([]),
});
export type WorkOrderCreate = z.infer<typeof WorkOrderCreateSchema>;

export const WorkOrderListQuerySchema = PageQuerySchema.extend({
  status: z.enum(WORK_ORDER_STATUSES).optional(),
  feedback_type: z.enum(FEEDBACK_TYPES).optional(),
  name: z.string().max(64).optional(),
  /** Created at or after / before; epoch ms or ISO. */
  start_time: z.string().max(40).optional(),
  end_time: z.string().max(40).optional(),
  /** System side only: one tenant's orders. */
  tenant_id: z.uuid().optional(),
});
export type WorkOrderListQuery = z.infer<typeof WorkOrderListQuerySchema>;
export const WorkOrderPageSchema = pageOf(WorkOrderSchema);

export const WorkOrderStatusBodySchema = z.object({
  remark: z.string().trim().max(500).default(''),
  /** Handler only, capacity requests: apply the requested values to the package. */
  apply: z.boolean().default(false),
});
export type WorkOrderStatusBody = z.infer<typeof WorkOrderStatusBodySchema>;

/** While an order is being handled (or waits for the initiator), either side may write to the other. */
export const WORK_ORDER_REPLY_STATUSES: readonly WorkOrderStatus[] = ['process', 'wait'];

/** A reply: a history entry that keeps the status (`from` = `to`). */
export const WorkOrderReplySchema = z.object({
  remark: z.string().trim().min(1, 'remark: required').max(500, 'remark: at most 500 characters'),
});
export type WorkOrderReply = z.infer<typeof WorkOrderReplySchema>;
