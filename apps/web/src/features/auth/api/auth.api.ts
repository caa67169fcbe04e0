import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { api, call } from '../../../api/client.ts';

export const authApi = {
  /** Spec §7: a login code by SMS (type 1). */
  sendLoginCode: (mobile: string, areaCode: string) =>
    call(Routes.registration.sendCode, { body: { type: 1, destination: mobile, area_code: areaCode, purpose: 'login' } }),
  /** The read-only experience tenant (shown when the global config offers it). */
  experience: () => api.post<LoginResponse>('/control/sessions/experience', {}, { auth: false }),
};
