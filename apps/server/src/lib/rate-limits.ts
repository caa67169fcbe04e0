import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimits } from '../config.ts';
import { ApiError } from './errors.ts';
import type { App } from './fastify.ts';

/**
 * Rate limits of the calls worth guessing or flooding (docs/security.md): logins and other password
 * checks, verification codes, password resets, registrations and uploads. Each kind counts per
 * client address (before the body is read; behind TRUST_PROXY the address comes from
 * X-Forwarded-For) and per account — the login name, mobile or destination in the body, the signed-in
 * user for an upload — in fixed windows of RATE_LIMIT_WINDOW seconds. Beyond a limit the answer is
 * 429 `http.429` with Retry-After. These come on top of the verification codes' own limits
 * (CODE_IP_LIMIT, one code a minute per destination, five tries a code) and the lock after five
 * wrong passwords. The counts live in this process: each copy of a cluster counts its own.
 */

export type LimitKind = Exclude<keyof RateLimits, 'windowSeconds'>;

interface Rule {
  kind: LimitKind;
  /** The account a request is about (lower case), when it names one. */
  account?: (req: FastifyRequest) => string | null;
}

/** The first non-empty of these body fields, as one account however it is typed. */
const bodyField =
  (...names: string[]) =>
  (req: FastifyRequest): string | null => {
    const body = req.body as Record<string, unknown> | null | undefined;
    for (const name of names) {
      const v = body?.[name];
      if (typeof v === 'string' && v.trim()) return accountKey(v);
    }
    return null;
  };
/** A phone number by its digits; a name or e-mail address without case. */
const accountKey = (v: string) => (/^[\d\s()+-]+$/.test(v) ? v.replace(/[^\d+]/g, '') : v.trim().toLowerCase());
const signedIn = (req: FastifyRequest) => req.auth?.userId ?? null;

/** Limited routes by their router pattern (the /api alias and other spellings match the same). */
export const LIMITED_ROUTES: Readonly<Record<string, Rule>> = {
  'POST /v1/control/sessions': { kind: 'login', account: bodyField('username') },
  'POST /v1/control/sessions/tenant-manager': { kind: 'login', account: bodyField('username') },
  'POST /v1/control/sessions/experience': { kind: 'login' },
  'GET /v1/control/oidc/authorize': { kind: 'login' },
  'GET /v1/control/oidc/callback': { kind: 'login' },
  'POST /v1/control/oidc/session': { kind: 'login' },
  'POST /v1/control/oidc/link/complete': { kind: 'login', account: signedIn },
  'POST /v1/control/reauth': { kind: 'login', account: signedIn },
  'PUT /v1/tenant/users/self/password': { kind: 'login', account: signedIn },
  'POST /v1/out-web/user/login': { kind: 'login', account: bodyField('username') },
  'PUT /v1/out-web/user/password/update': { kind: 'login', account: signedIn },
  'POST /v1/out-web/deploy/web/release': { kind: 'login', account: signedIn },
  'POST /v1/tenant/verification-codes': { kind: 'code', account: bodyField('destination') },
  'POST /v1/tenant/reset-password': { kind: 'reset', account: bodyField('source') },
  'POST /v1/tenant/user-tenants': { kind: 'register', account: bodyField('mobile', 'email', 'username') },
};

/** Any request that carries a file: a multipart form, raw bytes or a CSV import. */
const UPLOAD: Rule = {
  kind: 'upload',
  // A device's recall upload has no session: its one-time token (with the device's proof) is its account.
  account: (req) => signedIn(req) ?? (req.params as { token?: string } | undefined)?.token ?? null,
};
const FILE_BODY = /^\s*(?:multipart\/form-data|application\/octet-stream|text\/csv)\b/i;

export function ruleOf(req: FastifyRequest): Rule | null {
  const route = req.routeOptions.url;
  if (!route) return null;
  const rule = LIMITED_ROUTES[`${req.method} ${route}`];
  if (rule) return rule;
  if ((req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') && FILE_BODY.test(req.headers['content-type'] ?? '')) {
    return UPLOAD;
  }
  return null;
}

type Limiter = ReturnType<App['createRateLimit']>;

export async function registerRateLimits(app: App, limits: RateLimits): Promise<void> {
  await app.register(rateLimit, { global: false });
  const timeWindow = limits.windowSeconds * 1000;
  // Counters kept per limiter (least recently used dropped beyond this many keys).
  const cache = 20_000;
  const byAddress = new Map<LimitKind, Limiter>();
  const byAccount = new Map<LimitKind, Limiter>();
  for (const kind of Object.keys(limits).filter((k) => k !== 'windowSeconds') as LimitKind[]) {
    const { perAddress, perAccount } = limits[kind];
    // The default key: the client address (an IPv6 address by its /64).
    if (perAddress > 0) byAddress.set(kind, app.createRateLimit({ max: perAddress, timeWindow, cache } as never));
    if (perAccount > 0) {
      const keyGenerator = (req: FastifyRequest) => ruleOf(req)?.account?.(req) ?? '';
      byAccount.set(kind, app.createRateLimit({ max: perAccount, timeWindow, cache, keyGenerator } as never));
    }
  }

  app.addHook('onRequest', async (req, reply) => {
    const rule = ruleOf(req);
    const limiter = rule && byAddress.get(rule.kind);
    if (limiter) await enforce(limiter, req, reply);
  });
  // After the body is parsed and validated, and the caller known.
  app.addHook('preHandler', async (req, reply) => {
    const rule = ruleOf(req);
    const limiter = rule && byAccount.get(rule.kind);
    if (limiter && rule.account?.(req)) await enforce(limiter, req, reply);
  });
}

async function enforce(limiter: Limiter, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const r = await limiter(req);
  if (r.isAllowed || !r.isExceeded) return;
  const seconds = Math.max(1, r.ttlInSeconds);
  reply.header('retry-after', String(seconds));
  throw new ApiError(429, 'http.429', `Too many requests, try again in ${seconds} s`, { details: { seconds } });
}
