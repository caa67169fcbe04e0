import { HealthSchema } from '@loggerhead/contract';
import type { App } from '../../lib/fastify.ts';

export function healthRoutes(app: App, probe: { db: () => Promise<boolean>; broker: () => boolean; version: string }) {
  app.get(
    '/v1/health',
    { config: { public: true }, schema: { tags: ['health'], response: { 200: HealthSchema, 503: HealthSchema } } },
    async (_req, reply) => {
      const db = (await probe.db()) ? 'up' : 'down';
      const broker = probe.broker() ? 'up' : 'down';
      const ok = db === 'up' && broker === 'up';
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', db, broker, version: probe.version });
    },
  );
}
