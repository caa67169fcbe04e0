import { WORK_ORDER_TRANSITIONS, type WorkOrderActor, type WorkOrderStatus } from '@loggerhead/contract/schemas/workorder.ts';

/** Statuses after which nothing can change (docs/workorders.md). */
export const FINAL_STATUSES: readonly WorkOrderStatus[] = ['done', 'abandon', 'refuse'];

/** The statuses the viewer's side may move an order to from `status`, in the contract's order. */
export function movesFor(status: WorkOrderStatus, side: WorkOrderActor): WorkOrderStatus[] {
  return WORK_ORDER_TRANSITIONS.filter((t) => t.from === status && t.by === side).map((t) => t.to);
}

/**
 * How a move is named on its button: the same target means different things from different
 * statuses (wait → process is the initiator reopening, pending → process the handler taking it).
 */
export function moveLabelKey(from: WorkOrderStatus, to: WorkOrderStatus): string {
  if (from === 'pending' && to === 'process') return 'workorder.move.take';
  if (from === 'wait' && to === 'process') return 'workorder.move.reopen';
  if (from === 'wait' && to === 'done') return 'workorder.move.confirm';
  if (to === 'abandon') return 'workorder.move.abandon';
  if (to === 'refuse') return 'workorder.move.refuse';
  if (to === 'wait') return 'workorder.move.answer';
  return 'workorder.move.finish';
}

/** A capacity request may be written into the package on the handler's move to wait or done. */
export function canApply(order: { feedback_type: string; applied: boolean }, to: WorkOrderStatus): boolean {
  return order.feedback_type === 'capacity' && !order.applied && (to === 'wait' || to === 'done');
}

export const STATUS_COLORS: Record<WorkOrderStatus, string> = {
  pending: 'gold',
  process: 'processing',
  wait: 'purple',
  done: 'success',
  abandon: 'default',
  refuse: 'error',
};
