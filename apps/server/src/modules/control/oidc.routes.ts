import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type Auth, requireAuth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import { API_PREFIX, route } from '../../lib/route.ts';
import { OidcError, oidcClient, randomToken } from './oidc.client.ts';
import { oidcRepository } from './oidc.repository.ts';

const STATE_TTL_MS = 10 * 60_000;
const LOGIN = '/Login';
const USER_CENTRE = '/Container/UserManager/UserCenter?tab=security';
const tags = ['control'];
const R = Routes.oidc;

/** Only a path inside this console may be a redirect target (no `//host`, scheme or backslash). */
const safePath = (p: string | undefined) => (p?.startsWith('/') && !p.startsWith('//') && !p.includes('\\') ? p : null);

/**
 * Third-party login through the configured OpenID Connect provider (spec §2: the redirect
 * back carries token, ujwt, loginUrl, belongPlatform, prePath, preQuery). An account is
 * found by a stored (issuer, subject) link that its owner made while signed in (user
 * centre); an unknown subject is refused (docs/decisions/0011-oidc-login.md).
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

  async function begin(p: { linkUserId: string | null; prePath: string | null; preQuery: string | null }): Promise<string> {
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

  route(app, R.authorize, { tags, config: { noOpLog: true } }, async (req, reply) => {
    const url = await begin({ linkUserId: null, prePath: safePath(req.query.prePath), preQuery: req.query.preQuery || null });
    return reply.redirect(url, 302);
  });

  route(app, R.callback, { tags, config: { noOpLog: true } }, async (req, reply) => {
    const fail = (to: string, code: string) =>
      reply.redirect(`${to}${to.includes('?') ? '&' : '?'}oidcError=${encodeURIComponent(code)}`, 302);
    if (!client) return fail(LOGIN, 'oidc.disabled');
    const flow = req.query.state ? await repo.takeFlow(req.query.state) : null;
    if (!flow || flow.expires_at.getTime() < Date.now()) return fail(LOGIN, 'oidc.expired');
    const back = flow.link_user_id ? USER_CENTRE : LOGIN;
    if (req.query.error || !req.query.code) return fail(back, 'oidc.failed');

    let who: { issuer: string; subject: string };
    try {
      who = await client.exchange(req.query.code, flow.code_verifier, flow.nonce);
    } catch (e) {
      req.log.warn({ err: e instanceof OidcError ? e.message : e }, 'third-party login refused');
      return fail(back, 'oidc.failed');
    }

    if (flow.link_user_id) {
      const taken = await repo.linkedUser(who.issuer, who.subject);
      if (taken && taken !== flow.link_user_id) return fail(back, 'oidc.already-linked');
      await repo.link(flow.link_user_id, who.issuer, who.subject);
      return reply.redirect(`${USER_CENTRE}&oidc=linked`, 302);
    }

    const acc = await repo.account(who.issuer, who.subject);
    if (!acc) return fail(LOGIN, 'oidc.not-linked');
    if (acc.tenant_status === 0) return fail(LOGIN, 'iot-tenant.10016');
    if (acc.tenant_status !== 1 || acc.user_status !== 1) return fail(LOGIN, 'http.403');
    const session = await ctx.control.loginLinked(acc.user_id, req.ip, req.headers['user-agent'] ?? null);
    if (!session) return fail(LOGIN, 'oidc.not-linked');
    const q = new URLSearchParams({
      token: session.token,
      ujwt: session.ujwt,
      loginUrl: `${publicUrl}${LOGIN}`,
      belongPlatform: acc.belong_platform ?? '',
      prePath: flow.pre_path ?? '',
      preQuery: flow.pre_query ?? '',
    });
    return reply.redirect(`${LOGIN}?${q}`, 302);
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
    return { url: await begin({ linkUserId: auth.userId, prePath: null, preQuery: null }) };
  });

  route(app, R.unlink, { tags }, async (req, reply) => {
    const auth = requireAuth(req.auth);
    assertCanLink(auth);
    await repo.unlink(auth.userId);
    return reply.code(204).send();
  });
}
