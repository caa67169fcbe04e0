import { ErrorResponseSchema } from '@loggerhead/contract';
import { z } from 'zod';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { type Auth, requireAuth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import { OidcError, oidcClient, randomToken } from './oidc.client.ts';

const STATE_TTL_MS = 10 * 60_000;
const LOGIN = '/Login';
const USER_CENTRE = '/Container/UserManager/UserCenter?tab=security';
const tags = ['control'];

/** Only a path inside this console may be a redirect target (no `//host`, scheme or backslash). */
const safePath = (p: string | undefined) => (p?.startsWith('/') && !p.startsWith('//') && !p.includes('\\') ? p : null);

interface StateRow {
  code_verifier: string;
  nonce: string;
  link_user_id: string | null;
  pre_path: string | null;
  pre_query: string | null;
  expires_at: Date;
}

/**
 * Third-party login through the configured OpenID Connect provider (spec §2: the redirect
 * back carries token, ujwt, loginUrl, belongPlatform, prePath, preQuery). An account is
 * found by a stored (issuer, subject) link that its owner made while signed in (user
 * centre); an unknown subject is refused (docs/decisions/0011-oidc-login.md).
 */
export function oidcRoutes(app: LoggerheadApp, ctx: AppContext) {
  const cfg = ctx.config.oidc;
  const raw = ctx.database.raw;
  const publicUrl = ctx.config.publicUrl.replace(/\/+$/, '');
  const client = cfg ? oidcClient(cfg, `${publicUrl}/v1/control/oidc/callback`) : null;

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
    await raw.query('delete from oidc_states where expires_at < now()');
    await raw.query(
      'insert into oidc_states(state, code_verifier, nonce, link_user_id, pre_path, pre_query, expires_at) values ($1,$2,$3,$4,$5,$6,$7)',
      [state, codeVerifier, nonce, p.linkUserId, p.prePath, p.preQuery, new Date(Date.now() + STATE_TTL_MS)],
    );
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

  app.get(
    '/v1/control/oidc/authorize',
    {
      config: { public: true, noOpLog: true },
      schema: { tags, querystring: z.object({ prePath: z.string().max(2000).optional(), preQuery: z.string().max(2000).optional() }) },
    },
    async (req, reply) => {
      const url = await begin({ linkUserId: null, prePath: safePath(req.query.prePath), preQuery: req.query.preQuery || null });
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/v1/control/oidc/callback',
    {
      config: { public: true, noOpLog: true },
      schema: {
        tags,
        querystring: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }).passthrough(),
      },
    },
    async (req, reply) => {
      const fail = (to: string, code: string) =>
        reply.redirect(`${to}${to.includes('?') ? '&' : '?'}oidcError=${encodeURIComponent(code)}`, 302);
      if (!client) return fail(LOGIN, 'oidc.disabled');
      const { rows } = req.query.state
        ? await raw.query<StateRow>('delete from oidc_states where state = $1 returning *', [req.query.state])
        : { rows: [] as StateRow[] };
      const flow = rows[0];
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
        const taken = await raw.query<{ user_id: string }>('select user_id from user_identities where issuer = $1 and subject = $2', [
          who.issuer,
          who.subject,
        ]);
        if (taken.rows[0] && taken.rows[0].user_id !== flow.link_user_id) return fail(back, 'oidc.already-linked');
        await raw.transaction(async (tx) => {
          await tx.query('delete from user_identities where user_id = $1 and issuer = $2', [flow.link_user_id, who.issuer]);
          await tx.query('insert into user_identities(issuer, subject, user_id) values ($1, $2, $3)', [
            who.issuer,
            who.subject,
            flow.link_user_id,
          ]);
        });
        return reply.redirect(`${USER_CENTRE}&oidc=linked`, 302);
      }

      const found = await raw.query<{ user_id: string; user_status: number; tenant_status: number; belong_platform: string | null }>(
        `select u.id as user_id, u.status as user_status, t.status as tenant_status, t.belong_platform
           from user_identities i join users u on u.id = i.user_id join tenants t on t.id = u.tenant_id
          where i.issuer = $1 and i.subject = $2`,
        [who.issuer, who.subject],
      );
      const acc = found.rows[0];
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
    },
  );

  const LinkSchema = z.object({
    linked: z.boolean(),
    issuer: z.string().nullable(),
    subject: z.string().nullable(),
    created_at: z.number().int().nullable(),
  });

  app.get('/v1/control/oidc/link', { schema: { tags, response: { 200: LinkSchema.extend({ enabled: z.boolean() }) } } }, async (req) => {
    const auth = requireAuth(req.auth);
    const { rows } = await raw.query<{ issuer: string; subject: string; created_at: Date }>(
      'select issuer, subject, created_at from user_identities where user_id = $1 and issuer = $2',
      [auth.userId, cfg?.issuer ?? ''],
    );
    const r = rows[0];
    return {
      enabled: client !== null,
      linked: Boolean(r),
      issuer: r?.issuer ?? null,
      subject: r?.subject ?? null,
      created_at: r ? r.created_at.getTime() : null,
    };
  });

  app.post(
    '/v1/control/oidc/link',
    { schema: { tags, response: { 200: z.object({ url: z.string() }), 403: ErrorResponseSchema, 404: ErrorResponseSchema } } },
    async (req) => {
      const auth = requireAuth(req.auth);
      assertCanLink(auth);
      return { url: await begin({ linkUserId: auth.userId, prePath: null, preQuery: null }) };
    },
  );

  app.delete('/v1/control/oidc/link', { schema: { tags } }, async (req, reply) => {
    const auth = requireAuth(req.auth);
    assertCanLink(auth);
    await raw.query('delete from user_identities where user_id = $1', [auth.userId]);
    return reply.code(204).send();
  });
}
