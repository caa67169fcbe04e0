import { SocketClose, type SocketCloseCode } from '@loggerhead/contract';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { LoggerheadApp } from '../app.ts';
import type { Auth } from '../lib/auth.ts';
import type { EventBus } from '../lib/events.ts';
import { type ControlService, inScope, type SessionEndReason, type SessionScope } from '../modules/control/control.service.ts';

declare module '../lib/events.ts' {
  interface AppEvents {
    /**
     * Sessions ended (logout, password change, sub-user changed or removed, tenant disabled): their
     * sockets close, on every server copy, and the copies' session caches forget them.
     */
    'session.revoked': { scope: SessionScope; reason: SessionEndReason };
    /**
     * What some sessions may read changed while the sessions go on (a device was deleted): the
     * sockets re-check the devices they read. `thingsId`: that device only; else the sockets of the
     * tenant (or of `userId`) re-check all of theirs.
     */
    'access.changed': { tenantId: string; userId?: string; thingsId?: string };
  }
}

/** How often every socket's session is read again: a missed event (a lost relay) is caught by then. */
export const SOCKET_REVALIDATE_MS = 60_000;
/** A closed socket whose browser does not answer the close handshake is cut after this. */
const CLOSE_GRACE_MS = 5_000;
/** setTimeout's limit; a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Re-reads of a session at admission when sessions ended meanwhile; past it the periodic check decides. */
const ADMIT_TRIES = 3;

export interface SocketError {
  code: string;
  message: string;
}

const ENDED: SocketError = { code: 'auth.session-expired', message: 'The session has ended, please log in again' };
const EXPIRED: SocketError = { code: 'auth.session-expired', message: 'The session has expired, please log in again' };
const WITHDRAWN: SocketError = {
  code: 'auth.access-withdrawn',
  message: 'Access withdrawn: the account, its rights or devices, or its tenant changed',
};

/** Close code and first message of a socket whose session ended for `reason`. */
export function endOf(reason: SessionEndReason): [SocketCloseCode, SocketError] {
  return reason === 'ended' ? [SocketClose.sessionEnded, ENDED] : [SocketClose.accessWithdrawn, WITHDRAWN];
}

/**
 * Ends a socket: `{t: "error", code, message}` first, then the close code. A browser that does not
 * answer the close handshake is cut after a few seconds; nothing is sent meanwhile (every sender of
 * the sockets checks that the socket is open).
 */
export function closeSocket(ws: WebSocket, code: SocketCloseCode, error: SocketError, extra: Record<string, unknown> = {}) {
  if (ws.readyState === ws.OPEN) {
    ws.send(JSON.stringify({ t: 'error', ...error, ...extra }));
    ws.close(code, error.code);
  } else if (ws.readyState === ws.CONNECTING) {
    ws.terminate();
    return;
  }
  if (ws.readyState === ws.CLOSED) return;
  const cut = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
  cut.unref();
  ws.once('close', () => clearTimeout(cut));
}

/** An admitted socket, as its route sees it. */
export interface TrackedSocket {
  /** The caller, as admitted (its session is current). */
  readonly auth: Auth;
  /** Whether the socket has ended (by the registry or closed by the browser). */
  readonly ended: boolean;
  /** Runs once when the socket ends (by the registry, or closed): stop every push to it there. */
  onEnd(fn: () => void): void;
  /** Re-checks what the socket reads after an access change: `thingsId` or, when null, every device. */
  onAccessChanged(fn: (thingsId: string | null) => Promise<void>): void;
  /** Ends the socket with an error message and the close code. */
  end(code: SocketCloseCode, error: SocketError): void;
}

interface Entry extends TrackedSocket {
  ws: WebSocket;
  token: string;
  expiresAt: number;
  timer: NodeJS.Timeout | null;
  ended: boolean;
  ends: (() => void)[];
  access: ((thingsId: string | null) => Promise<void>) | null;
}

const Scope = z.union([
  z.literal('all'),
  z.object({ sessionId: z.string() }),
  z.object({ userId: z.string(), exceptSessionId: z.string().optional() }),
  z.object({ tenantId: z.string() }),
]);
const Revoked = z.object({ scope: Scope, reason: z.enum(['ended', 'withdrawn']) });
const AccessChanged = z.object({ tenantId: z.string(), userId: z.string().optional(), thingsId: z.string().optional() });

interface Log {
  warn: (obj: object, msg: string) => void;
}

/**
 * The open WebSockets of the console (live trace and signals, message bell, remote operations),
 * each with the session it was opened with. A socket lives only as long as the right to read it:
 * it is closed when its session ends or expires, when its user's rights or its tenant change
 * (`ctx.control.endSessions`, relayed to the other server copies as `session.revoked`), and its
 * device subscriptions are re-checked when what its user may read changes (`access.changed`).
 */
export class SocketRegistry {
  private readonly entries = new Set<Entry>();
  /** Bumped on every end of sessions heard: an admission that overlapped one reads its session again. */
  private revision = 0;
  private readonly sweep: NodeJS.Timeout;
  private readonly offs: (() => void)[];
  private readonly now: () => number;

  constructor(
    private readonly o: {
      control: ControlService;
      events: EventBus;
      log: Log;
      revalidateMs?: number;
      now?: () => number;
    },
  ) {
    this.now = o.now ?? Date.now;
    this.offs = [
      // Ended here: this copy's sockets and, through the push relay, the other copies' hear it.
      o.control.onSessionsEnded((scope, reason) => o.events.emit('session.revoked', { scope, reason })),
      o.events.onPush('session.revoked', (e) => this.revoked(e)),
      o.events.onPush('access.changed', (e) => this.accessChanged(e)),
    ];
    this.sweep = setInterval(() => void this.revalidate(), o.revalidateMs ?? SOCKET_REVALIDATE_MS);
    this.sweep.unref();
  }

