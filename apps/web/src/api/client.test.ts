import { Routes } from '@loggerhead/contract/routes/index.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CANCELED, NO_RESPONSE } from './api-error.ts';
import { call, request } from './client.ts';
import { errorText } from './error-funnel.ts';
import zhErrors from './i18n.ts';
import { clearSession, getToken, setPermissionMap, storeSession } from './session-storage.ts';

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

describe('call (a route of the contract table)', () => {
  const tenant = 'a1b2c3d4-0000-4000-8000-000000000001';
  const thing = 'a1b2c3d4-0000-4000-8000-00000000000f';
  let sent: { url: string; method: string; body: unknown; headers: Record<string, string> }[];

  beforeEach(() => {
    sent = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, method: String(init.method), body: init.body, headers: init.headers as Record<string, string> });
      return new Response(JSON.stringify({ ok: true }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
  });

  it('fills the path parameters, the method, the query and the JSON body from the route', async () => {
    storeSession({ token: 'tok' });
    await call(Routes.things.setCollected, { params: { tenant_id: tenant, things_id: thing }, body: { collected: true } });
    await call(Routes.things.list, { params: { tenant_id: tenant }, query: { current_page: 2, page_size: 5, keyword: 'a b' } });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      `PUT http://127.0.0.1:1/api/things/tenants/${tenant}/things/${thing}/collected`,
      `GET http://127.0.0.1:1/api/things/tenants/${tenant}/things?current_page=2&page_size=5&keyword=a+b`,
    ]);
    expect(JSON.parse(String(sent[0].body))).toEqual({ collected: true });
    expect(sent[0].headers.authorization).toBe('Bearer tok');
  });

  it('encodes path parameters', async () => {
    await call(Routes.things.get, { params: { tenant_id: 'a/b', things_id: 'c d' } });
    expect(sent[0].url).toBe('http://127.0.0.1:1/api/things/tenants/a%2Fb/things/c%20d');
  });

  it('calls a public route without the token, so its 401 does not end the session', async () => {
    storeSession({ token: 'tok' });
    await call(Routes.webConfig.globalConfig, {});
    await call(Routes.userConfig.get, { query: { keys: 'k' } });
    expect(sent.map((s) => s.url)).toEqual([
      'http://127.0.0.1:1/api/control/global-config',
      'http://127.0.0.1:1/api/tenant/users/self/configs?keys=k',
    ]);
    expect(sent[0].headers.authorization).toBeUndefined();
    expect(sent[1].headers.authorization).toBe('Bearer tok');

    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ code: 'http.401' }), { status: 401, headers: { 'content-type': 'application/json' } }),
    );
    const err = await call(Routes.webConfig.globalConfig, {}).catch((e: ApiError) => e);
    expect((err as ApiError).status).toBe(401);
    expect(getToken()).toBe('tok');
  });

  it('checks the route’s permission key against the stored map before sending', async () => {
    setPermissionMap({ 'things:things:page': true });
    const err = await call(Routes.things.create, {
      params: { tenant_id: tenant },
      body: { third_things_id: 'x', name: 'x', info_model_id: thing },
    }).catch((e: ApiError) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('http.403');
    expect(sent).toEqual([]);
    await call(Routes.things.list, { params: { tenant_id: tenant } });
    expect(sent).toHaveLength(1);
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
