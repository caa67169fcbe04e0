import { z } from 'zod';
import { ReauthRequestSchema } from '../schemas/accounts.ts';
import { LoginRequestSchema, LoginResponseSchema, PrivilegesSchema } from '../schemas/session.ts';
import { defineRoute, IdParams } from './define.ts';

/** Spec §3 session calls: login (password or SMS code), logout, the caller's permission map, re-entering the password. */
export const SessionRoutes = {
  /** Login type 1 password, 2 mobile + SMS code. */
  login: defineRoute({
    method: 'POST',
    path: '/control/sessions',
    body: LoginRequestSchema,
    response: LoginResponseSchema,
    public: true,
  }),
  /** The same login, for a tenant manager's account. */
  tenantManagerLogin: defineRoute({
    method: 'POST',
    path: '/control/sessions/tenant-manager',
    body: LoginRequestSchema,
    response: LoginResponseSchema,
    public: true,
  }),
  /** A session of the read-only experience account (when the global config offers it). */
  experience: defineRoute({
    method: 'POST',
    path: '/control/sessions/experience',
    response: LoginResponseSchema,
    public: true,
  }),
  /**
   * A read-only, short-lived session of the caller's account for the monitor screen: the token its
   * window is opened with (spec §2 `/Watch?token=…`), held by that window alone.
   */
  monitor: defineRoute({
    method: 'POST',
    path: '/control/sessions/monitor',
    response: LoginResponseSchema,
    signedIn: true,
  }),
  /** Ends one of the caller's own sessions (204). */
  logout: defineRoute({
    method: 'DELETE',
    path: '/control/sessions/:id',
    params: IdParams,
    signedIn: true,
  }),
  /** The caller's permission map (spec §3 tenant permission info). */
  privileges: defineRoute({
    method: 'GET',
    path: '/control/privileges/self',
    response: PrivilegesSchema,
    signedIn: true,
  }),
  /** The caller enters the own password again before a sensitive action (204, or 400 when wrong). */
  reauth: defineRoute({
    method: 'POST',
    path: '/control/reauth',
    body: ReauthRequestSchema,
    signedIn: true,
  }),
};

/** Spec §7 control super-session: a system manager opens a tenant's console as that tenant. */
export const SuperSessionRoutes = {
  open: defineRoute({
    method: 'POST',
    path: '/control/super-session',
    body: z.object({ tenant_id: z.string().uuid(), read_only: z.boolean().default(true) }),
    response: LoginResponseSchema.extend({ tenant_name: z.string(), read_only: z.boolean() }),
    permission: 'control:super-session:create',
  }),
};

/** The caller's link to a third-party (OpenID Connect) login. */
export const OidcLinkSchema = z.object({
  enabled: z.boolean(),
  linked: z.boolean(),
  issuer: z.string().nullable(),
  subject: z.string().nullable(),
  created_at: z.number().int().nullable(),
});
export type OidcLink = z.infer<typeof OidcLinkSchema>;

/**
 * The random value a browser keeps (sessionStorage) when it starts a third-party login or link; the
 * one-time code the return leaves is exchanged only together with it.
 */
export const OidcBrowserStateSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);

/** A third-party return's one-time code and the state of the browser that started it. */
export const OidcExchangeSchema = z.object({ code: z.string().min(1).max(200), state: OidcBrowserStateSchema });

/**
 * Third-party login through the configured OpenID Connect provider. `authorize` and `callback` are
 * browser navigations answered with a redirect (302), not JSON calls: the console links to
 * `authorize`, the provider sends the browser to `callback`, which leaves a one-time code
 * (`oidcCode`) in the console's address; the console exchanges it with its stored state (POST).
 */
export const OidcRoutes = {
  /**
   * Redirects to the provider; `prePath`/`preQuery` are where the console goes after login,
   * `browserState` the value this browser stored (without it the login goes back refused).
   */
  authorize: defineRoute({
    method: 'GET',
    path: '/control/oidc/authorize',
    query: z.object({
      prePath: z.string().max(2000).optional(),
      preQuery: z.string().max(2000).optional(),
      browserState: z.string().max(200).optional(),
    }),
    public: true,
  }),
  /** Exchanges a login's one-time code, with this browser's state, for the session and where to go. */
  exchange: defineRoute({
    method: 'POST',
    path: '/control/oidc/session',
    body: OidcExchangeSchema,
    response: LoginResponseSchema.extend({ prePath: z.string().nullable(), preQuery: z.string().nullable() }),
    public: true,
  }),
  /** The provider's answer: redirects to the login page (or user centre) with a one-time code, or with `oidcError`. */
  callback: defineRoute({
    method: 'GET',
    path: '/control/oidc/callback',
    query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }).passthrough(),
    public: true,
  }),
  /** Whether third-party login is on, and the caller's link. */
  link: defineRoute({
    method: 'GET',
    path: '/control/oidc/link',
    response: OidcLinkSchema,
    signedIn: true,
  }),
  /** Starts linking the caller's account (this browser's state along): the provider URL the browser goes to. */
  startLink: defineRoute({
    method: 'POST',
    path: '/control/oidc/link',
    body: z.object({ browser_state: OidcBrowserStateSchema }),
    response: z.object({ url: z.string() }),
    signedIn: true,
  }),
  /** Finishes a link: the return's one-time code with this browser's state, by the account that started it (204). */
  completeLink: defineRoute({
    method: 'POST',
    path: '/control/oidc/link/complete',
    body: OidcExchangeSchema,
    signedIn: true,
  }),
  /** Removes the caller's link (204). */
  unlink: defineRoute({
    method: 'DELETE',
    path: '/control/oidc/link',
    signedIn: true,
  }),
};
