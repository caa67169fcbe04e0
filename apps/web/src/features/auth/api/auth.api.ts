import { Routes } from '@loggerhead/contract/routes/index.ts';
import { call, routeUrl } from '../../../api/client.ts';

export const authApi = {
  /** Spec §7: a login code by SMS (type 1). */
  sendLoginCode: (mobile: string, areaCode: string) =>
    call(Routes.registration.sendCode, { body: { type: 1, destination: mobile, area_code: areaCode, purpose: 'login' } }),
  /** The read-only experience tenant (shown when the global config offers it). */
  experience: () => call(Routes.session.experience, {}),
  /**
   * Where the third-party login icon leads (a navigation: the server redirects to the provider),
   * with the state this tab stored for the return (without it the server refuses the login).
   */
  oidcAuthorizeUrl: (prePath: string, browserState?: string) =>
    routeUrl(Routes.oidc.authorize, { query: { prePath, ...(browserState ? { browserState } : {}) } }),
  /** The return's one-time code, with this tab's stored state, for the session. */
  oidcExchange: (code: string, state: string) => call(Routes.oidc.exchange, { body: { code, state } }),
};