  /** Open sockets (of one user when given). */
  count(userId?: string): number {
    let n = 0;
    for (const e of this.entries) if (!userId || e.auth.userId === userId) n++;
    return n;
  }

  /**
   * Checks a socket's token against the database and keeps the socket; refused (closed with 4401
   * or 4403, error message first) or gone meanwhile: null.
   */
  async admit(ws: WebSocket, token: string | undefined): Promise<TrackedSocket | null> {
    for (let tries = 1; ; tries++) {
      const seen = this.revision;
      const found = token ? await this.o.control.check(token, { fresh: true }).catch(() => ({ refused: 'ended' as const })) : null;
      if (!found || 'refused' in found) {
        const withdrawn = found?.refused === 'withdrawn';
        closeSocket(
          ws,
          withdrawn ? SocketClose.accessWithdrawn : SocketClose.sessionEnded,
          withdrawn
            ? { code: 'http.403', message: 'This account is disabled' }
            : { code: 'http.401', message: 'Not signed in or the session has expired' },
        );
        return null;
      }
      if (ws.readyState !== ws.OPEN) return null;
      // A session ended while it was read: read it again (the event may have passed it by).
      if (this.revision !== seen && tries < ADMIT_TRIES) continue;
      return this.keep(ws, token as string, found.auth, found.expiresAt);
    }
  }

  private keep(ws: WebSocket, token: string, auth: Auth, expiresAt: number): Entry {
    const registry = this;
    const e: Entry = {
      ws,
      token,
      auth,
      expiresAt,
      timer: null,
      ended: false,
      ends: [],
      access: null,
      onEnd(fn) {
        if (e.ended) fn();
        else e.ends.push(fn);
      },
      onAccessChanged(fn) {
        e.access = fn;
      },
      end(code, error) {
        registry.finish(e);
        closeSocket(ws, code, error);
      },
    };
    this.entries.add(e);
    ws.once('close', () => this.finish(e));
    this.arm(e);
    return e;
  }

  /** The socket is done: out of the registry, its pushes stopped. */
  private finish(e: Entry) {
    if (e.ended) return;
    e.ended = true;
    this.entries.delete(e);
    if (e.timer) clearTimeout(e.timer);
    e.timer = null;
    for (const fn of e.ends.splice(0)) {
      try {
        fn();
      } catch (err) {
        this.o.log.warn({ err }, 'socket clean-up failed');
      }
    }
  }

  /** Closes the socket when its session expires. */
  private arm(e: Entry) {
    const left = e.expiresAt - this.now();
    if (left <= 0) return e.end(SocketClose.sessionEnded, EXPIRED);
    e.timer = setTimeout(() => this.arm(e), Math.min(left, MAX_TIMER_MS));
    e.timer.unref();
  }

  private revoked(payload: unknown) {
    const m = Revoked.safeParse(payload);
    if (!m.success) return;
    const { scope, reason } = m.data;
    this.revision++;
    // Another copy's change: this copy's cache forgets the sessions too.
    this.o.control.forgetSessions(scope);
    const [code, error] = endOf(reason);
    for (const e of [...this.entries]) if (inScope(e.auth, scope)) e.end(code, error);
  }

  private accessChanged(payload: unknown) {
    const m = AccessChanged.safeParse(payload);
    if (!m.success) return;
    const { tenantId, userId, thingsId } = m.data;
    for (const e of [...this.entries]) {
      if (!e.access) continue;
      // One device: every socket that reads it re-checks (a system manager may read another tenant's).
      if (!thingsId && (e.auth.tenantId !== tenantId || (userId && e.auth.userId !== userId))) continue;
      e.access(thingsId ?? null).catch((err) => this.o.log.warn({ err }, 'socket access re-check failed'));
    }
  }

  /** Reads every socket's session again from the database: ends those refused now, re-arms moved expiries. */
  async revalidate(): Promise<void> {
    const byToken = new Map<string, Entry[]>();
    for (const e of this.entries) byToken.set(e.token, [...(byToken.get(e.token) ?? []), e]);
    for (const [token, list] of byToken) {
      const found = await this.o.control.check(token, { fresh: true }).catch(() => null);
      // The database did not answer: try again next time rather than close everyone.
      if (!found) continue;
      if ('refused' in found) {
        const [code, error] = endOf(found.refused);
        for (const e of list) e.end(code, error);
        continue;
      }
      // The session's expiry moved (shortened elsewhere): the sockets close at the new one.
      for (const e of list) {
        if (e.ended || e.expiresAt === found.expiresAt) continue;
        e.expiresAt = found.expiresAt;
        if (e.timer) clearTimeout(e.timer);
        this.arm(e);
      }
    }
  }

  close() {
    clearInterval(this.sweep);
    for (const off of this.offs) off();
    for (const e of [...this.entries]) this.finish(e);
  }
}

const registries = new WeakMap<object, SocketRegistry>();

/** The app's one socket registry, shared by its socket routes (made on first use). */
export function socketRegistry(app: LoggerheadApp): SocketRegistry {
  let r = registries.get(app.ctx);
  if (!r) {
    const made = new SocketRegistry({ control: app.ctx.control, events: app.ctx.events, log: app.log });
    registries.set(app.ctx, made);
    app.addHook('onClose', async () => made.close());
    r = made;
  }
  return r;
}
