import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { activeTenant } from './accounts.factory.ts';
import { createTestApp, type TestApp } from './helper.ts';

/**
 * Third-party login against a small OpenID provider started here: discovery, authorize,
 * token (client secret + PKCE checked) and JWKS endpoints over real HTTP, ID tokens signed
 * with a key generated for the test.
 */
type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

interface Provider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorize request signs in as. */
  subject: string;
  /** Test hooks: sign with another key, or put another nonce in the ID token. */
  signWith: Key | null;
  nonceOverride: string | null;
  tokenCalls: number;
  close(): Promise<void>;
}

async function startProvider(): Promise<Provider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, { challenge: string; nonce: string; redirect: string; sub: string; clientId: string }>();
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const p: Provider = {
    issuer,
    clientId: 'loggerhead-console',
    clientSecret: randomBytes(12).toString('hex'),
    subject: 'alice',
    signWith: null,
    nonceOverride: null,
    tokenCalls: 0,
    close: () => new Promise((r) => server.close(() => r())),
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('state')) {
        return json(res, 400, { error: 'invalid_request' });
      }
      if (!q.get('scope')?.split(' ').includes('openid')) return json(res, 400, { error: 'invalid_scope' });
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        challenge: q.get('code_challenge') as string,
        nonce: q.get('nonce') ?? '',
        redirect: q.get('redirect_uri') as string,
        sub: p.subject,
        clientId: q.get('client_id') as string,
      });
      const back = new URL(q.get('redirect_uri') as string);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') as string);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        void (async () => {
          p.tokenCalls++;
          const form = new URLSearchParams(body);
          const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
          const [id, secret] = basic.split(':').map(decodeURIComponent);
          if (id !== p.clientId || secret !== p.clientSecret) return json(res, 401, { error: 'invalid_client' });
          const grant = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          if (!grant || grant.redirect !== form.get('redirect_uri') || grant.clientId !== id)
            return json(res, 400, { error: 'invalid_grant' });
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
            return json(res, 400, { error: 'invalid_grant' });
          const idToken = await new SignJWT({ nonce: p.nonceOverride ?? grant.nonce })
            .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
            .setIssuer(issuer)
            .setAudience(p.clientId)
            .setSubject(grant.sub)
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(p.signWith ?? privateKey);
          json(res, 200, { access_token: randomBytes(8).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken });
        })();
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  return p;
}

const PUBLIC_URL = 'http://console.example';
let provider: Provider;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  provider = await startProvider();
  t = await createTestApp(
    {
      logLevel: 'info',
      publicUrl: PUBLIC_URL,
      oidc: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, name: 'Corp SSO' },
    },
    { logLines },
  );
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** What a browser keeps before it leaves for the provider (the console: sessionStorage). */
const browserState = () => randomBytes(32).toString('base64url');

/**
 * Runs one round trip: start at the console (login, or link with `auth`) with this browser's
 * state, follow the provider's redirect over HTTP, hand the callback back to the console. Returns
 * where the console finally sends the browser, and the state to exchange its code with.
 */
async function roundTrip(
  opts: { auth?: string; prePath?: string; preQuery?: string; state?: string } = {},
): Promise<{ location: URL; callback: string; state: string }> {
  const state = opts.state ?? browserState();
  let authorizeUrl: string;
  if (opts.auth) {
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/control/oidc/link',
      headers: { authorization: opts.auth },
      payload: { browser_state: state },
    });
    expect(r.statusCode).toBe(200);
    authorizeUrl = r.json().url;
  } else {
    const q = new URLSearchParams({ browserState: state });
    if (opts.prePath) q.set('prePath', opts.prePath);
    if (opts.preQuery) q.set('preQuery', opts.preQuery);
    const r = await t.app.inject({ method: 'GET', url: `/v1/control/oidc/authorize?${q}` });
    expect(r.statusCode).toBe(302);
    authorizeUrl = r.headers.location as string;
  }
  expect(authorizeUrl.startsWith(`${provider.issuer}/authorize?`)).toBe(true);
  const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location') as string);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/v1/control/oidc/callback`);
  const callback = `${back.pathname}${back.search}`;
  const done = await t.app.inject({ method: 'GET', url: callback });
  expect(done.statusCode).toBe(302);
  return { location: new URL(done.headers.location as string, PUBLIC_URL), callback, state };
}

