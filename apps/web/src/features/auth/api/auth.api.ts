import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { api } from '../../../api/client.ts';

export const authApi = {
  /** Spec §7: a login code by SMS (type 1). */
  sendLoginCode: (mobile: string, areaCode: string) =>
    api.post<void>('/tenant/verification-codes', { type: 1, destination: mobile, area_code: areaCode, purpose: 'login' }, { auth: false }),
  /** The read-only experience tenant (shown when the global config offers it). */
  experience: () => api.post<LoginResponse>('/control/sessions/experience', {}, { auth: false }),
};
