import {
  ErrorResponseSchema,
  RegistrationRequestSchema,
  RegistrationResponseSchema,
  ResetPasswordRequestSchema,
  UserTenantValidateQuerySchema,
  UserTenantValidateResponseSchema,
  VerificationCodeRequestSchema,
  VerificationCodeResponseSchema,
} from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import type { RegistrationService } from './registration.service.ts';
import type { VerificationService } from './verification.service.ts';

const tags = ['tenant'];
const pub = { public: true, noOpLog: true };
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 409: ErrorResponseSchema, 429: ErrorResponseSchema };

/** Calls made before any login: codes, registration, validation, forgotten password. */
export function publicRoutes(app: LoggerheadApp, reg: RegistrationService, codes: VerificationService) {
  app.post(
    '/v1/tenant/verification-codes',
    { config: pub, schema: { tags, body: VerificationCodeRequestSchema, response: { 201: VerificationCodeResponseSchema, ...errors } } },
    async (req, reply) => reply.code(201).send(await codes.send(req.body, req.ip)),
  );

  app.get(
    '/v1/tenant/user-tenant-validate',
    {
      config: pub,
      schema: { tags, querystring: UserTenantValidateQuerySchema, response: { 200: UserTenantValidateResponseSchema, ...errors } },
    },
    (req) => reg.validate(req.query.field, req.query.value.trim(), req.query.area_code),
  );

  app.post(
    '/v1/tenant/user-tenants',
    { config: pub, schema: { tags, body: RegistrationRequestSchema, response: { 201: RegistrationResponseSchema, ...errors } } },
    async (req, reply) => reply.code(201).send(await reg.register(req.body)),
  );

  app.post('/v1/tenant/reset-password', { config: pub, schema: { tags, body: ResetPasswordRequestSchema } }, async (req, reply) => {
    await reg.resetPassword(req.body);
    return reply.code(204).send();
  });
}
