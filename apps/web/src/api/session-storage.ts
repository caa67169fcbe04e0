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

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {}
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

export function storeSession(s: { token: string; ujwt?: string | null; session_id?: string | null; username?: string | null }): void {
  write(KEYS.token, s.token);
  if (s.ujwt !== undefined) write(KEYS.ujwt, s.ujwt);
  if (s.session_id !== undefined) write(KEYS.sessionId, s.session_id);
  if (s.username !== undefined) write(KEYS.username, s.username);
}

/** Logout and 401: token, session, permission map and the cached customisation all go. */
export function clearSession(): void {
  for (const key of Object.values(KEYS)) write(key, null);
}

export interface TokenClaims {
  /** session id */
  sid?: string;
  /** user id */
  sub?: string;
  /** tenant id */
  tid?: string;
  exp?: number;
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
