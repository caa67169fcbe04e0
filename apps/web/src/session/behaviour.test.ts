import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '../api/session-storage.ts';
import { BEHAVIOUR_FLUSH_MS, flushBehaviour, trackBehaviour } from './behaviour.ts';

/** localStorage for the node test run (the browser has its own). */
function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('behaviour tracking', () => {
  const fetchMock = vi.fn(async () => new Response('{"accepted":1}', { status: 200 }));
  const posted = () => fetchMock.mock.calls.map((c) => JSON.parse(String((c as unknown as [string, RequestInit])[1].body)).events);
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('location', { hostname: 'localhost', origin: 'http://127.0.0.1:1', pathname: '/Container/HomePage' });
    fetchMock.mockClear();
  });
  afterEach(() => {
    flushBehaviour();
    fetchMock.mockClear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('gathers clicks and posts them together after a while, with the session token', () => {
    storeSession({ token: 'tok-1' });
    trackBehaviour('car');
    trackBehaviour('dbc', 'open');
    expect(fetchMock).not.toHaveBeenCalled();
    vi.advanceTimersByTime(BEHAVIOUR_FLUSH_MS);
    expect(posted()).toEqual([
      [
        { platform: 'web', module: 'car', action: 'open' },
        { platform: 'web', module: 'dbc', action: 'open' },
      ],
    ]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/out-wrapper\/user-behaviours$/);
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
  });

  it('posts at once when 50 are waiting, never more than 50 in one post', () => {
    storeSession({ token: 'tok-2' });
    for (let i = 0; i < 51; i++) trackBehaviour('home');
    expect(posted().map((e) => e.length)).toEqual([50]);
    vi.advanceTimersByTime(BEHAVIOUR_FLUSH_MS);
    expect(posted().map((e) => e.length)).toEqual([50, 1]);
  });
});
