import { CODE_RE, LOGIN_NAME_RE, type LoginRequest, type LoginResponse } from '@loggerhead/contract';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import type { ControlRepository, SessionUser } from './control.repository.ts';
import type { TokenSigner } from './tokens.ts';

export const LOCK_AFTER_FAILURES = 5;
/** bcrypt (cost 10) of a random string nobody knows. */
const UNKNOWN_USER_HASH = '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.Gb6mP0QZ0p6uJ1rqhAqR0b7uQm6e';
export const LOCK_MINUTES = 15;
/** A super-session lasts at most an hour (seconds). */
export const SUPER_SESSION_TTL = 3600;
/** A monitor screen's session lasts at most twelve hours (seconds): a shift in front of a wall screen. */
export const MONITOR_SESSION_TTL = 12 * 3600;
/** Ended sessions (logged out, ended by a change, expired) are kept this long, then deleted. */
export const ENDED_SESSION_KEEP_DAYS = 7;

/** Checks (and uses up) a login code sent to a mobile; supplied by the accounts module. */
export type LoginCodeVerifier = (mobile: string, code: string) => Promise<boolean>;

/** Grants of a sub-user, loaded per request; supplied by the accounts module. */
export type GrantsLoader = (userId: string) => Promise<ReadonlySet<string>>;

export interface ControlDeps {
  repo: ControlRepository;
  signer: TokenSigner;
  sessionTtl: number;
  loadGrants: GrantsLoader;
  now?: () => Date;
  /** How long a resolved session is reused without asking the database (ms; 0 = never). */
  sessionCacheMs?: number;
}

/** Default reuse time of a resolved session: short, so a change made by another server copy shows soon. */
export const SESSION_CACHE_MS = 5_000;
/** Bound of the session cache; past it, it starts over. */
const SESSION_CACHE_MAX = 10_000;

/** What the session cache forgets: one session, a user's sessions, a tenant's, or everything. */
export type SessionScope = { sessionId: string } | { userId: string; exceptSessionId?: string } | { tenantId: string } | 'all';

/**
 * Why sessions end, as their open sockets are told: `ended` — logged out, expired, password
 * changed (sign in again; close code 4401); `withdrawn` — the account, its rights or devices, or its
 * tenant changed or was disabled (no longer allowed; close code 4403).
 */
export type SessionEndReason = 'ended' | 'withdrawn';

/** Hears every end of sessions made in this process (the live sockets close theirs and tell the other copies). */
export type SessionEndListener = (scope: SessionScope, reason: SessionEndReason) => void;

/** A token as checked for a socket: the caller and when its session expires, or why it is refused. */
export type SessionCheck = { auth: Auth; expiresAt: number } | { refused: SessionEndReason };

/** Whether the session of `a` is one of `scope`. */
export function inScope(a: Auth, scope: SessionScope): boolean {
  if (scope === 'all') return true;
  if ('sessionId' in scope) return a.sessionId === scope.sessionId;
  if ('userId' in scope) return a.userId === scope.userId && a.sessionId !== scope.exceptSessionId;
  return a.tenantId === scope.tenantId;
}

interface CachedAuth {
  auth: Auth;
  /** The session's own expiry (ms). */
  expiresAt: number;
  /** Reuse until (ms). */
  until: number;
}

