import { z } from 'zod';
import type { ErrorCode } from '../errors.ts';
import { MENU_KEYS } from '../menus.ts';
import { SelfUserSchema } from './session.ts';

/*
 * Accounts: the validation rules of spec §5 (shared so the console checks the
 * same way the server does) and the request/response schemas of the self,
 * registration, verification-code, password-reset and sub-user calls of §7.
 *
 * Request bodies whose fields map to the numbered codes 001-022 of §8 are kept
 * lenient here (optional strings): the server checks them field by field and
 * answers with those codes, which a schema failure (http.400) could not carry.
 */

// ---------------------------------------------------------------- rules (§5)

/** Default area code (spec §3, §9). */
export const DEFAULT_AREA_CODE = '86';
/** Domestic mobile: 11 digits starting 1[3-9]. */
export const DOMESTIC_MOBILE_RE = /^1[3-9]\d{9}$/;
/**
 * International mobile: the spec has two validators (2-16 and 4-20 digits); we
 * take 4-16, the numbers both accept.
 */
export const INTERNATIONAL_MOBILE_RE = /^\d{4,16}$/;
/** Registration username: 2-20 letters, digits, underscore, not starting with a digit. */
export const USERNAME_RE = /^[A-Za-z_][A-Za-z0-9_]{1,19}$/;
/** Login name: 2-65 letters, digits, underscore, @ (sub-users log in as name@tenant). */
export const LOGIN_NAME_RE = /^[A-Za-z0-9_@]{2,65}$/;
/** Sub-user username: 4-32 letters, digits, underscore. */
export const SUB_USERNAME_RE = /^[A-Za-z0-9_]{4,32}$/;
/** SMS and e-mail codes: 6 digits. */
export const CODE_RE = /^\d{6}$/;
export const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;
/** Special characters that count as a password character class. */
export const PASSWORD_SPECIALS = '~!@#$%^&*()_+-=[]{}|;:\'",.<>/?`\\';
export const CODE_TTL_SECONDS = 300;
export const CODE_RESEND_SECONDS = 60;
export const CODE_MAX_TRIES = 5;

export type RuleCode = ErrorCode | null;

/** 002 empty, 004 wrong digits. */
export function mobileProblem(mobile: string | undefined | null, areaCode: string = DEFAULT_AREA_CODE): RuleCode {
  if (!mobile) return '002';
  const re = areaCode === DEFAULT_AREA_CODE ? DOMESTIC_MOBILE_RE : INTERNATIONAL_MOBILE_RE;
  return re.test(mobile) ? null : '004';
}

/** 013 empty, 008 rule. */
export function usernameProblem(name: string | undefined | null): RuleCode {
  if (!name) return '013';
  return USERNAME_RE.test(name) ? null : '008';
}

/** 006 empty, 005 length / Chinese / spaces, 010 fewer than two character classes. */
export function passwordProblem(password: string | undefined | null): RuleCode {
  if (!password) return '006';
  if (password.length < 8 || password.length > 16 || /\s/.test(password) || /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/.test(password)) {
    return '005';
  }
  let classes = 0;
  if (/[A-Z]/.test(password)) classes++;
  if (/[a-z]/.test(password)) classes++;
  if (/\d/.test(password)) classes++;
  if ([...password].some((c) => PASSWORD_SPECIALS.includes(c))) classes++;
  if ([...password].some((c) => !/[A-Za-z0-9]/.test(c) && !PASSWORD_SPECIALS.includes(c))) return '005';
  return classes >= 2 ? null : '010';
}

/** 012 empty, 011 differs. */
export function confirmProblem(password: string | undefined | null, confirm: string | undefined | null): RuleCode {
  if (!confirm) return '012';
  return confirm === password ? null : '011';
}

/** 017 empty, 015 format. */
export function emailProblem(email: string | undefined | null): RuleCode {
  if (!email) return '017';
  return email.length <= 254 && EMAIL_RE.test(email) ? null : '015';
}

/** Personal info (nick_name 2-20; job, company, industry, address 2-32). */
export function lengthBetween(value: string, min: number, max: number): boolean {
  const n = [...value].length;
  return n >= min && n <= max;
}

// ---------------------------------------------------------------- verification codes

export const CodePurposeSchema = z.enum(['register', 'modify', 'login']);
export type CodePurpose = z.infer<typeof CodePurposeSchema>;

/** POST /tenant/verification-codes: type 1 SMS, 2 e-mail. */
export const VerificationCodeRequestSchema = z.object({
  type: z.union([z.literal(1), z.literal(2)]),
  destination: z.string().trim().min(1).max(254),
  purpose: CodePurposeSchema,
  area_code: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional(),
});
export type VerificationCodeRequest = z.infer<typeof VerificationCodeRequestSchema>;

export const VerificationCodeResponseSchema = z.object({
  expires_in: z.number().int(),
  resend_in: z.number().int(),
});

// ---------------------------------------------------------------- registration (§3)

/** tenant_type: 0 standalone (default), 1 merchant (registration closed), 2 owner (needs merchant_id). */
export const TENANT_TYPE = { standalone: 0, merchant: 1, owner: 2 } as const;

