import { SocketClose } from '@loggerhead/contract/errors.ts';
import { LiveRoutes } from '@loggerhead/contract/routes/live.ts';
import type { LiveServerMessage, LiveSubscribe } from '@loggerhead/contract/schemas/data.ts';
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

/** Notices already shown, per session token and reason: several subscriptions (or tabs' sockets) end together, one notice. */
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

/** A subscription as the tab asks for it: its kind and parameters (the channel gives it its `id`). */
export type LiveSpec = LiveSubscribe extends infer S ? (S extends LiveSubscribe ? Omit<S, 'op' | 'id'> : never) : never;

export interface LiveHandlers {
  /** Each message of this subscription (`subscribed`, its data, its `error`). */
  onMessage: (msg: LiveServerMessage) => void;
  /** The socket is being opened (first time or again after a drop). */
  onConnecting?: () => void;
  /** The socket dropped (reconnecting; the subscription is sent again), or the server ended it for good (`end`). */
  onClose?: (end: SocketEnd | null) => void;
}

export interface LiveSubscription {
  /** Subscribes anew with other parameters (e.g. a new filter), under the same id. */
  update: (spec: LiveSpec) => void;
  /** Unsubscribes; the socket closes shortly after its last subscription. */
  close: () => void;
}

/** A WebSocket address on this origin (ws: or wss:) under the API base, with the session token in the query. */
export function liveSocketUrl(path: string, token: string): string {
  return buildUrl(path, { token }).replace(/^http/, 'ws');
}

interface Entry {
  spec: LiveSpec;
  h: LiveHandlers;
}

/**
 * The tab's one live WebSocket (`/v1/live`): every hook that shows live data (frames, signals, the
 * message bell, remote operations, test runs) subscribes through it, and the channel multiplexes
 * them by id. It opens with the first subscription and the stored session token, sends every
 * subscription again after a drop (reconnecting with back-off), never reconnects after the server
 * ended it (SocketEnd: the reason is shown once, its subscriptions are told and dropped), and closes
 * a moment after its last subscription (a page change re-subscribes without a new socket).
 */
export class LiveChannel {
  private ws: WebSocket | null = null;
  private readonly subs = new Map<string, Entry>();
  private seq = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private linger: ReturnType<typeof setTimeout> | undefined;
  private delay: number;

  constructor(
    private readonly o: { path: string; retryMs: number; maxRetryMs: number; lingerMs: number } = {
      path: LiveRoutes.data.path,
      retryMs: 1_000,
      maxRetryMs: 15_000,
      lingerMs: 2_000,
    },
  ) {
    this.delay = o.retryMs;
  }

  subscribe(spec: LiveSpec, h: LiveHandlers): LiveSubscription {
    const id = `s${++this.seq}`;
    const entry: Entry = { spec, h };
    this.subs.set(id, entry);
    clearTimeout(this.linger);
    if (this.ws?.readyState === WebSocket.OPEN) this.send({ op: 'subscribe', id, ...spec });
    else if (!this.ws && this.retry === undefined) this.open();
    else h.onConnecting?.();
    return {
      update: (next) => {
        if (this.subs.get(id) !== entry || JSON.stringify(next) === JSON.stringify(entry.spec)) return;
        entry.spec = next;
        if (this.ws?.readyState === WebSocket.OPEN) this.send({ op: 'subscribe', id, ...next });
      },
      close: () => {
        if (this.subs.get(id) !== entry) return;
        this.subs.delete(id);
        if (this.ws?.readyState === WebSocket.OPEN) this.send({ op: 'unsubscribe', id });
        if (!this.subs.size) this.linger = setTimeout(() => this.shut(), this.o.lingerMs);
      },
    };
  }

  /** The open socket, if any (tests, diagnostics). */
  current(): WebSocket | null {
    return this.ws;
  }

  private send(m: object) {
    this.ws?.send(JSON.stringify(m));
  }

  /** No subscription left: the socket closes, nothing reconnects. */
  private shut() {
    if (this.subs.size) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  private open() {
    this.retry = undefined;
    const token = getToken();
    if (!token || !this.subs.size) return;
    for (const e of this.subs.values()) e.h.onConnecting?.();
    const socket = new WebSocket(liveSocketUrl(this.o.path, token));
    this.ws = socket;
    let lastError: string | null = null;
    socket.onopen = () => {
      if (this.ws !== socket) return;
      this.delay = this.o.retryMs;
      for (const [id, e] of this.subs) this.send({ op: 'subscribe', id, ...e.spec });
    };
    socket.onmessage = (ev) => {
      if (this.ws !== socket) return;
      let msg: LiveServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as LiveServerMessage;
      } catch {
        return;
      }
      const id = (msg as { id?: unknown }).id;
      if (typeof id === 'string') {
        this.subs.get(id)?.h.onMessage(msg);
        return;
      }
      if (msg.t === 'error' && typeof msg.code === 'string') lastError = msg.code;
    };
    socket.onclose = (ev) => {
      if (this.ws !== socket) return;
      this.ws = null;
      const end = socketEnd(ev.code, lastError);
      const entries = [...this.subs.values()];
      // Ended by the server: these subscriptions are over (a later one opens a socket anew).
      if (end) this.subs.clear();
      for (const e of entries) e.h.onClose?.(end);
      if (end) {
        reportSocketEnd(end, token);
        return;
      }
      if (!this.subs.size) return;
      this.retry = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, this.o.maxRetryMs);
    };
  }
}

let channel: LiveChannel | null = null;

/** Subscribes on the tab's one live channel (made on first use). */
export function subscribeLive(spec: LiveSpec, h: LiveHandlers): LiveSubscription {
  channel ??= new LiveChannel();
  return channel.subscribe(spec, h);
}
