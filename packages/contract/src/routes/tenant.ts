import { z } from 'zod';
import {
  AvatarResponseSchema,
  ChangeEmailRequestSchema,
  ChangeMobileRequestSchema,
  ChangePasswordRequestSchema,
  CreateSubUserRequestSchema,
  IsManagerQuerySchema,
  IsManagerResponseSchema,
  RegistrationRequestSchema,
  RegistrationResponseSchema,
  ResetPasswordRequestSchema,
  ResetSubUserPasswordRequestSchema,
  SelfUserDetailSchema,
  SubUserListQuerySchema,
  SubUserSchema,
  TenantInfoSchema,
  TenantSpecRequestSchema,
  UpdateSelfRequestSchema,
  UpdateSelfTenantRequestSchema,
  UpdateSubUserRequestSchema,
  UserTenantValidateQuerySchema,
  UserTenantValidateResponseSchema,
  VerificationCodeRequestSchema,
  VerificationCodeResponseSchema,
} from '../schemas/accounts.ts';
import { pageOf } from '../schemas/common.ts';
import {
  CustomizationSchema,
  PutCustomizationRequestSchema,
  TenantAccountParamsSchema,
  TenantAuditBodySchema,
  TenantAuditParamsSchema,
  TenantAuditQuerySchema,
  TenantAuditStatisticSchema,
  TenantListQuerySchema,
  TenantQuotasSchema,
  TenantQuotasUpdateSchema,
  TenantSchema,
  TenantUpdateRequestSchema,
  TenantUserListQuerySchema,
  TenantUserResetPasswordSchema,
  TenantUserSchema,
} from '../schemas/tenant.ts';
import { defineRoute, IdParams, TenantParams, TenantUserParams } from './define.ts';

/** An avatar image's stored name: 128 random bits and the image type. */
export const AvatarParams = z.object({ file: z.string().regex(/^[0-9a-f]{32}\.(png|jpg|gif|webp)$/) });

/** The caller's own account and tenant (spec §7 "Self" calls); each acts on the caller only. */
export const SelfRoutes = {
  get: defineRoute({ method: 'GET', path: '/tenant/users/self', response: SelfUserDetailSchema, signedIn: true }),
  update: defineRoute({
    method: 'PUT',
    path: '/tenant/users/self',
    body: UpdateSelfRequestSchema,
    response: SelfUserDetailSchema,
    signedIn: true,
  }),
  /** Answers 204. */
  changePassword: defineRoute({ method: 'PUT', path: '/tenant/users/self/password', body: ChangePasswordRequestSchema, signedIn: true }),
  /** Answers 204. */
  changeMobile: defineRoute({ method: 'PUT', path: '/tenant/users/self/mobile', body: ChangeMobileRequestSchema, signedIn: true }),
  /** Answers 204. */
  changeEmail: defineRoute({ method: 'PUT', path: '/tenant/users/self/email', body: ChangeEmailRequestSchema, signedIn: true }),
  /** Body: the image as multipart/form-data (at most AVATAR_MAX_BYTES). */
  setAvatar: defineRoute({ method: 'PUT', path: '/tenant/users/self/avatar', response: AvatarResponseSchema, signedIn: true }),
  /** An avatar image: shown by <img> tags, which send no token; the names are random and unguessable. */
  avatar: defineRoute({ method: 'GET', path: '/tenant/avatars/:file', params: AvatarParams, public: true }),
  tenant: defineRoute({ method: 'GET', path: '/tenant/users/self/tenant', response: TenantInfoSchema, signedIn: true }),
  /** Spec §7 also names GET /tenant/tenant-detail: the caller's tenant. */
  tenantDetail: defineRoute({ method: 'GET', path: '/tenant/tenant-detail', response: TenantInfoSchema, signedIn: true }),
  /** The manager's own tenant (the service checks the caller is its manager). */
  updateTenant: defineRoute({
    method: 'PUT',
    path: '/tenant/users/self/tenant',
    body: UpdateSelfTenantRequestSchema,
    response: TenantInfoSchema,
    signedIn: true,
  }),
  updateTenantSpec: defineRoute({
    method: 'PUT',
    path: '/tenant/users/self/tenant-spec',
    body: TenantSpecRequestSchema,
    response: TenantInfoSchema,
    signedIn: true,
  }),
  /**
   * Spec §4: which login form a name needs. With a name it answers from its form alone; without
   * one, for the caller (a token is then needed).
   */
  isManager: defineRoute({
    method: 'GET',
    path: '/tenant/is-manager',
    query: IsManagerQuerySchema,
    response: IsManagerResponseSchema,
    public: true,
  }),
};

/** Calls made before any login: verification codes, the free-name check, registration, forgotten password. */
export const RegistrationRoutes = {
  /** A code by SMS or e-mail (rate-limited per destination and IP). */
  sendCode: defineRoute({
    method: 'POST',
    path: '/tenant/verification-codes',
    body: VerificationCodeRequestSchema,
    response: VerificationCodeResponseSchema,
    status: 201,
    public: true,
  }),
  validate: defineRoute({
    method: 'GET',
    path: '/tenant/user-tenant-validate',
    query: UserTenantValidateQuerySchema,
    response: UserTenantValidateResponseSchema,
    public: true,
  }),
  register: defineRoute({
    method: 'POST',
    path: '/tenant/user-tenants',
    body: RegistrationRequestSchema,
    response: RegistrationResponseSchema,
    status: 201,
    public: true,
  }),
  /** Answers 204. */
  resetPassword: defineRoute({ method: 'POST', path: '/tenant/reset-password', body: ResetPasswordRequestSchema, public: true }),
};

