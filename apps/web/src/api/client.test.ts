import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CANCELED, NO_RESPONSE } from './api-error.ts';
import { request } from './client.ts';
import { errorText } from './error-funnel.ts';
import zhErrors from './i18n.ts';
import { clearSession, setPermissionMap, storeSession } from './session-storage.ts';

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

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  // Port 1 on loopback: nothing listens there, so a request gets no answer at all.
  vi.stubGlobal('location', { hostname: 'localhost', origin: 'http://127.0.0.1:1', pathname: '/Container/HomePage' });
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('request', () => {
  it('refuses a call locally with http.403 when the stored permission map lacks its key (spec §6)', async () => {
    setPermissionMap({ 'things:things:query': true });
    const err = await request<never>('/things', { permission: 'things:things:create' }).catch((e: ApiError) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(403);
    expect(err.code).toBe('http.403');
  });

  it('reports NO_RESPONSE when nothing answers', async () => {
    storeSession({ token: 'x' });
    const err = await request<never>('/control/global-config').catch((e: ApiError) => e);
    expect(err.kind).toBe('no-response');
    expect(err.code).toBe(NO_RESPONSE);
  });

  it('reports a cancelled request as (canceled)', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const err = await request<never>('/control/global-config', { signal: ctl.signal }).catch((e: ApiError) => e);
    expect(err.kind).toBe('canceled');
    expect(err.code).toBe(CANCELED);
  });
});

describe('errorText', () => {
  const zh = zhErrors.zh;
  const t = (k: string, o?: { defaultValue?: string }) => zh[k] ?? o?.defaultValue ?? k;
  const has = (k: string) => k in zh;
  const http = (status: number, code: string, message = 'server text') => new ApiError('http', status, [{ code, message }]);

  it('translates a known code', () => {
    expect(errorText(http(401, 'auth.bad-credentials'), t, has)).toBe('用户名或密码错误');
    expect(errorText(http(403, 'iot-tenant.10016'), t, has)).toBe('该账号尚未审核');
  });

  it('matches codes with and without the iot- prefix', () => {
    expect(errorText(http(409, 'http.409'), t, has)).toBe('数据冲突');
    expect(errorText(http(409, 'iot-http.409'), t, has)).toBe('账号冲突，请联系管理员');
  });

  it('shows the server message for an unknown code, else "error unknown"', () => {
    expect(errorText(http(418, 'teapot.brewing', 'I am a teapot'), t, has)).toBe('I am a teapot');
    expect(errorText(http(418, 'teapot.brewing', ''), t, has)).toBe('未知错误');
    expect(errorText(new Error('boom'), t, has)).toBe('未知错误');
  });

  it('never shows the internals of a 5xx', () => {
    expect(errorText(http(500, 'db.crashed', 'relation "x" does not exist'), t, has)).toBe('服务器内部错误');
  });

  it('names a missing answer', () => {
    expect(errorText(ApiError.noResponse(), t, has)).toBe(zh['errors.NO_RESPONSE']);
  });
});
