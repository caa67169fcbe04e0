import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import { OidcBrowserStateSchema } from '@loggerhead/contract/routes/control.ts';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type Auth, requireAuth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import { API_PREFIX, route } from '../../lib/route.ts';
import { OidcError, oidcClient, randomToken } from './oidc.client.ts';
import { oidcRepository } from './oidc.repository.ts';

const STATE_TTL_MS = 10 * 60_000;
/** A return's one-time code is exchanged by the browser right away. */
const CODE_TTL_MS = 2 * 60_000;
const LOGIN = '/Login';
const USER_CENTRE = '/Container/UserManager/UserCenter?tab=security';
const tags = ['control'];
const R = Routes.oidc;

/** Only a path inside this console may be a redirect target (no `//host`, scheme or backslash). */
const safePath = (p: string | undefined) => (p?.startsWith('/') && !p.startsWith('//') && !p.includes('\\') ? p : null);
const digest = (v: string) => createHash('sha256').update(v).digest('base64url');
const sameDigest = (a: string, b: string) => timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Third-party login through the configured OpenID Connect provider. An account is found by a
 * stored (issuer, subject) link that its owner made while signed in (user centre); an unknown
 * subject is refused (docs/decisions/0011-oidc-login.md). The return carries no session: a
 * one-time code that only the browser which started the flow can exchange, with the state it
 * stored before it left (docs/decisions/0207-links-never-replace-a-session.md).
 */
