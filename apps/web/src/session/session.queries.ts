import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../api/api-error.ts';
import { getStoredCustomization, setPermissionMap, storeCustomization, tokenClaims } from '../api/session-storage.ts';
import { permissionMapOf } from './permission-map.ts';
import { sessionApi } from './session.api.ts';

/** Query keys of the session (factory pattern: every key of this area is built here). */
export const sessionKeys = {
  all: ['session'] as const,
  globalConfig: () => [...sessionKeys.all, 'global-config'] as const,
  user: () => [...sessionKeys.all, 'user'] as const,
  self: () => [...sessionKeys.user(), 'self'] as const,
  privileges: () => [...sessionKeys.user(), 'privileges'] as const,
  tenant: () => [...sessionKeys.user(), 'tenant'] as const,
  customization: (tenantId: string | null) => [...sessionKeys.user(), 'customization', tenantId] as const,
  dashboard: () => [...sessionKeys.user(), 'dashboard'] as const,
};

/** A call the accounts API does not offer (yet, or to this user) answers null instead of failing the screen. */
async function optional<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'http' && (e.status === 404 || e.status === 403 || e.status === 405)) return null;
    throw e;
  }
}

export const globalConfigQuery = () =>
  queryOptions({
    queryKey: sessionKeys.globalConfig(),
    queryFn: ({ signal }) => sessionApi.globalConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
    // Spec §8: a config fetch failure is logged and ignored.
    meta: { silent: true },
  });

export const selfQuery = () =>
  queryOptions({
    queryKey: sessionKeys.self(),
    queryFn: ({ signal }) => optional(() => sessionApi.self(signal)),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });

/**
 * The caller's own account with its personal details (the user centre, the dashboard's read-only
 * flag). A login or logout drops it with every other account's data (`forgetAccountData`).
 */
export const selfDetailKey = [...sessionKeys.user(), 'self-detail'] as const;

export const selfDetailQuery = () => queryOptions({ queryKey: selfDetailKey, queryFn: ({ signal }) => sessionApi.selfDetail(signal) });

export const privilegesQuery = () =>
  queryOptions({
    queryKey: sessionKeys.privileges(),
    queryFn: async ({ signal }) => {
      const p = await optional(() => sessionApi.privileges(signal));
      // The stored map is what the client checks each permission-keyed call against (spec §6).
      setPermissionMap(p ? permissionMapOf(p) : null);
      return p;
    },
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });

export const tenantQuery = () =>
  queryOptions({
    queryKey: sessionKeys.tenant(),
    queryFn: ({ signal }) => optional(() => sessionApi.tenant(signal)),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });

/** Tenant customisation; cached in localStorage so title and footer show at once on the next visit. */
export const customizationQuery = (tenantId: string | null = tokenClaims()?.tid ?? null) =>
  queryOptions({
    queryKey: sessionKeys.customization(tenantId),
    queryFn: async ({ signal }) => {
      if (!tenantId) return getStoredCustomization() ?? {};
      const c = await optional(() => sessionApi.customization(tenantId, signal));
      if (c) storeCustomization(c);
      return c ?? getStoredCustomization() ?? {};
    },
    placeholderData: getStoredCustomization() ?? undefined,
    staleTime: 5 * 60_000,
    // Spec §8: a customisation load failure falls back to defaults and is only logged.
    meta: { silent: true },
  });
