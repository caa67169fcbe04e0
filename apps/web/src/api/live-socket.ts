import { SocketClose } from '@loggerhead/contract/errors.ts';
import { buildUrl, sessionLost } from './client.ts';
import { reportCode } from './error-funnel.ts';
import { getToken } from './session-storage.ts';

/**
 * The server ended the socket for good: its session ended (4401: logged out, expired, password
 * changed) or the access was withdrawn (4403: rights, devices or the account changed). Retrying would
 * only be refused again. `error` is the code of the server's last `{t: "error"}` message.
 */
export interface SocketEnd {
  code: typeof SocketClose.sessionEnded | typeof SocketClose.accessWithdrawn;
  error: string;
}

/** What a close code means: a SocketEnd (no retry), or null for a drop (reconnect). */
export function socketEnd(code: number, lastError: string | null): SocketEnd | null {
  if (code === SocketClose.sessionEnded) return { code, error: lastError ?? 'auth.session-expired' };
  if (code === SocketClose.accessWithdrawn) return { code, error: lastError ?? 'auth.access-withdrawn' };
  return null;
}

/** Notices already shown, per session token and reason: several sockets end together, one notice. */
const shown = new Set<string>();

/**
 * Says once why the server ended the sockets of this session: a session that ended goes to the
 * login page (unless this tab already left it: logged out or signed in anew); withdrawn access is
 * shown and the page stays (its next call finds out whether the session goes on).
 */
export function reportSocketEnd(end: SocketEnd, token: string): void {
  const key = `${token}|${end.code}|${end.error}`;
  if (shown.has(key) || getToken() !== token) return;
  shown.add(key);
  reportCode(end.error);
  if (end.code === SocketClose.sessionEnded) sessionLost();
}

export interface LiveSocketOptions<M> {
  /** API path of the WebSocket, e.g. `/live` (the session token goes in the query). */
  path: string;
  onOpen?: (ws: WebSocket) => void;
  /** Each message the server sent, parsed; messages that are not JSON are ignored. */
  onMessage: (msg: M) => void;
  /** A new connection is being opened. */
  onConnecting?: () => void;
  /** The connection dropped (reconnecting), or the server ended it for good (`end`: no retry; the reason is shown). */
  onClose?: (end: SocketEnd | null) => void;
  /** Wait before reconnecting, doubled after each drop up to `maxRetryMs` (default: no growth). */
  retryMs: number;
  maxRetryMs?: number;
}

/** A WebSocket address on this origin (ws: or wss:) under the API base, with the session token in the query. */
export function liveSocketUrl(path: string, token: string): string {
  return buildUrl(path, { token }).replace(/^http/, 'ws');
}

/**
 * One live WebSocket of the console: opens with the stored session token, parses messages,
 * reconnects after a drop (never after the server ended it: SocketEnd, whose reason is shown), and
 * stops for good on `close()`.
 */
export function openLiveSocket<M>(o: LiveSocketOptions<M>): {
  current: () => WebSocket | null;
  close: () => void;
  resetBackoff: () => void;
} {
  let ws: WebSocket | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = o.retryMs;
  let stopped = false;
  const open = () => {
    const token = getToken();
    if (!token || stopped) return;
    o.onConnecting?.();
    const socket = new WebSocket(liveSocketUrl(o.path, token));
    ws = socket;
    let lastError: string | null = null;
    socket.onopen = () => o.onOpen?.(socket);
    socket.onmessage = (ev) => {
      let msg: M;
      try {
        msg = JSON.parse(String(ev.data)) as M;
      } catch {
        return;
      }
      const m = msg as { t?: unknown; code?: unknown };
      if (m.t === 'error' && typeof m.code === 'string') lastError = m.code;
      o.onMessage(msg);
    };
    socket.onclose = (ev) => {
      if (ws === socket) ws = null;
      if (stopped) return;
      const end = socketEnd(ev.code, lastError);
      o.onClose?.(end);
      if (end) {
        reportSocketEnd(end, token);
        return;
      }
      retry = setTimeout(open, delay);
      delay = Math.min(delay * 2, o.maxRetryMs ?? o.retryMs);
    };
  };
  open();
  return {
    current: () => ws,
    close: () => {
      stopped = true;
      clearTimeout(retry);
      ws?.close();
      ws = null;
    },
    resetBackoff: () => {
      delay = o.retryMs;
    },
  };
}
