import { UserConfigRoutes } from '@loggerhead/contract/routes/user-config.ts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** Per-user column choices, stored through the user-self config API (spec §3, §7). */
export const columnPrefsKeys = {
  all: ['data-view', 'column-prefs'] as const,
  table: (configKey: string) => [...columnPrefsKeys.all, configKey] as const,
};

export const columnPrefsApi = {
  get: (configKey: string, signal?: AbortSignal) => call(UserConfigRoutes.get, { query: { keys: configKey }, signal }),
  put: (configKey: string, props: string[]) => call(UserConfigRoutes.put, { body: { key: configKey, value: JSON.stringify(props) } }),
};

/** The saved value, or null; a failure only falls back to the default columns (spec §8). */
export const columnPrefsQuery = (configKey: string) =>
  queryOptions({
    queryKey: columnPrefsKeys.table(configKey),
    queryFn: async ({ signal }) => {
      const list = await columnPrefsApi.get(configKey, signal).catch(() => []);
      return list.find((e) => e.key === configKey)?.value ?? list[0]?.value ?? null;
    },
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silent: true },
  });
