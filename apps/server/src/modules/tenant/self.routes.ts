import { AVATAR_MAX_BYTES, ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import type { FileStore } from '../../files/file-store.ts';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import type { SelfService } from './self.service.ts';

const tags = ['tenant'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema };
const withErrors = { tags, errors };

/** The caller's own account: spec §7 "Self" calls. */
export function selfRoutes(app: LoggerheadApp, svc: SelfService, avatars: FileStore) {
  const R = Routes.self;
  route(app, R.get, { tags }, (req) => svc.get(requireAuth(req.auth)));

  route(app, R.update, withErrors, async (req) => {
    const auth = requireAuth(req.auth);
    await svc.update(auth, req.body);
    return svc.get(auth);
  });

  route(app, R.changePassword, { tags }, async (req, reply) => {
    await svc.changePassword(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });
  route(app, R.changeMobile, { tags }, async (req, reply) => {
    await svc.changeMobile(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });
  route(app, R.changeEmail, { tags }, async (req, reply) => {
    await svc.changeEmail(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });

  route(app, R.setAvatar, { ...withErrors, consumes: ['multipart/form-data'] }, async (req) => {
    const auth = requireAuth(req.auth);
    if (!req.isMultipart()) throw new ApiError(415, 'http.415', 'Send the image as multipart/form-data');
    const file = await req.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
    if (!file) throw new ApiError(400, 'http.400', 'No file', { field: 'file' });
    const data = await file.toBuffer(); // throws 413 past 2 MB
    return svc.setAvatar(auth, data, file.mimetype);
  });

  // Avatars are shown by <img> tags, which send no bearer token: names are random and unguessable.
  route(app, R.avatar, { tags }, async (req, reply) => {
    const image = await avatars.open(req.params.file);
    if (!image) throw new ApiError(404);
    const ext = req.params.file.slice(req.params.file.lastIndexOf('.') + 1);
    const type = ext === 'jpg' ? 'image/jpeg' : `image/${ext}`;
    return reply
      .header('content-type', type)
      .header('content-length', image.size)
      .header('cache-control', 'private, max-age=86400')
      .send(image.stream);
  });

  route(app, R.tenant, { tags }, (req) => svc.getTenant(requireAuth(req.auth)));
  // Spec §7 also names GET /tenant/tenant-detail: the caller's tenant.
  route(app, R.tenantDetail, { tags }, (req) => svc.getTenant(requireAuth(req.auth)));
  route(app, R.updateTenant, withErrors, (req) => svc.updateTenant(requireAuth(req.auth), req.body));
  route(app, R.updateTenantSpec, withErrors, (req) => svc.updateTenantSpec(requireAuth(req.auth), req.body));

  /**
   * Spec §4: the login page first asks whether the account is a tenant manager,
   * which decides the session call. With a name it answers from its form alone
   * (a sub-user logs in as name@tenant), so it reveals nothing about who exists;
   * without one it answers for the caller.
   */
  route(app, R.isManager, { tags }, async (req) => {
    const name = req.query.username?.trim();
    if (name) return { is_manager: !name.includes('@') };
    return { is_manager: requireAuth(req.auth).isManager };
  });
}
