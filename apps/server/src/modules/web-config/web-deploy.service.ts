import { createHash, randomBytes } from 'node:crypto';
import { WEB_DEPLOY_TOKEN_PREFIX } from '@loggerhead/contract';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, forbidden } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import type { DeployUserRow, WebDeployRepository } from './web-deploy.repository.ts';
import type { WebVersionsRepository } from './web-versions.repository.ts';

/** Wrong passwords in a row before a web-deploy user's name is locked, and for how long. */
const LOCK_AFTER_FAILURES = 5;
const LOCK_MINUTES = 15;

let dummyHash: Promise<string> | null = null;
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const userView = (u: DeployUserRow) => ({
  id: u.id,
  username: u.username,
  created_at: new Date(u.created_at).getTime(),
  last_login_at: u.last_login_at ? new Date(u.last_login_at).getTime() : null,
});

/** Only a system manager (not a web-deploy user, not in a tenant's super-session) manages web-deploy users. */
function manager(auth: Auth): Auth {
  if (auth.webDeploy || !auth.systemManager) throw forbidden('Only a system manager manages web-deploy users');
  return auth;
}

/**
 * Web deployment (spec §7 /out-web, docs/decisions/0171-web-deploy-users.md): the saved deploy
 * configuration, the server configuration, and the web-deploy users, whose sessions hold only the
 * deploy keys and reach only /out-web. Every change, login (refused ones too) and logout is written
 * to the deploy log with who did it.
 */
export function webDeployService(deps: { repo: WebDeployRepository; log: WebVersionsRepository['log']; sessionTtl: number }) {
  const { repo, log } = deps;
  let platformTenant: string | null = null;

  return {
    /** Spec §7 deploy/config/info: the saved resourcePath; isDebug 1 when saved so or when the page path contains "debug". */
    async deployInfo(pagePath?: string) {
      const c = await repo.config();
      return { resourcePath: c.resource_path, isDebug: c.is_debug === 1 || pagePath?.includes('debug') ? 1 : 0 };
    },
    async saveDeployConfig(auth: Auth, c: { resourcePath: string; isDebug: 0 | 1 }) {
      await repo.saveDeployConfig(c.resourcePath, c.isDebug);
      await log('config-save', `resourcePath=${c.resourcePath} isDebug=${c.isDebug}`, auth);
      const saved = await repo.config();
      return { resourcePath: saved.resource_path, isDebug: saved.is_debug === 1 ? (1 as const) : (0 as const) };
    },
    async serverConfig() {
      return (await repo.config()).server_config;
    },
    async saveServerConfig(auth: Auth, config: Record<string, string>) {
      await repo.saveServerConfig(config);
      await log('server-config', Object.keys(config).sort().join(',').slice(0, 500), auth);
      return (await repo.config()).server_config;
    },

    async users(auth: Auth) {
      manager(auth);
      return (await repo.users()).map(userView);
    },
    async create(auth: Auth, body: { username: string; password: string }) {
      manager(auth);
      const u = await repo.insertUser(body.username, await hashPassword(body.password), auth.userId);
      if (!u) throw ApiError.of('web.user-exists', undefined, { field: 'username' });
      await log('user-create', u.username, auth);
      return userView(u);
    },
    async remove(auth: Auth, id: string) {
      manager(auth);
      const u = await repo.deleteUser(id);
      if (!u) throw ApiError.of('web.user-not-found');
      await log('user-delete', u.username, auth);
    },
    /** A web-deploy user's own password (the current one checked), or a system manager setting any. */
    async password(auth: Auth, body: { id?: string; old_password?: string; password: string }) {
      let target: DeployUserRow | null;
      if (auth.webDeploy) {
        if (body.id && body.id !== auth.userId) throw forbidden('A web-deploy user changes only its own password');
        target = await repo.user(auth.userId);
        if (!target) throw new ApiError(401);
        if (!body.old_password || !(await verifyPassword(body.old_password, target.password_hash)))
          throw ApiError.of('web.wrong-password', undefined, { field: 'old_password' });
      } else {
        manager(auth);
        if (!body.id) throw badRequest('http.400', 'id: the web-deploy user', 'id');
        target = await repo.user(body.id);
        if (!target) throw ApiError.of('web.user-not-found');
      }
      await repo.setPassword(target.id, await hashPassword(body.password));
      // Whoever knew the old password is signed out (the user keeps the session it changed it in).
      await repo.endSessionsOf(target.id, auth.webDeploy ? auth.sessionId : null);
      await log('password', target.username, auth);
    },

    async login(username: string, password: string, ip: string) {
      const u = await repo.userByName(username);
      const refused = async (code: 'web.login-failed' | 'web.user-locked') => {
        await log(code === 'web.user-locked' ? 'login-locked' : 'login-failed', ip, {
          userId: u?.id ?? '',
          username: username.slice(0, 64),
          webDeploy: true,
        });
        return ApiError.of(code);
      };
      if (u?.locked_until && new Date(u.locked_until).getTime() > Date.now()) throw await refused('web.user-locked');
      // A name that does not exist costs the same time as a wrong password.
      dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
      const ok = await verifyPassword(password, u?.password_hash ?? (await dummyHash));
      if (!u || !ok) {
        if (u) await repo.loginFailed(u.id, LOCK_AFTER_FAILURES, LOCK_MINUTES);
        throw await refused('web.login-failed');
      }
      await repo.loginSucceeded(u.id);
      const token = `${WEB_DEPLOY_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const expires = await repo.insertSession(u.id, digest(token), deps.sessionTtl, ip);
      await log('login', ip, { userId: u.id, username: u.username, webDeploy: true });
      return { token, username: u.username, expires_at: new Date(expires).getTime() };
    },
    async logout(auth: Auth) {
      if (!auth.webDeploy) throw forbidden('Only a web-deploy session is ended here');
      await repo.endSession(auth.sessionId);
      await log('logout', '', auth);
    },

    /** The caller of a web-deploy token, or null when it is unknown, ended or expired. */
    async authenticate(token: string): Promise<Auth | null> {
      const s = await repo.session(digest(token));
      if (!s) return null;
      platformTenant ??= await repo.platformTenant();
      if (!platformTenant) return null;
      return {
        userId: s.user_id,
        tenantId: platformTenant,
        username: s.username,
        sessionId: s.id,
        isManager: false,
        systemManager: false,
        grants: null,
        readOnly: false,
        webDeploy: true,
      };
    },
    purgeSessions: () => repo.purgeSessions(),
  };
}
export type WebDeployService = ReturnType<typeof webDeployService>;
