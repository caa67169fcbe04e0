import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';

const R = Routes.apiKeys;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const withErrors = { tags: ['api-keys'], errors };

/** Tenant API keys: list, create (token shown once), revoke. Their use is checked in app.ts (onRequest). */
export function apiKeyRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = ctx.apiKeys;
  const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenant_id: string } }) =>
    inTenant(requireAuth(req.auth), req.params.tenant_id);
  route(app, R.list, withErrors, (req) => svc.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => svc.create(auth(req), req.body));
  route(app, R.revoke, withErrors, (req) => svc.revoke(auth(req), req.params.id));
}
