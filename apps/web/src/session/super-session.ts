import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { clearSession, getLoginName, getSessionId, getToken, getUjwt, storeCustomization, storeSession } from '../api/session-storage.ts';
import { sessionApi } from './session.api.ts';

/** Where the system manager's own session waits while it looks at a tenant's console. */
const RETURN_KEY = 'superReturn';

/**
 * Super-session (spec §7): the system manager's session is put aside and the tenant's console opens
 * in this tab under the super-session's token; `leaveSuperSession` ends it and brings the manager back.
 */
export function enterSuperSession(opened: LoginResponse): void {
  const own = { token: getToken(), ujwt: getUjwt(), session_id: getSessionId(), username: getLoginName() };
  globalThis.localStorage?.setItem(RETURN_KEY, JSON.stringify(own));
  clearSession();
  storeCustomization(null);
  storeSession({ token: opened.token, ujwt: opened.ujwt, session_id: opened.session_id });
  globalThis.location.assign('/Container/HomePage');
}

export async function leaveSuperSession(): Promise<void> {
  const sessionId = getSessionId();
  if (sessionId) await sessionApi.logout(sessionId).catch(() => {});
  const saved = globalThis.localStorage?.getItem(RETURN_KEY);
  globalThis.localStorage?.removeItem(RETURN_KEY);
  clearSession();
  storeCustomization(null);
  const own = saved
    ? (JSON.parse(saved) as { token: string | null; ujwt: string | null; session_id: string | null; username: string | null })
    : null;
  if (own?.token) {
    storeSession({ token: own.token, ujwt: own.ujwt, session_id: own.session_id, username: own.username });
    globalThis.location.assign('/Container/SystemManager/SystemSetting?tab=tenants');
  } else globalThis.location.assign('/Login');
}
