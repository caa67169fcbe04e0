import { type PermissionDef, permissionDef } from '@loggerhead/contract';
import { ApiError, forbidden } from './errors.ts';

/** The caller, passed first to every service function (CONVENTIONS §4). */
export interface Auth {
  userId: string;
  tenantId: string;
  username: string;
  sessionId: string;
  isManager: boolean;
  systemManager: boolean;
  /** Keys granted to a sub-user; null for managers (all tenant keys). */
  grants: ReadonlySet<string> | null;
  /** Read-only session (the experience account, a read-only super-session): every write is refused. */
  readOnly: boolean;
  /**
   * A call made with a tenant API key: only these permission keys (already narrowed to its
   * creator's), and never a route that names no key (docs/decisions/0138-api-keys.md).
   */
  apiKey?: { id: string; name: string; permissions: ReadonlySet<string> };
  /**
   * A web-deploy user's session (docs/decisions/0171-web-deploy-users.md): `userId` and `username`
   * are that user's, `tenantId` the platform's; it holds only the console deploy keys and reaches
   * only /out-web routes.
   */
  webDeploy?: true;
  /** A monitor screen's session (read-only, short-lived): every write is refused, whatever the route. */
  monitor?: true;
  /** A super-session: the system manager who opened this tenant's console as its manager. */
  superSession?: { userId: string; username: string; tenantId: string; readOnly: boolean };
}

/** Throws 403 http.403 unless `auth` may call an API guarded by `key`. */
export function assertPermission(auth: Auth, key: string): void {
  const def: PermissionDef | undefined = permissionDef(key);
  if (!def) throw new Error(`unknown permission key ${key}`);
  if (auth.apiKey && !auth.apiKey.permissions.has(key)) throw forbidden('The API key does not hold this permission');
  if (auth.webDeploy) {
    if (!WEB_DEPLOY_KEYS.has(key)) throw forbidden('A web-deploy user holds only the console deploy keys');
    return;
  }
  if (def.scope === 'system') {
    if (!auth.systemManager) throw forbidden();
    return;
  }
  if (auth.readOnly && !isReadAction(key)) throw forbidden('The experience account is read-only');
  if (def.scope === 'manager') {
    if (!auth.isManager) throw forbidden();
    return;
  }
  if (auth.isManager || auth.systemManager) return;
  if (!auth.grants?.has(key)) throw forbidden();
}

/** What a web-deploy user may do: the console versions, the deploy and server configuration, the deploy log. */
export const WEB_DEPLOY_KEYS: ReadonlySet<string> = new Set(['out-web:deploy:query', 'out-web:deploy:update']);

const READ_ACTIONS = new Set([
  'query',
  'queryone',
  'page',
  'get',
  'export',
  'download',
  'history-aggregation',
  'signal-period',
  'get-desc',
]);

export function isReadAction(key: string): boolean {
  const action = key.split(':')[2] ?? '';
  return READ_ACTIONS.has(action);
}

export function requireAuth(auth: Auth | null): Auth {
  if (!auth) throw new ApiError(401);
  return auth;
}
