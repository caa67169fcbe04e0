import { SocketClose } from '@loggerhead/contract/errors.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from './client.ts';
import { configureErrorFunnel } from './error-funnel.ts';
import zhErrors from './i18n.ts';
import { liveSocketUrl, openLiveSocket, type SocketEnd } from './live-socket.ts';
import { clearSession, getToken, storeSession } from './session-storage.ts';

describe('live socket address', () => {
  it('is the API base on this origin, as a WebSocket, with the token in the query', () => {
    // Outside a browser the client takes http://localhost, whose API base is /api (spec §7).
    expect(liveSocketUrl('/live', 'a b')).toBe('ws://localhost/api/live?token=a+b');
    expect(liveSocketUrl('/messages/live', 't')).toBe('ws://localhost/api/messages/live?token=t');
  });
});

/** A WebSocket the test drives: the server's messages and close codes are played by hand. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {}
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

  function open() {
    const ends: (SocketEnd | null)[] = [];
    const live = openLiveSocket({ path: '/live', retryMs: 1000, onMessage: () => {}, onClose: (end) => ends.push(end) });
    return { live, ends, socket: FakeSocket.all.at(-1) as FakeSocket };
  }

  it('a session that ended (4401) is not retried: the login page, and one notice for all the sockets of that session', () => {
    const a = open();
    const b = open();
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