/** The console's side of a login's return: the one-time code with the state it stored. */
const exchange = (code: string | null, state: string) =>
  t.app.inject({ method: 'POST', url: '/v1/control/oidc/session', payload: { code: code ?? '', state } });

/** The console's side of a link's return, by the signed-in account. */
const completeLink = (auth: string, code: string | null, state: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/control/oidc/link/complete',
    headers: { authorization: auth },
    payload: { code: code ?? '', state },
  });

/** Links the provider's current subject to the account of `auth`, the whole way. */
async function link(auth: string): Promise<void> {
  const { location, state } = await roundTrip({ auth });
  expect(location.pathname).toBe('/Container/UserManager/UserCenter');
  const done = await completeLink(auth, location.searchParams.get('oidcCode'), state);
  expect(done.statusCode, done.body).toBe(204);
}

/** Logs in with the provider's current subject, the whole way: the exchange's answer. */
async function login(opts: { prePath?: string; preQuery?: string } = {}) {
  const { location, state } = await roundTrip(opts);
  expect(location.searchParams.get('oidcError')).toBeNull();
  return exchange(location.searchParams.get('oidcCode'), state);
}

async function sessionCount(userId: string): Promise<number> {
  const { rows } = await t.database.raw.query<{ n: number }>('select count(*)::int as n from sessions where user_id = $1', [userId]);
  return rows[0].n;
}

