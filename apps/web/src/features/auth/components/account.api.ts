import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const R = Routes.registration;

/** The public account calls of spec §7 (no session): codes, field checks, registration, password reset. */
export const accountApi = {
  /** type 1 SMS, 2 e-mail. */
  sendCode: (type: 1 | 2, destination: string, purpose: 'register' | 'modify', areaCode?: string) =>
    call(R.sendCode, { body: { type, destination, purpose, area_code: type === 1 ? areaCode : undefined } }),
  validate: (field: 'mobile' | 'name', value: string, areaCode?: string) =>
    call(R.validate, { query: { field, value, area_code: areaCode } }),
  register: (body: RouteBody<typeof R.register>) => call(R.register, { body }),
  resetPassword: (body: RouteBody<typeof R.resetPassword>) => call(R.resetPassword, { body }),
};
