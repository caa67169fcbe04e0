import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { OidcConfig } from '../../config.ts';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

/** A provider refused or answered something unusable; the message is for the log, never the user. */
export class OidcError extends Error {
  override name = 'OidcError';
}

const TIMEOUT_MS = 10_000;

export const randomToken = () => randomBytes(32).toString('base64url');
/** PKCE S256 (RFC 7636): the challenge sent out is the SHA-256 of the verifier kept here. */
export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * The relying-party side of the authorization-code flow with PKCE, state and nonce.
 * Endpoints come from the provider's discovery document; the ID token is checked
 * against the provider's published keys (JWKS), its issuer, audience, expiry and nonce.
 */
export function oidcClient(cfg: OidcConfig, redirectUri: string) {
  let discovery: Promise<Discovery> | null = null;
  let keys: JWTVerifyGetKey | null = null;

  async function fetchJson(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok || !body || typeof body !== 'object') {
      throw new OidcError(`${url} answered ${res.status}${body?.error ? ` ${String(body.error)}` : ''}`);
    }
    return body;
  }

  function discover(): Promise<Discovery> {
    discovery ??= (async () => {
      const d = await fetchJson(`${cfg.issuer}/.well-known/openid-configuration`);
      for (const k of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
        if (typeof d[k] !== 'string') throw new OidcError(`discovery document lacks ${k}`);
      }
      // OpenID Connect Discovery §4.3: the document must name the issuer it was fetched for.
      if ((d.issuer as string).replace(/\/+$/, '') !== cfg.issuer) throw new OidcError(`discovery names issuer ${String(d.issuer)}`);
      keys = createRemoteJWKSet(new URL(d.jwks_uri as string), { timeoutDuration: TIMEOUT_MS });
      return d as unknown as Discovery;
    })();
    // A provider that was down is asked again next time.
    discovery.catch(() => {
      discovery = null;
    });
    return discovery;
  }

  return {
    async authorizationUrl(p: { state: string; nonce: string; codeVerifier: string }): Promise<string> {
      const d = await discover();
      const u = new URL(d.authorization_endpoint);
      u.searchParams.set('response_type', 'code');
      u.searchParams.set('client_id', cfg.clientId);
      u.searchParams.set('redirect_uri', redirectUri);
      u.searchParams.set('scope', 'openid');
      u.searchParams.set('state', p.state);
      u.searchParams.set('nonce', p.nonce);
      u.searchParams.set('code_challenge', pkceChallenge(p.codeVerifier));
      u.searchParams.set('code_challenge_method', 'S256');
      return u.toString();
    },

    /** Trades the code for tokens and returns who the verified ID token names. */
    async exchange(code: string, codeVerifier: string, nonce: string): Promise<{ issuer: string; subject: string }> {
      const d = await discover();
      const basic = Buffer.from(`${encodeURIComponent(cfg.clientId)}:${encodeURIComponent(cfg.clientSecret)}`).toString('base64');
      const tokens = await fetchJson(d.token_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier }),
      });
      if (typeof tokens.id_token !== 'string') throw new OidcError('token response has no id_token');
      let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
      try {
        ({ payload } = await jwtVerify(tokens.id_token, keys as JWTVerifyGetKey, {
          issuer: d.issuer,
          audience: cfg.clientId,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: 60,
        }));
      } catch (e) {
        throw new OidcError(`ID token rejected: ${(e as Error).message}`);
      }
      if (payload.nonce !== nonce) throw new OidcError('ID token nonce does not match');
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== cfg.clientId) {
        throw new OidcError('ID token issued to another party');
      }
      return { issuer: d.issuer.replace(/\/+$/, ''), subject: payload.sub as string };
    },
  };
}
export type OidcClient = ReturnType<typeof oidcClient>;
