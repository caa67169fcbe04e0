import type { AppContext, LoggerheadApp } from '../../app.ts';
import { buildWorkOrderService } from '../workorder/workorder.module.ts';
import { billingRoutes } from './billing.routes.ts';
import { capacityService } from './capacity.service.ts';

export function billingModule(app: LoggerheadApp, ctx: AppContext) {
  const workOrders = buildWorkOrderService(ctx, ctx.packages.applyCapacity);
  billingRoutes(app, { packages: ctx.packages, usage: ctx.usage, capacity: capacityService(ctx.packages, workOrders) });
}
