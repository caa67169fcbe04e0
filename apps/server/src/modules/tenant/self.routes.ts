import fs from 'node:fs';
import path from 'node:path';
import {
  AVATAR_MAX_BYTES,
  AvatarResponseSchema,
  ChangeEmailRequestSchema,
  ChangeMobileRequestSchema,
  ChangePasswordRequestSchema,
  ErrorResponseSchema,
  IsManagerQuerySchema,
  IsManagerResponseSchema,
  SelfUserDetailSchema,
  TenantInfoSchema,
  TenantSpecRequestSchema,
  UpdateSelfRequestSchema,
  UpdateSelfTenantRequestSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import type { SelfService } from './self.service.ts';

const tags = ['tenant'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema };

/** The caller's own account: spec §7 "Self" calls. */
export function selfRoutes(app: LoggerheadApp, svc: SelfService, avatarDir: string) {
  app.get('/v1/tenant/users/self', { schema: { tags, response: { 200: SelfUserDetailSchema } } }, (req) => svc.get(requireAuth(req.auth)));

  app.put(
    '/v1/tenant/users/self',
    { schema: { tags, body: UpdateSelfRequestSchema, response: { 200: SelfUserDetailSchema, ...errors } } },
    async (req) => {
      const auth = requireAuth(req.auth);
      await svc.update(auth, req.body);
      return svc.get(auth);
    },
  );

  app.put('/v1/tenant/users/self/password', { schema: { tags, body: ChangePasswordRequestSchema } }, async (req, reply) => {
    await svc.changePassword(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });
  app.put('/v1/tenant/users/self/mobile', { schema: { tags, body: ChangeMobileRequestSchema } }, async (req, reply) => {
    await svc.changeMobile(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });
  app.put('/v1/tenant/users/self/email', { schema: { tags, body: ChangeEmailRequestSchema } }, async (req, reply) => {
    await svc.changeEmail(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });

  app.put(
    '/v1/tenant/users/self/avatar',
    { schema: { tags, consumes: ['multipart/form-data'], response: { 200: AvatarResponseSchema, ...errors } } },
    async (req) => {
      const auth = requireAuth(req.auth);
      if (!req.isMultipart()) throw new ApiError(415, 'http.415', 'Send the image as multipart/form-data');
      const file = await req.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
      if (!file) throw new ApiError(400, 'http.400', 'No file', { field: 'file' });
      const data = await file.toBuffer(); // throws 413 past 2 MB
      return svc.setAvatar(auth, data, file.mimetype);
    },
  );

  // Avatars are shown by <img> tags, which send no bearer token: names are random and unguessable.
  app.get(
    '/v1/tenant/avatars/:file',
    { config: { public: true }, schema: { tags, params: z.object({ file: z.string().regex(/^[0-9a-f]{32}\.(png|jpg|gif|webp)$/) }) } },
    async (req, reply) => {
      const full = path.join(avatarDir, req.params.file);
      if (!fs.existsSync(full)) throw new ApiError(404);
      const ext = path.extname(full).slice(1);
      const type = ext === 'jpg' ? 'image/jpeg' : `image/${ext}`;
      return reply.header('content-type', type).header('cache-control', 'private, max-age=86400').send(fs.createReadStream(full));
    },
  );

  app.get('/v1/tenant/users/self/tenant', { schema: { tags, response: { 200: TenantInfoSchema } } }, (req) =>
    svc.getTenant(requireAuth(req.auth)),
  );
  // Spec §7 also names GET /tenant/tenant-detail: the caller's tenant.
  app.get('/v1/tenant/tenant-detail', { schema: { tags, response: { 200: TenantInfoSchema } } }, (req) =>
    svc.getTenant(requireAuth(req.auth)),
  );
  app.put(
    '/v1/tenant/users/self/tenant',
    { schema: { tags, body: UpdateSelfTenantRequestSchema, response: { 200: TenantInfoSchema, ...errors } } },
    (req) => svc.updateTenant(requireAuth(req.auth), req.body),
  );

  app.put(
    '/v1/tenant/users/self/tenant-spec',
    { schema: { tags, body: TenantSpecRequestSchema, response: { 200: TenantInfoSchema, ...errors } } },
    (req) => svc.updateTenantSpec(requireAuth(req.auth), req.body),
  );

  /**
   * Spec §4: the login page first asks whether the account is a tenant manager,
   * which decides the session call. With a name it answers from its form alone
   * (a sub-user logs in as name@tenant), so it reveals nothing about who exists;
   * without one it answers for the caller.
   */
  app.get(
    '/v1/tenant/is-manager',
    { config: { public: true }, schema: { tags, querystring: IsManagerQuerySchema, response: { 200: IsManagerResponseSchema } } },
    async (req) => {
      const name = req.query.username?.trim();
      if (name) return { is_manager: !name.includes('@') };
      return { is_manager: requireAuth(req.auth).isManager };
    },
  );
}