const optStr = (max = 256) => z.string().max(max).optional().nullable();

export const RegistrationRequestSchema = z.object({
  mobile: optStr(32),
  area_code: optStr(8),
  mobile_verification_code: optStr(16),
  username: optStr(64),
  name: optStr(64),
  namespace: optStr(64),
  password: optStr(128),
  confirmPassword: optStr(128),
  email: optStr(254),
  email_verification_code: optStr(16),
  avatar: optStr(512),
  description: optStr(512),
  organization_name: optStr(64),
  industry: optStr(64),
  address: optStr(128),
  country: optStr(64),
  province: optStr(64),
  city: optStr(64),
  department: optStr(64),
  gender: z.enum(['male', 'female']).optional().nullable(),
  job: optStr(64),
  tenant_type: z.number().int().min(0).max(2).default(0),
  merchant_id: optStr(64),
  platform: z
    .union([z.number().int(), z.string().max(32)])
    .optional()
    .nullable(),
});
export type RegistrationRequest = z.infer<typeof RegistrationRequestSchema>;

export const RegistrationResponseSchema = z.object({
  tenant_id: z.string(),
  user_id: z.string(),
  /** 0: pending review (spec §4: review takes 1-3 working days). */
  status: z.number().int(),
});

export const UserTenantValidateQuerySchema = z.object({
  field: z.enum(['mobile', 'name']),
  value: z.string().max(128).default(''),
  area_code: z.string().max(8).optional(),
});
export const UserTenantValidateResponseSchema = z.object({ field: z.string(), valid: z.literal(true) });

/** Forgot password (spec §3): type 1, source = phone, user_type -1. */
export const ResetPasswordRequestSchema = z.object({
  type: z.coerce.number().int().default(1),
  source: optStr(32),
  verification_code: optStr(16),
  new_password: optStr(128),
  confirmPassword: optStr(128),
  user_type: z.coerce.number().int().default(-1),
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

// ---------------------------------------------------------------- self

export const TenantInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  tenant_type: z.number().int(),
  organization_name: z.string().nullable(),
  industry: z.string().nullable(),
  address: z.string().nullable(),
  country: z.string().nullable(),
  province: z.string().nullable(),
  city: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  description: z.string().nullable(),
  status: z.number().int(),
  is_demo: z.boolean(),
  /** See TenantSpecRequestSchema. */
  reclaim_policy: z.number().int(),
  max_reserves_duration: z.number().int().nullable(),
});
export type TenantInfo = z.infer<typeof TenantInfoSchema>;

/** GET /tenant/users/self: the SelfUser of the login flow plus the personal info. */
export const SelfUserDetailSchema = SelfUserSchema.extend({
  area_code: z.string(),
  gender: z.string(),
  job: z.string().nullable(),
  department: z.string().nullable(),
  description: z.string().nullable(),
  organization_name: z.string().nullable(),
  industry: z.string().nullable(),
  address: z.string().nullable(),
  login_name: z.string(),
  last_login_time: z.number().int().nullable(),
  last_login_ip: z.string().nullable(),
  readOnly: z.boolean(),
  tenantInfo: TenantInfoSchema,
});
export type SelfUserDetail = z.infer<typeof SelfUserDetailSchema>;

/** PUT /tenant/users/self: personal info; organization_name, industry, address belong to the tenant (manager only). */
export const UpdateSelfRequestSchema = z.object({
  nick_name: z.string().max(64).optional(),
  organization_name: z.string().max(64).optional(),
  industry: z.string().max(64).optional(),
  address: z.string().max(64).optional(),
  gender: z.enum(['male', 'female']).optional(),
  job: z.string().max(64).optional(),
  department: z.string().max(64).optional(),
});
export type UpdateSelfRequest = z.infer<typeof UpdateSelfRequestSchema>;

/** PUT /tenant/users/self/password: the old password, or the account's mobile with an SMS code (purpose modify). */
export const ChangePasswordRequestSchema = z.object({
  old_password: optStr(128),
  password: optStr(128),
  confirmPassword: optStr(128),
  code: optStr(16),
  mobile: optStr(32),
});
export const ChangeMobileRequestSchema = z.object({
  new_mobile: optStr(32),
  new_code: optStr(16),
  old_mobile: optStr(32),
  area_code: optStr(8),
});
export const ChangeEmailRequestSchema = z.object({
  email: optStr(254),
  code: optStr(16),
});

export const UpdateSelfTenantRequestSchema = z.object({
  organization_name: z.string().max(64).optional(),
  industry: z.string().max(64).optional(),
  address: z.string().max(128).optional(),
  country: z.string().max(64).optional(),
  province: z.string().max(64).optional(),
  city: z.string().max(64).optional(),
  description: z.string().max(512).optional(),
});

