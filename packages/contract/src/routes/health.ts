import { HealthSchema } from '../schemas/health.ts';
import { defineRoute } from './define.ts';

/** The health check load balancers call: the database and the broker, up or down. */
export const HealthRoutes = {
  /** 200 when both are up, 503 (same body) when either is down. */
  get: defineRoute({
    method: 'GET',
    path: '/health',
    response: HealthSchema,
    public: true,
  }),
};
