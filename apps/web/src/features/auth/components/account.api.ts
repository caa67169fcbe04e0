import type { RegistrationRequest, ResetPasswordRequest } from '@loggerhead/contract/schemas/accounts.ts';
import { api } from '../../../api/client.ts';

/** The public account calls of spec §7 (no session): codes, field checks, registration, password reset. */
export const accountApi = {
  /** type 1 SMS, 2 e-mail. */
  sendCode: (type: 1 | 2, destination: string, purpose: 'register' | 'modify', areaCode?: string) =>
    api.post<{ expires_in: number; resend_in: number }>(
      '/tenant/verification-codes',
      { type, destination, purpose, area_code: type === 1 ? areaCode : undefined },
      { auth: false },
    ),
  validate: (field: 'mobile' | 'name', value: string, areaCode?: string) =>
    api.get<{ field: string; valid: true }>('/tenant/user-tenant-validate', { query: { field, value, area_code: areaCode }, auth: false }),
  register: (body: RegistrationRequest) =>
    api.post<{ tenant_id: string; user_id: string; status: number }>('/tenant/user-tenants', body, { auth: false }),
  resetPassword: (body: ResetPasswordRequest) => api.post<void>('/tenant/reset-password', body, { auth: false }),
};
