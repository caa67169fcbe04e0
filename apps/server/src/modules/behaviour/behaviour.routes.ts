import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { route } from '../../lib/route.ts';
import { behaviourRepository } from './behaviour.repository.ts';
import { behaviourService } from './behaviour.service.ts';

const R = Routes.behaviour;
const withErrors = { tags: ['behaviour'], errors: { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 413: ErrorResponseSchema } };

/** 50 events of at most three 64-character names fit in well under this; a bigger post is refused (413). */
export const BEHAVIOUR_BODY_LIMIT = 32 * 1024;

/** User behaviour (spec §7 /out-wrapper): header clicks posted by the console, summarised for the system manager. */
export function behaviourRoutes(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  const behaviour = behaviourService(behaviourRepository(ctx.database.raw));
  route(app, R.record, { ...withErrors, bodyLimit: BEHAVIOUR_BODY_LIMIT }, (req) => behaviour.record(requireAuth(req.auth), req.body));
  route(app, R.summary, withErrors, (req) => behaviour.summary(req.query));
  // Old clicks are dropped every hour (decision 0166).
  runPeriodically(app, ctx, { name: 'behaviour-retention', everyMs: 3600_000, cron: '29 * * * *', work: () => behaviour.purge() });
}