export function oidcRoutes(app: LoggerheadApp, ctx: AppContext) {
  const cfg = ctx.config.oidc;
  const repo = oidcRepository(ctx.database.raw);
  const publicUrl = ctx.config.publicUrl.replace(/\/+$/, '');
  const client = cfg ? oidcClient(cfg, `${publicUrl}${API_PREFIX}${R.callback.path}`) : null;

  const enabled = () => {
    if (!client || !cfg) throw new ApiError(404, 'oidc.disabled');
    return { client, cfg };
  };

  async function begin(p: {
    linkUserId: string | null;
    prePath: string | null;
    preQuery: string | null;
    browserState: string;
  }): Promise<string> {
    const { client } = enabled();
    const state = randomToken();
    const nonce = randomToken();
    const codeVerifier = randomToken();
    // Now and then, drop flows nobody finished.
    await repo.startFlow({
      state,
      codeVerifier,
      nonce,
      linkUserId: p.linkUserId,
      prePath: p.prePath,
      preQuery: p.preQuery,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
      browserStateHash: digest(p.browserState),
    });
    try {
      return await client.authorizationUrl({ state, nonce, codeVerifier });
    } catch (e) {
      app.log.warn({ err: e }, 'OpenID provider discovery failed');
      throw new ApiError(502, 'oidc.failed');
    }
  }

  function assertCanLink(auth: Auth) {
    if (auth.readOnly) throw forbidden('The experience account is read-only');
  }

  /** A return's one-time code: the browser's address gets the code, the database only its digest. */
  async function leaveCode(c: Parameters<typeof repo.putCode>[1]): Promise<string> {
    const code = randomToken();
    await repo.putCode(digest(code), c, new Date(Date.now() + CODE_TTL_MS));
    return code;
  }

  /** The code of this exchange, used up; refused unless it is of `kind`, unexpired, and bound to this state. */
  async function takeCode(kind: 'login' | 'link', code: string, state: string) {
    const row = await repo.takeCode(digest(code));
    if (!row || row.kind !== kind || row.expires_at.getTime() < Date.now()) throw new ApiError(400, 'oidc.expired');
    if (!sameDigest(row.browser_state_hash, digest(state))) throw new ApiError(400, 'oidc.bad-state');
    return row;
  }

  route(app, R.authorize, { tags, config: { noOpLog: true } }, async (req, reply) => {
    enabled();
    const browserState = OidcBrowserStateSchema.safeParse(req.query.browserState);
    if (!browserState.success) return reply.redirect(`${LOGIN}?oidcError=oidc.bad-state`, 302);
    const url = await begin({
      linkUserId: null,
      prePath: safePath(req.query.prePath),
      preQuery: req.query.preQuery || null,
      browserState: browserState.data,
    });
    return reply.redirect(url, 302);
  });

  route(
    app,
    R.exchange,
    { tags, config: { noOpLog: true }, errors: { 400: ErrorResponseSchema, 403: ErrorResponseSchema } },
    async (req) => {
      enabled();
      const row = await takeCode('login', req.body.code, req.body.state);
      // Checked again at the exchange: the account may have been closed since the return.
      const acc = row.issuer && row.subject ? await repo.account(row.issuer, row.subject) : null;
      if (!acc || acc.user_id !== row.user_id) throw new ApiError(400, 'oidc.not-linked');
      if (acc.tenant_status === 0) throw new ApiError(403, 'iot-tenant.10016');
      if (acc.tenant_status !== 1 || acc.user_status !== 1) throw new ApiError(403, 'http.403');
      const session = await ctx.control.loginLinked(acc.user_id, req.ip, req.headers['user-agent'] ?? null);
      if (!session) throw new ApiError(400, 'oidc.not-linked');
      return { ...session, prePath: row.pre_path, preQuery: row.pre_query };
    },
  );

  route(app, R.callback, { tags, config: { noOpLog: true } }, async (req, reply) => {
    const fail = (to: string, code: string) =>
      reply.redirect(`${to}${to.includes('?') ? '&' : '?'}oidcError=${encodeURIComponent(code)}`, 302);
    if (!client) return fail(LOGIN, 'oidc.disabled');
    const flow = req.query.state ? await repo.takeFlow(req.query.state) : null;
    if (!flow || flow.expires_at.getTime() < Date.now()) return fail(LOGIN, 'oidc.expired');
    const back = flow.link_user_id ? USER_CENTRE : LOGIN;
    // A flow no browser state was stored for (started before this was asked) is not finished.
    const browserStateHash = flow.browser_state_hash;
    if (!browserStateHash) return fail(back, 'oidc.bad-state');
    if (req.query.error || !req.query.code) return fail(back, 'oidc.failed');

    let who: { issuer: string; subject: string };
    try {
      who = await client.exchange(req.query.code, flow.code_verifier, flow.nonce);
    } catch (e) {
      req.log.warn({ err: e instanceof OidcError ? e.message : e }, 'third-party login refused');
      return fail(back, 'oidc.failed');
    }

    const identity = { issuer: who.issuer, subject: who.subject, browser_state_hash: browserStateHash };
    if (flow.link_user_id) {
      const taken = await repo.linkedUser(who.issuer, who.subject);
      if (taken && taken !== flow.link_user_id) return fail(back, 'oidc.already-linked');
      const code = await leaveCode({ ...identity, kind: 'link', user_id: flow.link_user_id, pre_path: null, pre_query: null });
      return reply.redirect(`${USER_CENTRE}&oidcCode=${code}`, 302);
    }

    const acc = await repo.account(who.issuer, who.subject);
    if (!acc) return fail(LOGIN, 'oidc.not-linked');
    if (acc.tenant_status === 0) return fail(LOGIN, 'iot-tenant.10016');
    if (acc.tenant_status !== 1 || acc.user_status !== 1) return fail(LOGIN, 'http.403');
    const code = await leaveCode({ ...identity, kind: 'login', user_id: acc.user_id, pre_path: flow.pre_path, pre_query: flow.pre_query });
    return reply.redirect(`${LOGIN}?oidcCode=${code}`, 302);
  });

  route(app, R.link, { tags }, async (req) => {
    const auth = requireAuth(req.auth);
    const r = await repo.linkOf(auth.userId, cfg?.issuer ?? '');
    return {
      enabled: client !== null,
      linked: Boolean(r),
      issuer: r?.issuer ?? null,
      subject: r?.subject ?? null,
      created_at: r ? r.created_at.getTime() : null,
    };
  });

  route(app, R.startLink, { tags, errors: { 403: ErrorResponseSchema, 404: ErrorResponseSchema } }, async (req) => {
    const auth = requireAuth(req.auth);
    assertCanLink(auth);
    return { url: await begin({ linkUserId: auth.userId, prePath: null, preQuery: null, browserState: req.body.browser_state }) };
  });

  // The link is stored only when the account that started it, in the browser that started it, says so.
  route(
    app,
    R.completeLink,
    { tags, errors: { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 409: ErrorResponseSchema } },
    async (req, reply) => {
      const auth = requireAuth(req.auth);
      assertCanLink(auth);
      enabled();
      const row = await takeCode('link', req.body.code, req.body.state);
      if (row.user_id !== auth.userId || !row.issuer || !row.subject) throw new ApiError(400, 'oidc.bad-state');
      const taken = await repo.linkedUser(row.issuer, row.subject);
      if (taken && taken !== auth.userId) throw new ApiError(409, 'oidc.already-linked');
      await repo.link(auth.userId, row.issuer, row.subject);
      return reply.code(204).send();
    },
  );

  route(app, R.unlink, { tags }, async (req, reply) => {
    const auth = requireAuth(req.auth);
    assertCanLink(auth);
    await repo.unlink(auth.userId);
    return reply.code(204).send();
  });
}