describe('third-party login (OpenID Connect)', () => {
  it('shows the login icon only when a provider is configured', async () => {
    const cfg = (await t.app.inject({ method: 'GET', url: '/v1/control/global-config' })).json();
    expect(cfg.oidc).toEqual({ enabled: true, name: 'Corp SSO' });

    const plain = await createTestApp();
    try {
      expect((await plain.app.inject({ method: 'GET', url: '/v1/control/global-config' })).json().oidc.enabled).toBe(false);
      const r = await plain.app.inject({ method: 'GET', url: '/v1/control/oidc/authorize' });
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('oidc.disabled');
    } finally {
      await plain.close();
    }
  });

  it('sends PKCE S256, state and nonce to the provider', async () => {
    const r = await t.app.inject({ method: 'GET', url: `/v1/control/oidc/authorize?browserState=${browserState()}` });
    const u = new URL(r.headers.location as string);
    expect(u.searchParams.get('client_id')).toBe(provider.clientId);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(u.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(u.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(32);
    // The verifier never leaves the server.
    const { rows } = await t.database.raw.query<{ code_verifier: string }>('select code_verifier from oidc_states where state = $1', [
      u.searchParams.get('state'),
    ]);
    expect(createHash('sha256').update(rows[0].code_verifier).digest('base64url')).toBe(u.searchParams.get('code_challenge'));
    expect(r.headers.location).not.toContain(rows[0].code_verifier);
  });

  it('refuses an identity no account is linked to, opening no session', async () => {
    provider.subject = `stranger-${randomBytes(4).toString('hex')}`;
    const { rows: before } = await t.database.raw.query<{ n: number }>('select count(*)::int as n from sessions');
    const { location } = await roundTrip();
    expect(location.pathname).toBe('/Login');
    expect(location.searchParams.get('oidcError')).toBe('oidc.not-linked');
    expect(location.searchParams.get('token')).toBeNull();
    const { rows: after } = await t.database.raw.query<{ n: number }>('select count(*)::int as n from sessions');
    expect(after[0].n).toBe(before[0].n);
  });

  it('links an identity from the signed-in account, then logs that account in through a one-time code and the return path', async () => {
    const manager = await activeTenant(t);
    provider.subject = `alice-${randomBytes(4).toString('hex')}`;

    const before = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/link', headers: { authorization: manager.auth } });
    expect(before.json()).toMatchObject({ enabled: true, linked: false });

    const linked = await roundTrip({ auth: manager.auth });
    expect(linked.location.pathname).toBe('/Container/UserManager/UserCenter');
    expect([...linked.location.searchParams.keys()].sort()).toEqual(['oidcCode', 'tab']);
    // Not linked until the console that started it finishes it.
    const half = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/link', headers: { authorization: manager.auth } });
    expect(half.json()).toMatchObject({ linked: false });
    expect((await completeLink(manager.auth, linked.location.searchParams.get('oidcCode'), linked.state)).statusCode).toBe(204);
    const state = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/link', headers: { authorization: manager.auth } });
    expect(state.json()).toMatchObject({ linked: true, issuer: provider.issuer, subject: provider.subject });

    const sessionsBefore = await sessionCount(manager.userId);
    const { location, callback, state: browser } = await roundTrip({ prePath: '/Container/CarManager', preQuery: 'tab=2' });
    expect(location.pathname).toBe('/Login');
    const q = location.searchParams;
    // The address carries a one-time code and nothing else: no session, no token.
    expect([...q.keys()]).toEqual(['oidcCode']);
    expect(await sessionCount(manager.userId)).toBe(sessionsBefore);

    const got = await exchange(q.get('oidcCode'), browser);
    expect(got.statusCode, got.body).toBe(200);
    const session = got.json() as { token: string; ujwt: string; prePath: string | null; preQuery: string | null };
    expect(session).toMatchObject({ prePath: '/Container/CarManager', preQuery: 'tab=2' });
    expect(await sessionCount(manager.userId)).toBe(sessionsBefore + 1);
    const self = await t.app.inject({ method: 'GET', url: '/v1/tenant/users/self', headers: { authorization: `Bearer ${session.token}` } });
    expect(self.statusCode).toBe(200);
    expect(self.json().id).toBe(manager.userId);
    expect(session.ujwt).toMatch(/^ey/);
    expect(session.ujwt).not.toBe(session.token);

    // The code is single use, and so is the callback: replaying either opens nothing.
    const again = await exchange(q.get('oidcCode'), browser);
    expect([again.statusCode, again.json().code]).toEqual([400, 'oidc.expired']);
    const replay = await t.app.inject({ method: 'GET', url: callback });
    expect(new URL(replay.headers.location as string, PUBLIC_URL).searchParams.get('oidcError')).toBe('oidc.expired');
    expect(await sessionCount(manager.userId)).toBe(sessionsBefore + 1);

    // The codes and states of the addresses never reach the log.
    await t.app.inject({ method: 'GET', url: `/Login?${q}` });
    const log = logLines.join('');
    expect(log).toContain('/v1/control/oidc/callback');
    expect(log).not.toContain(q.get('oidcCode') as string);
    expect(log).not.toContain(browser);
    expect(log).not.toContain(new URL(callback, PUBLIC_URL).searchParams.get('code') as string);

    // Unlinked, the same identity is refused again.
    const unlink = await t.app.inject({ method: 'DELETE', url: '/v1/control/oidc/link', headers: { authorization: manager.auth } });
    expect(unlink.statusCode).toBe(204);
    expect((await roundTrip()).location.searchParams.get('oidcError')).toBe('oidc.not-linked');
  });

  it('a return signs in only the browser that started it: another state, or none, is refused and the code is used up', async () => {
    const manager = await activeTenant(t);
    provider.subject = `dave-${randomBytes(4).toString('hex')}`;
    await link(manager.auth);
    const sessions = await sessionCount(manager.userId);

    // A link from elsewhere: someone else's flow, whose code lands in this browser, which stored another state.
    const theirs = await roundTrip();
    const code = theirs.location.searchParams.get('oidcCode');
    const refused = await exchange(code, browserState());
    expect([refused.statusCode, refused.json().code]).toEqual([400, 'oidc.bad-state']);
    // Used up by the refused try: the right state cannot redeem it afterwards.
    expect((await exchange(code, theirs.state)).json().code).toBe('oidc.expired');
    // No state at all is refused by the contract.
    const bare = await t.app.inject({ method: 'POST', url: '/v1/control/oidc/session', payload: { code: 'x' } });
    expect(bare.statusCode).toBe(400);
    expect(await sessionCount(manager.userId)).toBe(sessions);

    // A login not started with a browser state does not reach the provider.
    const calls = provider.tokenCalls;
    const start = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/authorize?prePath=/Container/CarManager' });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/Login?oidcError=oidc.bad-state');
    expect(provider.tokenCalls).toBe(calls);

    // The old return (a session in the address) is never produced.
    const ok = await roundTrip();
    expect(ok.location.searchParams.get('token')).toBeNull();
    expect((await exchange(ok.location.searchParams.get('oidcCode'), ok.state)).statusCode).toBe(200);
  });

  it('a link is finished only by the account and the browser that started it', async () => {
    const attacker = await activeTenant(t);
    const victim = await activeTenant(t);
    provider.subject = `erin-${randomBytes(4).toString('hex')}`;
    // The attacker starts a link of their own account; the victim's browser comes back with its code.
    const theirs = await roundTrip({ auth: attacker.auth });
    const code = theirs.location.searchParams.get('oidcCode');
    const asVictim = await completeLink(victim.auth, code, theirs.state);
    expect([asVictim.statusCode, asVictim.json().code]).toEqual([400, 'oidc.bad-state']);
    for (const who of [attacker, victim]) {
      const r = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/link', headers: { authorization: who.auth } });
      expect(r.json().linked).toBe(false);
    }
    // The account that started it, in another browser (another state), is refused too.
    const again = await roundTrip({ auth: attacker.auth });
    const wrong = await completeLink(attacker.auth, again.location.searchParams.get('oidcCode'), browserState());
    expect(wrong.json().code).toBe('oidc.bad-state');
    // A link started without a browser state is refused by the contract.
    const bare = await t.app.inject({ method: 'POST', url: '/v1/control/oidc/link', headers: { authorization: attacker.auth } });
    expect(bare.statusCode).toBe(400);
    expect((await roundTrip()).location.searchParams.get('oidcError')).toBe('oidc.not-linked');
  });

  it('will not link one identity to two accounts', async () => {
    const a = await activeTenant(t);
    const b = await activeTenant(t);
    provider.subject = `shared-${randomBytes(4).toString('hex')}`;
    await link(a.auth);
    const second = await roundTrip({ auth: b.auth });
    expect(second.location.searchParams.get('oidcError')).toBe('oidc.already-linked');
    const r = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/link', headers: { authorization: b.auth } });
    expect(r.json().linked).toBe(false);
  });

  it('rejects an ID token not signed by the provider’s published key, or carrying another nonce', async () => {
    const manager = await activeTenant(t);
    provider.subject = `bob-${randomBytes(4).toString('hex')}`;
    await link(manager.auth);
    const sessions = await sessionCount(manager.userId);

    provider.signWith = (await generateKeyPair('RS256')).privateKey;
    try {
      expect((await roundTrip()).location.searchParams.get('oidcError')).toBe('oidc.failed');
    } finally {
      provider.signWith = null;
    }
    provider.nonceOverride = 'not-the-nonce';
    try {
      expect((await roundTrip()).location.searchParams.get('oidcError')).toBe('oidc.failed');
    } finally {
      provider.nonceOverride = null;
    }
    expect(await sessionCount(manager.userId)).toBe(sessions);
    // With everything right again, the same identity gets in.
    expect((await login()).statusCode).toBe(200);
  });

  it('refuses a callback with an unknown state without calling the provider', async () => {
    const calls = provider.tokenCalls;
    const r = await t.app.inject({ method: 'GET', url: '/v1/control/oidc/callback?code=abc&state=forged' });
    expect(new URL(r.headers.location as string, PUBLIC_URL).searchParams.get('oidcError')).toBe('oidc.expired');
    expect(provider.tokenCalls).toBe(calls);
  });

  it('a pending-review tenant gets its review code, not a session', async () => {
    const manager = await activeTenant(t);
    provider.subject = `carol-${randomBytes(4).toString('hex')}`;
    await link(manager.auth);
    await t.database.raw.query('update tenants set status = 0 where id = $1', [manager.tenantId]);
    expect((await roundTrip()).location.searchParams.get('oidcError')).toBe('iot-tenant.10016');
  });
});

describe('OIDC configuration', () => {
  it('takes issuer, client id and secret together, naming what is missing or wrong', () => {
    expect(loadConfig({}).oidc).toBeNull();
    const ok = loadConfig({ OIDC_ISSUER: 'https://id.example.com/', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_NAME: 'SSO' });
    expect(ok.oidc).toEqual({ issuer: 'https://id.example.com', clientId: 'c', clientSecret: 's', name: 'SSO' });
    const missing = () => loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'c' });
    expect(missing).toThrow(ConfigError);
    expect(missing).toThrow(/^OIDC_CLIENT_SECRET: /);
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 's' })).toThrow(/^OIDC_ISSUER: /);
    expect(() => loadConfig({ OIDC_ISSUER: 'ftp://id.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' })).toThrow(
      /^OIDC_ISSUER: /,
    );
  });
});
