import { HealthSchema } from '../schemas/health.ts';
import { defineRoute } from './define.ts';

/** The health check load balancers call: the database and the broker, up or down (and, with `MQTT_DYNSEC`, whether the broker keeps the device accounts). */
export const HealthRoutes = {
  /** 200 when all are up, 503 (same body) when one is down or the broker refuses the accounts commands. */
  get: defineRoute({
    method: 'GET',
    path: '/health',
    response: HealthSchema,
    public: true,
  }),
};
