import { HealthSchema, Routes } from '@loggerhead/contract';
import type { LagReport } from '../../lib/event-loop-lag.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';

/**
 * The health check: database and broker up or down, the broker's device accounts, the free space of
 * DATA_DIR, and the event loop's delay (lib/event-loop-lag.ts).
 */
export function healthRoutes(
  app: App,
  probe: {
    db: () => Promise<boolean>;
    broker: () => boolean;
    accounts?: () => 'ok' | 'refused' | null;
    diskLow: () => boolean;
    version: string;
    lag: () => LagReport;
  },
) {
  route(app, Routes.health.get, { tags: ['health'], errors: { 503: HealthSchema } }, async (_req, reply) => {
    const db = (await probe.db()) ? 'up' : 'down';
    const broker = probe.broker() ? 'up' : 'down';
    const accounts = probe.accounts?.() ?? null;
    const disk = probe.diskLow() ? 'low' : 'ok';
    const ok = db === 'up' && broker === 'up' && accounts !== 'refused' && disk === 'ok';
    // A 503 carries the same body (documented beside the route); the reply is typed from the table's 200.
    return reply.code((ok ? 200 : 503) as 200).send({
      status: ok ? 'ok' : 'degraded',
      db,
      broker,
      ...(accounts ? { broker_accounts: accounts } : {}),
      disk,
      version: probe.version,
      event_loop: probe.lag(),
    });
  });
}
