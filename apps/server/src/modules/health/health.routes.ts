import { HealthSchema, Routes } from '@loggerhead/contract';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';

export function healthRoutes(
  app: App,
  probe: { db: () => Promise<boolean>; broker: () => boolean; diskLow: () => boolean; version: string },
) {
  route(app, Routes.health.get, { tags: ['health'], errors: { 503: HealthSchema } }, async (_req, reply) => {
    const db = (await probe.db()) ? 'up' : 'down';
    const broker = probe.broker() ? 'up' : 'down';
    const disk = probe.diskLow() ? 'low' : 'ok';
    const ok = db === 'up' && broker === 'up' && disk === 'ok';
    // A 503 carries the same body (documented beside the route); the reply is typed from the table's 200.
    return reply.code((ok ? 200 : 503) as 200).send({ status: ok ? 'ok' : 'degraded', db, broker, disk, version: probe.version });
  });
}