export function controlService(deps: ControlDeps) {
  const now = deps.now ?? (() => new Date());
  let codeVerifier: LoginCodeVerifier | null = null;
  // Bearer token -> resolved caller. Each API call resolves its token; on PGlite that lookup
  // costs ~11 ms of CPU, so a resolved session is reused for a few seconds. Whatever ends or
  // narrows a session in this process (logout, revocation, permission or status change)
  // removes its entries at once (forgetSessions; endSessions when the sessions end).
  const cache = new Map<string, CachedAuth>();
  const cacheMs = deps.sessionCacheMs ?? SESSION_CACHE_MS;
  const endListeners = new Set<SessionEndListener>();

  function forgetSessions(scope: SessionScope): void {
    if (scope === 'all') {
      cache.clear();
      return;
    }
    for (const [token, c] of cache) if (inScope(c.auth, scope)) cache.delete(token);
  }

  /**
   * Every session-ending change goes through here once its rows are written: the cache forgets the
   * sessions and the listeners (open sockets) hear why.
   */
  function endSessions(scope: SessionScope, reason: SessionEndReason): void {
    forgetSessions(scope);
    for (const listener of endListeners) listener(scope, reason);
  }

  async function resolve(token: string): Promise<SessionCheck> {
    const claims = await deps.signer.verify(token);
    if (!claims) return { refused: 'ended' };
    const s = await deps.repo.loadSession(claims.sid);
    if (!s || s.session.revokedAt || s.session.expiresAt <= now() || s.user.id !== claims.sub) return { refused: 'ended' };
    if (s.user.status !== 1 || s.tenant.status !== 1) return { refused: 'withdrawn' };
    const manager = s.user.isManager || s.user.systemManager;
    let superSession: Auth['superSession'];
    if (s.session.actingUserId) {
      // The system manager who opened it must still be one, and enabled.
      const by = await deps.repo.findUser(s.session.actingUserId);
      if (!by?.systemManager || by.status !== 1) return { refused: 'withdrawn' };
      superSession = { userId: by.id, username: by.username, tenantId: by.tenantId, readOnly: s.session.readOnly };
    }
    const auth: Auth = {
      userId: s.user.id,
      tenantId: s.user.tenantId,
      username: s.user.username,
      sessionId: s.session.id,
      isManager: s.user.isManager,
      systemManager: s.user.systemManager,
      grants: manager ? null : await deps.loadGrants(s.user.id),
      readOnly: s.tenant.isDemo || s.session.readOnly,
      ...(superSession ? { superSession } : {}),
      // A read-only session no system manager opened is a monitor screen's (openMonitorSession).
      ...(s.session.readOnly && !s.session.actingUserId ? { monitor: true as const } : {}),
    };
    return { auth: Object.freeze(auth), expiresAt: s.session.expiresAt.getTime() };
  }

  async function check(token: string, opts: { fresh?: boolean } = {}): Promise<SessionCheck> {
    const t = now().getTime();
    const hit = cache.get(token);
    if (hit && !opts.fresh && hit.until > t && hit.expiresAt > t) return { auth: hit.auth, expiresAt: hit.expiresAt };
    if (hit) cache.delete(token);
    const found = await resolve(token);
    if (!('auth' in found)) return found;
    if (cacheMs > 0) {
      if (cache.size >= SESSION_CACHE_MAX) cache.clear();
      cache.set(token, { ...found, until: t + cacheMs });
    }
    return found;
  }

  function assertTenantOpen(tenant: SessionUser['tenant'], user: SessionUser['user']) {
    if (tenant.status === 0) throw new ApiError(403, 'iot-tenant.10016');
    if (tenant.status !== 1 || user.status !== 1) throw new ApiError(403, 'http.403', 'This account is disabled');
  }

  async function issue(
    user: SessionUser['user'],
    ip: string,
    userAgent: string | null,
    acting?: { userId: string; readOnly: boolean },
    monitor = false,
  ): Promise<LoginResponse> {
    let ttl = acting ? Math.min(deps.sessionTtl, SUPER_SESSION_TTL) : deps.sessionTtl;
    if (monitor) ttl = Math.min(ttl, MONITOR_SESSION_TTL);
    const expiresAt = new Date(now().getTime() + ttl * 1000);
    const session = await deps.repo.createSession({
      userId: user.id,
      tenantId: user.tenantId,
      expiresAt,
      ip,
      userAgent,
      actingUserId: acting?.userId,
      readOnly: monitor || acting?.readOnly,
    });
    const claims = { sid: session.id, sub: user.id, tid: user.tenantId, ...(monitor ? { mon: true as const } : {}) };
    return {
      token: await deps.signer.sign(claims, 'console', expiresAt),
      ujwt: await deps.signer.sign(claims, 'ujwt', expiresAt),
      session_id: session.id,
      expires_at: expiresAt.getTime(),
    };
  }

  return {
    issue,

    /** The accounts module plugs in the code check used by code login (type 2). */
    useCodeVerifier(fn: LoginCodeVerifier) {
      codeVerifier = fn;
    },

    /**
     * Password login (type 1). Wrong name and wrong password answer alike, and so does the
     * lock-out: failures are counted per login name as typed, whether an account has it or not,
     * and the fifth locks the name for LOCK_MINUTES (423 with the seconds left) before any
     * password is looked at. An account also locks after five failures through any of its
     * names (username, mobile) or the password re-confirmation; while it is, every login to it
     * fails as a wrong password would (401), even with the right one, so that no answer tells a
     * real account from a name nobody has.
     * `managerOnly`: the tenant-manager session call (spec §4) never opens a sub-user session.
     */
    async loginWithPassword(req: LoginRequest, ip: string, userAgent: string | null, managerOnly = false): Promise<LoginResponse> {
      if (!req.username) throw new ApiError(400, '001', undefined, { field: 'username' });
      if (!req.password) throw new ApiError(400, '022', undefined, { field: 'password' });
      const login = req.username.trim();
      if (!LOGIN_NAME_RE.test(login)) throw new ApiError(400, '003', undefined, { field: 'username' });
      const nameLock = await deps.repo.nameLockedUntil(login);
      if (nameLock && nameLock > now()) {
        const seconds = Math.ceil((nameLock.getTime() - now().getTime()) / 1000);
        throw new ApiError(423, 'auth.locked', undefined, { details: { seconds } });
      }
      const lockUntil = () => new Date(now().getTime() + LOCK_MINUTES * 60_000);
      let checked = false;
      for (const { user, tenant } of await deps.repo.findForLogin(login)) {
        if (managerOnly && user.parentUserId) continue;
        const right = await verifyPassword(req.password, user.passwordHash);
        checked = true;
        if (user.lockedUntil && user.lockedUntil > now()) continue;
        if (!right) {
          await deps.repo.recordFailure(user.id, user.failedLogins + 1 >= LOCK_AFTER_FAILURES ? lockUntil() : null);
          continue;
        }
        assertTenantOpen(tenant, user);
        await deps.repo.recordSuccess(user.id, ip);
        await deps.repo.clearNameFailures(login);
        return issue(user, ip, userAgent);
      }
      // An unknown name costs the same bcrypt work as a known one: the answer time tells nothing.
      if (!checked) await verifyPassword(req.password, UNKNOWN_USER_HASH);
      await deps.repo.recordNameFailure(login, LOCK_AFTER_FAILURES, lockUntil());
      throw new ApiError(401, 'auth.bad-credentials');
    },

    /**
     * Code login (type 2): username is the main account's mobile, password the SMS
     * code (purpose login). The code is checked first, so only whoever received it
     * learns whether the number has an account.
     */
    async loginWithCode(req: LoginRequest, ip: string, userAgent: string | null): Promise<LoginResponse> {
      const mobile = req.username?.trim();
      if (!mobile) throw new ApiError(400, '002', undefined, { field: 'username' });
      if (!CODE_RE.test(req.password ?? '')) throw new ApiError(400, '014', undefined, { field: 'password' });
      if (!codeVerifier || !(await codeVerifier(mobile, req.password))) throw new ApiError(401, 'auth.bad-code');
      const found = (await deps.repo.findForLogin(mobile)).find((c) => c.user.mobile === mobile && !c.user.parentUserId);
      if (!found) throw new ApiError(401, 'auth.phone-not-registered');
      assertTenantOpen(found.tenant, found.user);
      await deps.repo.recordSuccess(found.user.id, ip);
      return issue(found.user, ip, userAgent);
    },

    /**
     * Opens a session for an account a third-party login resolved to (the caller has
     * checked that account and its tenant are open). Null when the user is gone.
     */
    async loginLinked(userId: string, ip: string, userAgent: string | null): Promise<LoginResponse | null> {
      const user = await deps.repo.findUser(userId);
      if (!user) return null;
      await deps.repo.recordSuccess(user.id, ip);
      return issue(user, ip, userAgent);
    },

    /** The read-only experience account (spec §2 login page button). */
    async loginExperience(ip: string, userAgent: string | null): Promise<LoginResponse> {
      const demo = await deps.repo.findDemoManager();
      if (!demo) throw notFound('The experience account is not enabled');
      return issue(demo, ip, userAgent);
    },

    /**
     * Super-session (spec §7): the system manager `auth` opens the console of `tenantId` as its
     * manager, read-only unless asked otherwise. Not the platform's own tenant, nor a tenant without
     * a manager. Its sessions end like the tenant's other sessions (a disabled tenant has none).
     */
    async openSuperSession(auth: Auth, tenantId: string, readOnly: boolean, ip: string, userAgent: string | null) {
      const found = await deps.repo.findManagerOf(tenantId);
      if (!found) throw notFound('Tenant not found');
      if (found.tenant.isSystem || found.tenant.id === auth.tenantId) throw new ApiError(400, 'super-session.bad-tenant');
      const session = await issue(found.user, ip, userAgent, { userId: auth.userId, readOnly });
      return { ...session, tenant_name: found.tenant.name, read_only: readOnly };
    },

    /**
     * A session for the monitor screen (spec §2 `/Watch`, opened with a token in its address): the
     * caller's account, read-only and at most MONITOR_SESSION_TTL long, so that the token an address
     * carries can do no more than the screen needs (docs/decisions/0207-links-never-replace-a-session.md).
     * A super-session's monitor stays tied to the system manager who opened it.
     */
    async openMonitorSession(auth: Auth, ip: string, userAgent: string | null): Promise<LoginResponse> {
      const user = await deps.repo.findUser(auth.userId);
      if (!user) throw new ApiError(401);
      const acting = auth.superSession ? { userId: auth.superSession.userId, readOnly: true } : undefined;
      return issue(user, ip, userAgent, acting, true);
    },

    /** Password re-confirmation (spec §2 dialog); wrong tries count toward the lock-out. */
    async reauth(auth: Auth, password: string): Promise<void> {
      const s = await deps.repo.loadSession(auth.sessionId);
      if (!s) throw new ApiError(401);
      const user = s.user;
      if (user.lockedUntil && user.lockedUntil > now()) {
        const seconds = Math.ceil((user.lockedUntil.getTime() - now().getTime()) / 1000);
        throw new ApiError(423, 'auth.locked', undefined, { details: { seconds } });
      }
      if (!(await verifyPassword(password, user.passwordHash))) {
        const lock = user.failedLogins + 1 >= LOCK_AFTER_FAILURES ? new Date(now().getTime() + LOCK_MINUTES * 60_000) : null;
        await deps.repo.recordFailure(user.id, lock);
        throw new ApiError(400, 'auth.password-error', undefined, { field: 'password' });
      }
      await deps.repo.recordSuccess(user.id, user.lastLoginIp ?? '');
    },

    /** Resolves a bearer token to the caller, or null when absent/invalid/revoked/expired. */
    async authenticate(token: string): Promise<Auth | null> {
      const found = await check(token);
      return 'auth' in found ? found.auth : null;
    },

    /**
     * A socket's token: the caller and its session's expiry, or why it is refused. `fresh` reads the
     * database even when the session is cached (a socket is admitted once, then kept).
     */
    check,

    /** Drops cached sessions so the next call of theirs is checked against the database. */
    forgetSessions,

    endSessions,

    /** Listens to every end of sessions made here; returns the function that stops listening. */
    onSessionsEnded(listener: SessionEndListener): () => void {
      endListeners.add(listener);
      return () => {
        endListeners.delete(listener);
      };
    },

    /** Deletes sessions that ended more than ENDED_SESSION_KEEP_DAYS ago; a token naming one answers as an ended session. */
    purgeEndedSessions(): Promise<number> {
      return deps.repo.purgeEndedSessions(new Date(now().getTime() - ENDED_SESSION_KEEP_DAYS * 86_400_000));
    },

    async logout(auth: Auth, sessionId: string): Promise<void> {
      // Only the caller's own session: another user's session id ends nothing.
      const ok = await deps.repo.revokeSession(sessionId, auth.userId);
      if (!ok) throw notFound('Session not found');
      endSessions({ sessionId }, 'ended');
    },
  };
}
export type ControlService = ReturnType<typeof controlService>;
