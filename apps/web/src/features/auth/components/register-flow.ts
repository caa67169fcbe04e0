import { DEFAULT_AREA_CODE, type RegistrationRequest, TENANT_TYPE } from '@loggerhead/contract/schemas/accounts.ts';

/** The four steps of spec §2: account, e-mail binding (skippable), personal info (skippable), done. */
export const STEP = { account: 0, email: 1, profile: 2, done: 3 } as const;
export type Step = (typeof STEP)[keyof typeof STEP];

export const ACCOUNT_FIELDS = [
  'tenant_type',
  'merchant_id',
  'area_code',
  'mobile',
  'mobile_verification_code',
  'username',
  'password',
  'confirmPassword',
  'agreement',
] as const;
export const EMAIL_FIELDS = ['email', 'email_verification_code'] as const;
export const PROFILE_FIELDS = ['gender', 'job', 'organization_name', 'industry', 'address'] as const;

export const ALL_FIELDS: readonly string[] = [...ACCOUNT_FIELDS, ...EMAIL_FIELDS, ...PROFILE_FIELDS];

export interface RegisterValues {
  tenant_type: number;
  merchant_id?: string;
  area_code: string;
  mobile?: string;
  mobile_verification_code?: string;
  username?: string;
  password?: string;
  confirmPassword?: string;
  agreement?: boolean;
  email?: string;
  email_verification_code?: string;
  gender?: 'male' | 'female';
  job?: string;
  organization_name?: string;
  industry?: string;
  address?: string;
}

/** The step a field is entered on; server errors send the user back to the earliest one (spec §4). */
export function stepOfField(field: string): Step {
  if ((EMAIL_FIELDS as readonly string[]).includes(field)) return STEP.email;
  if ((PROFILE_FIELDS as readonly string[]).includes(field)) return STEP.profile;
  return STEP.account;
}

export function earliestStep(fields: readonly string[], fallback: Step): Step {
  return fields.length ? (Math.min(...fields.map(stepOfField)) as Step) : fallback;
}

const clean = (v: string | undefined) => {
  const s = v?.trim();
  return s ? s : undefined;
};

/**
 * The body of POST /tenant/user-tenants (spec §3): the username is also the tenant's
 * name and namespace; skipped steps send nothing of theirs.
 */
export function registrationBody(v: RegisterValues, opts: { withEmail: boolean; withProfile: boolean }): RegistrationRequest {
  const username = clean(v.username);
  return {
    tenant_type: v.tenant_type ?? TENANT_TYPE.standalone,
    merchant_id: v.tenant_type === TENANT_TYPE.owner ? clean(v.merchant_id) : undefined,
    area_code: v.area_code || DEFAULT_AREA_CODE,
    mobile: clean(v.mobile),
    mobile_verification_code: v.mobile_verification_code,
    username,
    name: username,
    namespace: username,
    password: v.password,
    confirmPassword: v.confirmPassword,
    email: opts.withEmail ? clean(v.email) : undefined,
    email_verification_code: opts.withEmail ? v.email_verification_code : undefined,
    gender: opts.withProfile ? (v.gender ?? 'male') : 'male',
    job: opts.withProfile ? clean(v.job) : undefined,
    organization_name: opts.withProfile ? clean(v.organization_name) : undefined,
    industry: opts.withProfile ? clean(v.industry) : undefined,
    address: opts.withProfile ? clean(v.address) : undefined,
  };
}
