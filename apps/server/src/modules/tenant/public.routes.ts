import { ErrorResponseSchema, Routes, textLang } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import { route } from '../../lib/route.ts';
import type { RegistrationService } from './registration.service.ts';
import type { VerificationService } from './verification.service.ts';

const tags = ['tenant'];
const config = { noOpLog: true };
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 409: ErrorResponseSchema, 429: ErrorResponseSchema };

/** Calls made before any login: codes, registration, validation, forgotten password. */
export function publicRoutes(app: LoggerheadApp, reg: RegistrationService, codes: VerificationService) {
  const R = Routes.registration;
  route(app, R.sendCode, { tags, errors, config }, async (req, reply) =>
    reply.code(201).send(await codes.send(req.body, req.ip, textLang(req.headers['accept-language']))),
  );

  route(app, R.validate, { tags, errors, config }, (req) => reg.validate(req.query.field, req.query.value.trim(), req.query.area_code));

  route(app, R.register, { tags, errors, config }, async (req, reply) => reply.code(201).send(await reg.register(req.body)));

  route(app, R.resetPassword, { tags, config }, async (req, reply) => {
    await reg.resetPassword(req.body);
    return reply.code(204).send();
  });
}
