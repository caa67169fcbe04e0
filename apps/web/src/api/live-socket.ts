import { buildUrl } from './client.ts';
import { getToken } from './session-storage.ts';

/** The server's close code for a session that is gone: retrying would only be refused again. */
export const SESSION_GONE = 4401;

export interface LiveSocketOptions<M> {
  /** API path of the WebSocket, e.g. `/live` (the session token goes in the query). */
  path: string;
  onOpen?: (ws: WebSocket) => void;
  /** Each message the server sent, parsed; messages that are not JSON are ignored. */
  onMessage: (msg: M) => void;
  /** A new connection is being opened. */
  onConnecting?: () => void;
  /** The connection dropped; `sessionGone` when the server ended it for an expired session (no retry then). */
  onClose?: (sessionGone: boolean) => void;
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
 * reconnects after a drop (never after SESSION_GONE), and stops for good on `close()`.
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
    socket.onopen = () => o.onOpen?.(socket);
    socket.onmessage = (ev) => {
      let msg: M;
      try {
        msg = JSON.parse(String(ev.data)) as M;
      } catch {
        return;
      }
      o.onMessage(msg);
    };
    socket.onclose = (ev) => {
      if (ws === socket) ws = null;
      if (stopped) return;
      const gone = ev.code === SESSION_GONE;
      o.onClose?.(gone);
      if (gone) return;
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