const users = '/tenant/tenants/:tenant_id/users';

/** Sub-user management (spec §7 /tenant/tenants/{tenant_id}/users): the tenant manager. */
export const SubUserRoutes = {
  list: defineRoute({
    method: 'GET',
    path: users,
    params: TenantParams,
    query: SubUserListQuerySchema,
    response: pageOf(SubUserSchema),
    permission: 'tenant:user:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: users,
    params: TenantParams,
    body: CreateSubUserRequestSchema,
    response: SubUserSchema,
    status: 201,
    permission: 'tenant:user:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${users}/:user_id`,
    params: TenantUserParams,
    response: SubUserSchema,
    permission: 'tenant:user:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${users}/:user_id`,
    params: TenantUserParams,
    body: UpdateSubUserRequestSchema,
    response: SubUserSchema,
    permission: 'tenant:user:update',
  }),
  /** Answers 204. */
  remove: defineRoute({ method: 'DELETE', path: `${users}/:user_id`, params: TenantUserParams, permission: 'tenant:user:delete' }),
  /** A new password, or the default one (the last 8 digits of the mobile) without one; answers 204. */
  resetPassword: defineRoute({
    method: 'POST',
    path: `${users}/:user_id/reset-password`,
    params: TenantUserParams,
    body: ResetSubUserPasswordRequestSchema,
    permission: 'tenant:user:reset-password',
  }),
};

/** Platform administration of tenants (system managers; spec §7 tenant service). */
export const TenantAdminRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/tenant/tenants',
    query: TenantListQuerySchema,
    response: pageOf(TenantSchema),
    permission: 'tenant:tenant:query',
  }),
  audits: defineRoute({
    method: 'GET',
    path: '/tenant/tenant-audits',
    query: TenantAuditQuerySchema,
    response: pageOf(TenantSchema),
    permission: 'tenant:tenant:query',
  }),
  auditStatistic: defineRoute({
    method: 'GET',
    path: '/tenant/tenant-audit-statistic',
    response: TenantAuditStatisticSchema,
    permission: 'tenant:tenant:query',
  }),
  /** Answers the list as a CSV file (text/csv). */
  csv: defineRoute({
    method: 'GET',
    path: '/tenant/tenants-csv-file',
    query: TenantListQuerySchema.omit({ current_page: true, page_size: true }),
    permission: 'tenant:tenant:export',
  }),
  /** One tenant (the system side of GET /tenant/tenant-detail). */
  get: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/:id',
    params: IdParams,
    response: TenantSchema,
    permission: 'tenant:tenant:query',
  }),
  /** The tenant's users, its manager first, with their last login. */
  users: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/:id/accounts',
    params: IdParams,
    query: TenantUserListQuerySchema,
    response: pageOf(TenantUserSchema),
    permission: 'tenant:tenant:query',
  }),
  /** A new password, or the default one (the last 8 digits of the mobile); ends the user's sessions; answers 204. */
  resetUserPassword: defineRoute({
    method: 'POST',
    path: '/tenant/tenants/:id/accounts/:user_id/reset-password',
    params: TenantAccountParamsSchema,
    body: TenantUserResetPasswordSchema,
    permission: 'tenant:tenant:reset-password',
  }),
  /** The spec's tenant quotas (held in the package) with the usage beside each. */
  quotas: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/:id/quotas',
    params: IdParams,
    response: TenantQuotasSchema,
    permission: 'tenant:tenant:query',
  }),
  updateQuotas: defineRoute({
    method: 'PUT',
    path: '/tenant/tenants/:id/quotas',
    params: IdParams,
    body: TenantQuotasUpdateSchema,
    response: TenantQuotasSchema,
    permission: 'tenant:specification:update',
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/tenant/tenants/:id',
    params: IdParams,
    body: TenantUpdateRequestSchema,
    response: TenantSchema,
    permission: 'tenant:tenant:update',
  }),
  /** Passes (`1`) or rejects (`0`) a registered tenant. */
  audit: defineRoute({
    method: 'PUT',
    path: '/tenant/tenants/:id/audit/:pass',
    params: TenantAuditParamsSchema,
    body: TenantAuditBodySchema,
    response: TenantSchema,
    permission: 'tenant:tenant:audit',
  }),
};

/** Tenant customisation (spec §3): page title, language, theme, logo and footer of the caller's own tenant. */
export const CustomizationRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/tenant/tenants/:tenant_id/customization',
    params: TenantParams,
    response: CustomizationSchema,
    signedIn: true,
  }),
  put: defineRoute({
    method: 'PUT',
    path: '/tenant/tenants/:tenant_id/customization',
    params: TenantParams,
    body: PutCustomizationRequestSchema,
    response: CustomizationSchema,
    permission: 'tenant:customization:update',
  }),
};
