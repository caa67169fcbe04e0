import type { AppContext, LoggerheadApp } from '../../app.ts';
import { workOrderImages } from './workorder.images.ts';
import { workOrderRepository } from './workorder.repository.ts';
import { workOrderRoutes } from './workorder.routes.ts';
import { type CapacityApplier, type WorkOrderService, workOrderService } from './workorder.service.ts';

/** The service from the shared context; billing passes how a capacity request changes the package. */
export function buildWorkOrderService(ctx: AppContext, applyCapacity?: CapacityApplier): WorkOrderService {
  const repo = workOrderRepository(ctx.database.raw);
  return workOrderService({
    raw: ctx.database.raw,
    repo,
    messages: ctx.messages,
    events: ctx.events,
    images: workOrderImages(ctx.files, repo),
    applyCapacity,
  });
}

export function workOrderModule(app: LoggerheadApp, ctx: AppContext) {
  workOrderRoutes(app, buildWorkOrderService(ctx, ctx.packages.applyCapacity));
}
