import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, storeSession } from '../../../api/session-storage.ts';
import { sessionApi } from '../../../session/session.api.ts';
import { authApi } from './auth.api.ts';

/** localStorage for the node test run (the browser has its own). */
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

describe('the login calls (routes of the contract table)', () => {
  let sent: { url: string; method: string; body: unknown; headers: Record<string, string> }[];

  beforeEach(() => {
    sent = [];
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.stubGlobal('location', { hostname: 'localhost', origin: 'http://127.0.0.1:1', pathname: '/Login' });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, method: String(init.method), body: init.body, headers: init.headers as Record<string, string> });
      return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
  });
  afterEach(() => {
    clearSession();
    vi.unstubAllGlobals();
  });

  it('logs in without a token and out with it, and reads the permission map with it', async () => {
    storeSession({ token: 'old' });
    await sessionApi.login({ username: 'u', password: 'p', type: 1 });
    await sessionApi.logout('s/1');
    await sessionApi.privileges();
    await authApi.experience();
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST http://127.0.0.1:1/api/control/sessions',
      'DELETE http://127.0.0.1:1/api/control/sessions/s%2F1',
      'GET http://127.0.0.1:1/api/control/privileges/self',
      'POST http://127.0.0.1:1/api/control/sessions/experience',
    ]);
    expect(JSON.parse(String(sent[0].body))).toEqual({ username: 'u', password: 'p', type: 1 });
    expect(sent.map((s) => s.headers.authorization)).toEqual([undefined, 'Bearer old', 'Bearer old', undefined]);
  });

  it('links the third-party login icon to the authorize route, with where to go after login', () => {
    expect(authApi.oidcAuthorizeUrl('/Container/HomePage')).toBe(
      'http://127.0.0.1:1/api/control/oidc/authorize?prePath=%2FContainer%2FHomePage',
    );
  });
});
