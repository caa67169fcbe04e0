import { USER_CONFIG_KEY_RE, USER_CONFIG_MAX_ITEMS } from '@loggerhead/contract';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import type { userConfigRepository } from './user-config.repository.ts';

/** At most this many keys per user (column choices of every table, plus a margin). */
export const USER_CONFIG_MAX_KEYS = 500;

export function userConfigService(repo: ReturnType<typeof userConfigRepository>) {
  return {
    /** `keys` comma-separated; their order is kept. Empty = every key. */
    async get(auth: Auth, keysParam: string) {
      const keys = keysParam
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      if (keys.some((k) => !USER_CONFIG_KEY_RE.test(k)))
        throw new ApiError(400, 'http.400', 'keys: letters, digits, underscore, dot', { field: 'keys' });
      const rows = await repo.get(auth.tenantId, auth.userId, keys.length ? keys : null);
      if (!keys.length) return rows;
      const by = new Map(rows.map((r) => [r.key, r]));
      return keys.flatMap((k) => (by.has(k) ? [by.get(k) as { key: string; value: string }] : []));
    },

    /** The value is JSON; a list (column props) holds at most 30 entries (spec §5: saveMax). */
    async put(auth: Auth, key: string, value: string) {
      if (auth.readOnly) throw forbidden('The experience account is read-only');
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw new ApiError(400, 'http.400', 'value: not JSON', { field: 'value' });
      }
      if (Array.isArray(parsed) && parsed.length > USER_CONFIG_MAX_ITEMS) throw new ApiError(400, 'saveMax', undefined, { field: 'value' });
      const existing = await repo.get(auth.tenantId, auth.userId, null);
      if (existing.length >= USER_CONFIG_MAX_KEYS && !existing.some((r) => r.key === key)) {
        throw new ApiError(400, 'http.400', `At most ${USER_CONFIG_MAX_KEYS} settings per user`);
      }
      await repo.put(auth.tenantId, auth.userId, key, value);
      return { key, value };
    },
  };
}
