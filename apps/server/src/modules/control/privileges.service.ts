import { MENU_KEYS, PERMISSIONS, type Privileges } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { type Auth, isReadAction } from '../../lib/auth.ts';
import { privilegesRepository } from './privileges.repository.ts';

/**
 * Spec §3 tenant permission info. A sub-user gets its granted keys and bound
 * menus; a manager every key it holds (the console drops the map for managers,
 * spec §4) and every menu. The experience account only holds read keys.
 */
export async function privilegesOf(raw: RawSql, auth: Auth): Promise<Privileges> {
  let keys: string[];
  let menus: string[];
  if (auth.isManager || auth.systemManager) {
    keys = PERMISSIONS.filter((p) => p.scope !== 'system' || auth.systemManager).map((p) => p.key);
    menus = [...MENU_KEYS];
  } else {
    const granted = auth.grants ?? new Set<string>();
    keys = PERMISSIONS.filter((p) => (p.scope !== 'system' && p.scope !== 'manager' ? granted.has(p.key) : false)).map((p) => p.key);
    menus = await privilegesRepository(raw).menus(auth.tenantId, auth.userId);
  }
  if (auth.readOnly) keys = keys.filter(isReadAction);
  return {
    tenant_manager: auth.isManager,
    system_manager: auth.systemManager,
    apis: keys.map((name) => ({ name })),
    menus,
    // Said only of a read-only session; other answers keep the spec's four fields.
    ...(auth.readOnly ? { read_only: true } : {}),
    ...(auth.superSession
      ? {
          super_session: {
            by: auth.superSession.username,
            tenant_name: (await privilegesRepository(raw).tenantName(auth.tenantId)) ?? '',
            read_only: auth.superSession.readOnly,
          },
        }
      : {}),
  };
}
