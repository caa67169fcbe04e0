import { Routes } from '@loggerhead/contract/routes/index.ts';
import { call, routeUrl } from '../../../api/client.ts';

export const authApi = {
  /** Spec §7: a login code by SMS (type 1). */
  sendLoginCode: (mobile: string, areaCode: string) =>
    call(Routes.registration.sendCode, { body: { type: 1, destination: mobile, area_code: areaCode, purpose: 'login' } }),
  /** The read-only experience tenant (shown when the global config offers it). */
  experience: () => call(Routes.session.experience, {}),
  /** Where the third-party login icon leads (a navigation: the server redirects to the provider). */
  oidcAuthorizeUrl: (prePath: string) => routeUrl(Routes.oidc.authorize, { query: { prePath } }),
};