/** Tenant data keeping (spec §7 PUT /tenant/users/self/tenant-spec). */
export const ReclaimPolicy = {
  /** Data is kept as long as the package allows (maximum_data_retention_days). */
  package: 0,
  /** Space is reclaimed earlier: data older than max_reserves_duration days goes. */
  early: 1,
} as const;
/** Upper bound of max_reserves_duration when the package keeps data for ever. */
export const MAX_RESERVES_DAYS = 36500;
export const TenantSpecRequestSchema = z.object({
  reclaim_policy: z.number().int(),
  max_reserves_duration: z.number().int().nullable().optional(),
});
export type TenantSpecRequest = z.infer<typeof TenantSpecRequestSchema>;

export const AvatarResponseSchema = z.object({ avatar: z.string() });
/** Avatar: at most 2 MB, an image (spec §5). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export const IsManagerQuerySchema = z.object({ username: z.string().max(128).optional() });
export const IsManagerResponseSchema = z.object({ is_manager: z.boolean() });

/** Password re-confirmation dialog (spec §2). */
export const ReauthRequestSchema = z.object({ password: z.string().max(128) });

// ---------------------------------------------------------------- sub-users (§3, §6)

export const DeviceAccessSchema = z.object({
  things_id: z.guid(),
  access: z.enum(['read', 'write']),
});
export type DeviceAccessEntry = z.infer<typeof DeviceAccessSchema>;

export const SubUserMenuSchema = z.enum(MENU_KEYS);

export const CreateSubUserRequestSchema = z.object({
  username: z.string().max(64),
  mobile: z.string().max(32),
  area_code: z.string().max(8).optional(),
  email: z.string().max(254).optional().nullable(),
  description: z.string().max(256).optional().nullable(),
  password: z.string().max(128).optional(),
  devices: z.array(DeviceAccessSchema).max(10000).default([]),
  menus: z.array(SubUserMenuSchema).max(64).default([]),
  grants: z.array(z.string().max(128)).max(512).default([]),
});
export type CreateSubUserRequest = z.infer<typeof CreateSubUserRequestSchema>;

export const UpdateSubUserRequestSchema = z.object({
  mobile: z.string().max(32).optional(),
  area_code: z.string().max(8).optional(),
  email: z.string().max(254).optional().nullable(),
  description: z.string().max(256).optional().nullable(),
  nick_name: z.string().max(64).optional().nullable(),
  /** 1 enabled, 3 disabled. */
  status: z.union([z.literal(1), z.literal(3)]).optional(),
  password: z.string().max(128).optional(),
  devices: z.array(DeviceAccessSchema).max(10000).optional(),
  menus: z.array(SubUserMenuSchema).max(64).optional(),
  grants: z.array(z.string().max(128)).max(512).optional(),
});
export type UpdateSubUserRequest = z.infer<typeof UpdateSubUserRequestSchema>;

export const ResetSubUserPasswordRequestSchema = z.object({ password: z.string().max(128).optional() }).default({});

export const SubUserSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  username: z.string(),
  /** What the sub-user types to log in: name@tenantname (spec §6). */
  login_name: z.string(),
  nick_name: z.string().nullable(),
  mobile: z.string().nullable(),
  area_code: z.string(),
  email: z.string().nullable(),
  description: z.string().nullable(),
  status: z.number().int(),
  last_login_time: z.number().int().nullable(),
  last_login_ip: z.string().nullable(),
  created_at: z.number().int(),
  devices: z.array(DeviceAccessSchema),
  menus: z.array(z.string()),
  grants: z.array(z.string()),
});
export type SubUser = z.infer<typeof SubUserSchema>;

export const SubUserListQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(1000).default(10),
  username: z.string().max(64).optional(),
  mobile: z.string().max(32).optional(),
});

/** Spec §3 package default sub_user_num. */
export const SUB_USER_LIMIT = 100;

// ---------------------------------------------------------------- per-user config

/** Keys: function-block tags with colons, pipes and dashes removed (spec §7). */
export const USER_CONFIG_KEY_RE = /^[A-Za-z0-9_.]{1,128}$/;
/** Spec §5 / §9: at most 30 chosen columns. */
export const USER_CONFIG_MAX_ITEMS = 30;

export const UserConfigQuerySchema = z.object({ keys: z.string().max(4096).default('') });
export const UserConfigEntrySchema = z.object({ key: z.string(), value: z.string() });
export const UserConfigListSchema = z.array(UserConfigEntrySchema);
export const PutUserConfigRequestSchema = z.object({
  key: z.string().regex(USER_CONFIG_KEY_RE),
  /** A JSON list of column props. */
  value: z.string().max(16_384),
});

// ---------------------------------------------------------------- operation log

export const OpLogQuerySchema = z.object({
  current_page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  user_id: z.guid().optional(),
  username: z.string().max(64).optional(),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  /** ms since epoch, inclusive. */
  start_time: z.coerce.number().int().min(0).optional(),
  end_time: z.coerce.number().int().min(0).optional(),
});
export const OpLogSchema = z.object({
  id: z.number().int(),
  user_id: z.string().nullable(),
  username: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  ip: z.string().nullable(),
  created_at: z.number().int(),
  /** Made by a system manager in a super-session of the tenant (written to the tenant's log and the platform's). */
  super_session: z.boolean().optional(),
});
