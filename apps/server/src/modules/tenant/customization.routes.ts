import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import { type Auth, requireAuth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import type { customizationRepository } from './customization.repository.ts';

const SHORT_VALUE_MAX = 256;

function ownTenant(auth: Auth, tenantId: string) {
  if (auth.tenantId !== tenantId) throw forbidden();
}

/** Tenant customisation (spec §3): page title, language, theme, logo and footer of one tenant. */
export function customizationRoutes(app: LoggerheadApp, repo: ReturnType<typeof customizationRepository>) {
  route(app, Routes.customization.get, { tags: ['tenant'], errors: { 403: ErrorResponseSchema } }, async (req) => {
    const auth = requireAuth(req.auth);
    ownTenant(auth, req.params.tenant_id);
    return { tenant_id: auth.tenantId, data: (await repo.list(auth.tenantId)) as { key: never; value: string }[] };
  });
  route(app, Routes.customization.put, { tags: ['tenant'], errors: { 400: ErrorResponseSchema } }, async (req) => {
    const auth = requireAuth(req.auth);
    ownTenant(auth, req.params.tenant_id);
    for (const { key, value } of req.body.data) {
      if (key === 'systemLanguage' && value !== '' && value !== 'zh' && value !== 'en') {
        throw new ApiError(400, 'http.400', 'systemLanguage: zh or en', { field: key });
      }
      // Only the logo (a URL or data URL) may be long.
      if (key !== 'systemLogo' && value.length > SHORT_VALUE_MAX)
        throw new ApiError(400, 'http.400', `${key}: at most 256 characters`, { field: key });
      if (key === 'systemLogo' && value !== '' && !/^(https?:\/\/|\/|data:image\/(png|jpeg|gif|webp|svg\+xml);base64,)/.test(value)) {
        throw new ApiError(400, 'http.400', 'systemLogo: an http(s) URL, a path or an image data URL', { field: key });
      }
    }
    await repo.put(auth.tenantId, req.body.data);
    return { tenant_id: auth.tenantId, data: (await repo.list(auth.tenantId)) as { key: never; value: string }[] };
  });
}
