import { type Dashboard, DEFAULT_DASHBOARD_TYPE, defaultDashboardName } from '@loggerhead/contract/schemas/dashboard.ts';
import type { LoginResponse, Privileges, SelfUser } from '@loggerhead/contract/schemas/session.ts';
import type { QueryClient } from '@tanstack/react-query';
import { clearSession, getSessionId, getToken, storeCustomization, storeSession, tokenClaims } from '../api/session-storage.ts';
import { currentLang } from '../i18n/setup.ts';
import { landingPath, roleOf, visibleMenus } from './menus.ts';
import { sessionApi } from './session.api.ts';
import { customizationQuery, globalConfigQuery, privilegesQuery, selfQuery, sessionKeys, tenantQuery } from './session.queries.ts';

export function isSignedIn(): boolean {
  return getToken() !== null;
}

/**
 * After a successful login (spec §4): keep token and ujwt, then load global config,
 * privileges, own user, tenant and customisation — each where the server offers it.
 * A tenant language differing from the current locale is saved back to customisation.
 */
/** Stores the session, loads what the console needs, and says where the user lands (`landingPath`). */
export async function startSession(qc: QueryClient, res: LoginResponse, username: string): Promise<string> {
  storeSession({ token: res.token, ujwt: res.ujwt, session_id: res.session_id, username });
  forgetAccountData(qc);
  const settle = <T>(p: Promise<T>) => p.catch(() => null);
  const [config, privileges, self] = await Promise.all([
    settle(qc.fetchQuery(globalConfigQuery())),
    settle(qc.fetchQuery(privilegesQuery())),
    settle(qc.fetchQuery(selfQuery())),
    settle(qc.fetchQuery(tenantQuery())),
  ]);
  const tenantId = self?.tenant_id ?? tokenClaims(res.token)?.tid ?? null;
  const customization = await settle(qc.fetchQuery(customizationQuery(tenantId)));
  const lang = currentLang();
  if (tenantId && customization?.systemLanguage && customization.systemLanguage !== lang && canCustomize(self, privileges)) {
    await settle(sessionApi.saveCustomization(tenantId, { ...customization, systemLanguage: lang }));
  }
  if (tenantId) qc.setQueryData(sessionKeys.dashboard(), await settle(loadDefaultDashboard(tenantId, self, privileges)));
  return landingPath(visibleMenus({ role: roleOf(self, privileges), globalMenu: config?.menu, boundMenus: privileges?.menus }));
}

/** Spec §4: the tenant's default dashboard; when there is none the manager creates it, others use the first. */
export async function loadDefaultDashboard(tenantId: string, self: SelfUser | null, p: Privileges | null): Promise<Dashboard | null> {
  const { list } = await sessionApi.dashboards(tenantId, DEFAULT_DASHBOARD_TYPE);
  if (list[0]) return list[0];
  const manager = Boolean(self?.isManager || p?.tenant_manager) && !self?.systemManager;
  if (!manager || !self) return null;
  return sessionApi.createDashboard(tenantId, { business_type: DEFAULT_DASHBOARD_TYPE, name: defaultDashboardName(self.id) });
}

function canCustomize(self: SelfUser | null, p: Privileges | null): boolean {
  return Boolean(self?.isManager || self?.systemManager || p?.tenant_manager || p?.system_manager);
}

/** Spec §4 logout: delete the session, clear customisation and token, go to /Login. */
export async function endSession(qc: QueryClient): Promise<void> {
  const sessionId = getSessionId();
  if (sessionId) await sessionApi.logout(sessionId).catch(() => {});
  clearSession();
  storeCustomization(null);
  forgetAccountData(qc);
}

/**
 * Everything cached for an account (devices, lists, the user's own details, …) goes when a session
 * starts or ends: the next account in this browser must never see the last one's data, whatever key
 * a feature filed it under. Only the console's pre-login configuration stays.
 */
export function forgetAccountData(qc: QueryClient): void {
  const keep = JSON.stringify(sessionKeys.globalConfig());
  qc.removeQueries({ predicate: (q) => JSON.stringify(q.queryKey) !== keep });
}
