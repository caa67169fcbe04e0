import {
  CODE_RE,
  confirmProblem,
  DEFAULT_AREA_CODE,
  DOMESTIC_MOBILE_RE,
  defaultMessage,
  type ErrorBody,
  type ErrorCode,
  emailProblem,
  INTERNATIONAL_MOBILE_RE,
  lengthBetween,
  mobileProblem,
  passwordProblem,
  type RegistrationRequest,
  type ResetPasswordRequest,
  TENANT_STATUS,
  TENANT_TYPE,
  usernameProblem,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { ApiError } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { registrationRepository } from './registration.repository.ts';
import type { VerificationService } from './verification.service.ts';

export const fieldError = (code: ErrorCode, field: string, message?: string): ErrorBody => ({
  code,
  message: message ?? defaultMessage(code),
  field,
});

/** Throws the collected field errors: one body, or an array when several fields fail (spec §8). */
export function throwFieldErrors(errors: ErrorBody[]): void {
  // Field errors are made by `fieldError`, whose code is one of the registry.
  if (errors.length === 1) throw new ApiError(400, errors[0].code as ErrorCode, errors[0].message, { field: errors[0].field });
  if (errors.length > 1) throw ApiError.many(400, errors);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

/** Optional personal fields: when given, 2-32 characters (spec §5). */
const PERSONAL_FIELDS = ['organization_name', 'industry', 'address', 'job', 'department'] as const;

export function registrationService(deps: { raw: RawSql; accounts: AccountsRepository; codes: VerificationService }) {
  const { accounts, codes } = deps;

  return {
    /** GET /tenant/user-tenant-validate: format then uniqueness of one field. */
    async validate(field: 'mobile' | 'name', value: string, areaCode?: string) {
      if (field === 'mobile') {
        const p = mobileProblem(value, areaCode ?? DEFAULT_AREA_CODE);
        if (p) throwFieldErrors([fieldError(p, 'mobile')]);
        if (await accounts.mobileTaken(value)) throwFieldErrors([fieldError('007', 'mobile')]);
      } else {
        const p = usernameProblem(value);
        if (p) throwFieldErrors([fieldError(p, 'username')]);
        if (await accounts.nameTaken(value)) throwFieldErrors([fieldError('009', 'username')]);
      }
      return { field, valid: true as const };
    },

    /** POST /tenant/user-tenants: a new tenant with its manager, pending review. */
    async register(req: RegistrationRequest) {
      if (req.tenant_type === TENANT_TYPE.merchant)
        throw new ApiError(403, 'register.merchant-closed', undefined, { field: 'tenant_type' });
      const errors: ErrorBody[] = [];
      const areaCode = req.area_code || DEFAULT_AREA_CODE;
      const mobile = req.mobile?.trim() ?? '';
      const username = (req.username || req.name || '').trim();
      const email = req.email?.trim() ?? '';

      const mp = mobileProblem(mobile, areaCode);
      if (mp) errors.push(fieldError(mp, 'mobile'));
      else if (await accounts.mobileTaken(mobile)) errors.push(fieldError('007', 'mobile'));

      const smsCode = req.mobile_verification_code ?? '';
      if (!CODE_RE.test(smsCode)) errors.push(fieldError('014', 'mobile_verification_code'));

      const up = usernameProblem(username);
      if (up) errors.push(fieldError(up, 'username'));
      else if (await accounts.nameTaken(username)) errors.push(fieldError('009', 'username'));

      const pp = passwordProblem(req.password);
      if (pp) errors.push(fieldError(pp, 'password'));
      const cp = confirmProblem(req.password, req.confirmPassword);
      if (cp) errors.push(fieldError(cp, 'confirmPassword'));

      // E-mail binding is a skippable step: checked only when an address or a code is given.
      const emailCode = req.email_verification_code ?? '';
      const withEmail = email !== '' || emailCode !== '';
      if (withEmail) {
        const ep = emailProblem(email);
        if (ep) errors.push(fieldError(ep, 'email'));
        else if (await accounts.emailTaken(email)) errors.push(fieldError('016', 'email'));
        if (!CODE_RE.test(emailCode)) errors.push(fieldError('021', 'email_verification_code'));
      }

      for (const f of PERSONAL_FIELDS) {
        const v = req[f];
        if (v && !lengthBetween(v.trim(), 2, 32)) errors.push(fieldError('http.400', f, `${f}: 2-32 characters`));
      }

      if (req.tenant_type === TENANT_TYPE.owner && !(req.merchant_id && (await accounts.activeMerchant(req.merchant_id)))) {
        errors.push(fieldError('020', 'merchant_id'));
      }

      // Codes are checked (a wrong one counts a try) but used up only once everything passed.
      if (!mp && CODE_RE.test(smsCode) && (await codes.check(1, mobile, 'register', smsCode, false)) !== 'ok') {
        errors.push(fieldError('018', 'mobile_verification_code', 'invalid SMS verification code'));
      }
      if (
        withEmail &&
        !emailProblem(email) &&
        CODE_RE.test(emailCode) &&
        (await codes.check(2, email, 'register', emailCode, false)) !== 'ok'
      ) {
        errors.push(fieldError('019', 'email_verification_code', 'invalid Email verification code'));
      }
      throwFieldErrors(errors);

      const hash = await hashPassword(req.password as string);
      let ids: { tenant_id: string; user_id: string };
      try {
        ids = await registrationRepository(deps.raw).insertTenantWithManager(
          {
            name: username,
            tenantType: req.tenant_type,
            organizationName: req.organization_name?.trim() || null,
            mobile,
            email: withEmail ? email : null,
            address: req.address?.trim() || null,
            country: req.country || null,
            province: req.province || null,
            city: req.city || null,
            industry: req.industry?.trim() || null,
            description: req.description || null,
            status: TENANT_STATUS.pending,
            platform: req.platform === 1 || req.platform === '1' ? 1 : 0,
            merchantId: req.tenant_type === TENANT_TYPE.owner ? req.merchant_id : null,
          },
          {
            username,
            mobile,
            areaCode,
            email: withEmail ? email : null,
            passwordHash: hash,
            description: req.description || null,
            department: req.department?.trim() || null,
            gender: req.gender ?? 'male',
            job: req.job?.trim() || null,
          },
        );
      } catch (e) {
        // Two registrations racing for the same name, mobile or e-mail.
        if (isUniqueViolation(e)) throw new ApiError(409, 'iot-http.409');
        throw e;
      }
      await codes.consume(1, mobile, 'register');
      if (withEmail) await codes.consume(2, email, 'register');
      return { ...ids, status: TENANT_STATUS.pending };
    },

    /** POST /tenant/reset-password (forgot password): mobile + SMS code (purpose modify). */
    async resetPassword(req: ResetPasswordRequest) {
      const errors: ErrorBody[] = [];
      const source = req.source?.trim() ?? '';
      // The form has no area code: any number a main account could have registered with.
      const mp = !source ? '002' : DOMESTIC_MOBILE_RE.test(source) || INTERNATIONAL_MOBILE_RE.test(source) ? null : '004';
      if (mp) errors.push(fieldError(mp, 'source'));
      if (!CODE_RE.test(req.verification_code ?? '')) errors.push(fieldError('014', 'verification_code'));
      const pp = passwordProblem(req.new_password);
      if (pp) errors.push(fieldError(pp, 'new_password'));
      if (req.confirmPassword !== undefined && req.confirmPassword !== null) {
        const cp = confirmProblem(req.new_password, req.confirmPassword);
        if (cp) errors.push(fieldError(cp, 'confirmPassword'));
      }
      throwFieldErrors(errors);
      if ((await codes.check(1, source, 'modify', req.verification_code as string, true)) !== 'ok') {
        throw new ApiError(400, '018', undefined, { field: 'verification_code' });
      }
      // Only whoever received the code learns whether the number has an account.
      const user = await accounts.managerByMobile(source);
      if (!user) throw new ApiError(400, 'auth.phone-not-registered', undefined, { field: 'source' });
      await accounts.setPassword(user.tenant_id, user.id, await hashPassword(req.new_password as string));
      await accounts.revokeSessions(user.id);
    },
  };
}
export type RegistrationService = ReturnType<typeof registrationService>;
