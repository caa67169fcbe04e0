import type { PermissionMap } from '@loggerhead/contract/permissions.ts';

/**
 * What "signed in" means on this side (spec §4): a token in localStorage. The keys
 * `token` and `ujwt` are the ones the spec names; the rest support logout and the
 * local permission check (§6).
 */
const KEYS = {
  token: 'token',
  ujwt: 'ujwt',
  sessionId: 'session_id',
  username: 'username',
  permissions: 'permissionMap',
  customization: 'customization',
} as const;

/**
 * A window opened with a token in its address (the monitor screen, spec §2 `/Watch?token=…`) holds
 * that session for itself: in its own `sessionStorage`, marked by this key, and every key of the
 * session (token, permission map, …) is then read and written there. The console's session in
 * `localStorage`, which every other tab shares, is never replaced by an address
 * (docs/decisions/0207-links-never-replace-a-session.md).
 */
const TAB_SESSION = 'lh.tabSession';

function session(): Storage | undefined {
  return tabStorage()?.getItem(TAB_SESSION) ? globalThis.sessionStorage : globalThis.localStorage;
}

function tabStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): string | null {
  try {
    return session()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    const store = session();
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch {}
}

/**
 * This tab's own session, from a token its address brought: kept in this tab alone, apart from the
 * console's session (which stays as it was, for this tab's later logins and for every other tab).
 */
export function holdTabSession(token: string): void {
  try {
    const tab = tabStorage();
    if (!tab) return;
    for (const key of Object.values(KEYS)) tab.removeItem(key);
    tab.setItem(TAB_SESSION, '1');
    tab.setItem(KEYS.token, token);
  } catch {}
}

/** Whether this tab holds a session of its own (holdTabSession). */
export function hasTabSession(): boolean {
  try {
    return Boolean(tabStorage()?.getItem(TAB_SESSION));
  } catch {
    return false;
  }
}

export function getToken(): string | null {
  return read(KEYS.token);
}

export function getUjwt(): string | null {
  return read(KEYS.ujwt);
}

export function getSessionId(): string | null {
  return read(KEYS.sessionId) ?? tokenClaims()?.sid ?? null;
}

export function getLoginName(): string | null {
  return read(KEYS.username);
}

/** A login's session: the console's own, shared by the tabs; a tab that held one of its own lets it go. */
export function storeSession(s: { token: string; ujwt?: string | null; session_id?: string | null; username?: string | null }): void {
  dropTabSession();
  write(KEYS.token, s.token);
  if (s.ujwt !== undefined) write(KEYS.ujwt, s.ujwt);
  if (s.session_id !== undefined) write(KEYS.sessionId, s.session_id);
  if (s.username !== undefined) write(KEYS.username, s.username);
}

/**
 * Logout and 401: token, session, permission map and the cached customisation all go — the tab's
 * own session when it holds one (the console's session in the other tabs is not this tab's to end).
 */
export function clearSession(): void {
  if (hasTabSession()) {
    dropTabSession();
    return;
  }
  for (const key of Object.values(KEYS)) write(key, null);
}

function dropTabSession(): void {
  try {
    const tab = tabStorage();
    if (!tab?.getItem(TAB_SESSION)) return;
    for (const key of Object.values(KEYS)) tab.removeItem(key);
    tab.removeItem(TAB_SESSION);
  } catch {}
}

export interface TokenClaims {
  /** session id */
  sid?: string;
  /** user id */
  sub?: string;
  /** tenant id */
  tid?: string;
  exp?: number;
  /** A monitor screen's session (read-only, short-lived). */
  mon?: boolean;
}

/** The token is a JWT; its payload tells tenant and user even before the accounts API answers. */
export function tokenClaims(token: string | null = getToken()): TokenClaims | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const claims = JSON.parse(json) as unknown;
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** Spec §6: non-managers keep a map of allowed API names; managers have none. */
export function getPermissionMap(): PermissionMap | null {
  const raw = read(KEYS.permissions);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PermissionMap;
  } catch {
    return null;
  }
}

export function setPermissionMap(map: PermissionMap | null): void {
  write(KEYS.permissions, map ? JSON.stringify(map) : null);
}

export type Customization = Record<string, string>;

export function getStoredCustomization(): Customization | null {
  const raw = read(KEYS.customization);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as Customization;
  } catch {
    return null;
  }
}

const customizationListeners = new Set<() => void>();

export function storeCustomization(c: Customization | null): void {
  write(KEYS.customization, c ? JSON.stringify(c) : null);
  for (const fn of customizationListeners) fn();
}

/** Called whenever the stored customisation changes (loaded, saved, cleared at logout). */
export function subscribeCustomization(fn: () => void): () => void {
  customizationListeners.add(fn);
  return () => customizationListeners.delete(fn);
}
