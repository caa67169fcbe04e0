import type { AppContext, LoggerheadApp } from '../../app.ts';
import { buildWorkOrderService } from '../workorder/workorder.module.ts';
import { billingRoutes } from './billing.routes.ts';
import { capacityService } from './capacity.service.ts';
import { catalogueRepository } from './catalogue.repository.ts';
import { catalogueService } from './catalogue.service.ts';
import { ordersRepository } from './orders.repository.ts';
import { ordersRoutes } from './orders.routes.ts';
import { ORDER_SWEEP, ordersService } from './orders.service.ts';
import { bankTransfer } from './payment.ts';

export function billingModule(app: LoggerheadApp, ctx: AppContext) {
  const workOrders = buildWorkOrderService(ctx, ctx.packages.applyCapacity);
  billingRoutes(app, { packages: ctx.packages, usage: ctx.usage, capacity: capacityService(ctx.packages, workOrders) });
  const orders = buildOrdersService(ctx, undefined, app.log);
  // Paid orders start, and running ones end, at their times: once a minute across all server copies.
  ctx.scheduler?.every(ORDER_SWEEP, '* * * * *', async () => {
    await orders.settle(new Date());
  });
  ordersRoutes(app, { catalogue: catalogueService(catalogueRepository(ctx.database.raw)), orders });
}

/** The order service on the shared context (the routes, the sweep, and tests that move the clock). */
export function buildOrdersService(ctx: AppContext, now?: () => number, log?: LoggerheadApp['log']) {
  const raw = ctx.database.raw;
  return ordersService({
    raw,
    repo: ordersRepository(raw),
    catalogue: catalogueRepository(raw),
    packages: ctx.packages,
    files: ctx.files,
    events: ctx.events,
    providers: [bankTransfer(ctx.config.bankAccount)],
    now,
    log,
  });
}
