import { SocketClose } from '@loggerhead/contract/errors.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from './client.ts';
import { configureErrorFunnel } from './error-funnel.ts';
import zhErrors from './i18n.ts';
import { LiveChannel, liveSocketUrl, type SocketEnd } from './live-socket.ts';
import { clearSession, getToken, storeSession } from './session-storage.ts';

describe('live socket address', () => {
  it('is the API base on this origin, as a WebSocket, with the token in the query', () => {
    // Outside a browser the client takes http://localhost, whose API base is /api (spec §7).
    expect(liveSocketUrl('/live', 'a b')).toBe('ws://localhost/api/live?token=a+b');
  });
});

/** A WebSocket the test drives: the server's messages and close codes are played by hand. */
class FakeSocket {
  static all: FakeSocket[] = [];
  static OPEN = 1;
  readyState = 0;
  /** What the page sent, parsed. */
  sent: Record<string, unknown>[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  /** The server accepted the connection. */
  accept() {
    this.readyState = 1;
    this.onopen?.();
  }
  /** The server sends a message. */
  push(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  /** The server sends an error message, then closes with `code`. */
  end(code: number, error?: string) {
    if (error) this.onmessage?.({ data: JSON.stringify({ t: 'error', code: error, message: 'x' }) });
    this.onclose?.({ code });
  }
}

class MemoryStorage {
  private data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, v);
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

describe('a live socket the server ends', () => {
  const notices: string[] = [];
  let toLogin = 0;
  let n = 0;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.all = [];
    notices.length = 0;
    toLogin = 0;
    // Every test a session of its own: a notice is said once per session and reason.
    storeSession({ token: `token-${++n}` });
    const zh = zhErrors.zh as Record<string, string>;
    configureErrorFunnel({ notifier: { error: (text) => notices.push(text) }, t: (k) => zh[k] ?? k, has: (k) => k in zh });
    setUnauthorizedHandler(() => toLogin++);
  });
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const options = { path: '/live', retryMs: 1000, maxRetryMs: 8000, lingerMs: 500 };
  /** A subscription on a channel of its own (a tab of its own). */
  function open(channel = new LiveChannel(options)) {
    const ends: (SocketEnd | null)[] = [];
    const live = channel.subscribe({ kind: 'messages' }, { onMessage: () => {}, onClose: (end) => ends.push(end) });
    return { live, ends, socket: FakeSocket.all.at(-1) as FakeSocket };
  }

  it('a session that ended (4401) is not retried: the login page, and one notice for all the sockets of that session', () => {
    const a = open();
    const b = open();
    expect(FakeSocket.all).toHaveLength(2);
    a.socket.end(SocketClose.sessionEnded, 'auth.session-expired');
    b.socket.end(SocketClose.sessionEnded, 'auth.session-expired');
    expect(a.ends).toEqual([{ code: 4401, error: 'auth.session-expired' }]);
    expect(b.ends).toEqual([{ code: 4401, error: 'auth.session-expired' }]);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(notices).toEqual(['登录已失效，请重新登录']);
    expect(toLogin).toBe(1);
    expect(getToken()).toBeNull();
  });

  it('withdrawn access (4403) is shown and not retried; the page and its session stay', () => {
    const a = open();
    a.socket.end(SocketClose.accessWithdrawn, 'auth.access-withdrawn');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(a.ends).toEqual([{ code: 4403, error: 'auth.access-withdrawn' }]);
    expect(notices).toEqual([(zhErrors.zh as Record<string, string>)['errors.auth.access-withdrawn']]);
    expect(notices[0]).toMatch(/权限/);
    expect(toLogin).toBe(0);
    expect(getToken()).not.toBeNull();
  });

  it('says nothing when this tab already logged out, and reconnects after an ordinary drop', () => {
    const a = open();
    clearSession();
    a.socket.end(SocketClose.sessionEnded, 'auth.session-expired');
    expect(notices).toEqual([]);
    expect(toLogin).toBe(0);

    storeSession({ token: `token-${++n}` });
    const b = open();
    b.socket.end(1006);
    expect(b.ends).toEqual([null]);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(3);
    expect(notices).toEqual([]);
    b.live.close();
  });
});

describe("a tab's live channel", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.all = [];
    storeSession({ token: 'token-channel' });
  });
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('carries every subscription of the tab on one socket, each message to its own subscriber', () => {
    const channel = new LiveChannel({ path: '/live', retryMs: 1000, maxRetryMs: 8000, lingerMs: 500 });
    const trace: unknown[] = [];
    const bell: unknown[] = [];
    const a = channel.subscribe({ kind: 'frames', things_id: 'd1', ids: [5] }, { onMessage: (m) => trace.push(m) });
    const b = channel.subscribe({ kind: 'messages' }, { onMessage: (m) => bell.push(m) });
    expect(FakeSocket.all).toHaveLength(1);
    const ws = FakeSocket.all[0];
    expect(ws.url).toBe('ws://localhost/api/live?token=token-channel');
    ws.accept();
    expect(ws.sent).toEqual([
      { op: 'subscribe', id: 's1', kind: 'frames', things_id: 'd1', ids: [5] },
      { op: 'subscribe', id: 's2', kind: 'messages' },
    ]);
    ws.push({ t: 'frames', id: 's1', things_id: 'd1', f: [] });
    ws.push({ t: 'unread', id: 's2', unread: 3 });
    expect(trace).toEqual([{ t: 'frames', id: 's1', things_id: 'd1', f: [] }]);
    expect(bell).toEqual([{ t: 'unread', id: 's2', unread: 3 }]);

    // A new filter replaces the subscription under its id; an unchanged one sends nothing.
    a.update({ kind: 'frames', things_id: 'd1', ids: [6] });
    a.update({ kind: 'frames', things_id: 'd1', ids: [6] });
    // A subscription made while the socket is open goes out at once, on the same socket.
    channel.subscribe({ kind: 'signals', things_id: 'd1' }, { onMessage: () => {} }).close();
    expect(ws.sent.slice(2)).toEqual([
      { op: 'subscribe', id: 's1', kind: 'frames', things_id: 'd1', ids: [6] },
      { op: 'subscribe', id: 's3', kind: 'signals', things_id: 'd1' },
      { op: 'unsubscribe', id: 's3' },
    ]);
    expect(FakeSocket.all).toHaveLength(1);

    // After a drop, one new socket carries every subscription again.
    ws.end(1006);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
    const again = FakeSocket.all[1];
    again.accept();
    expect(again.sent).toEqual([
      { op: 'subscribe', id: 's1', kind: 'frames', things_id: 'd1', ids: [6] },
      { op: 'subscribe', id: 's2', kind: 'messages' },
    ]);

    // The last one gone: the socket closes a moment later, and nothing reconnects.
    a.close();
    b.close();
    expect(again.closed).toBe(false);
    vi.advanceTimersByTime(500);
    expect(again.closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('keeps the socket through a page change (one subscription ends as the next starts)', () => {
    const channel = new LiveChannel({ path: '/live', retryMs: 1000, maxRetryMs: 8000, lingerMs: 500 });
    const first = channel.subscribe({ kind: 'messages' }, { onMessage: () => {} });
    FakeSocket.all[0].accept();
    first.close();
    vi.advanceTimersByTime(100);
    channel.subscribe({ kind: 'test-runs', tenant_id: 't1' }, { onMessage: () => {} });
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0].closed).toBe(false);
    expect(FakeSocket.all[0].sent.at(-1)).toEqual({ op: 'subscribe', id: 's2', kind: 'test-runs', tenant_id: 't1' });
  });
});
