import { createHash, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal OpenID Connect provider for browser tests: discovery, an authorize endpoint that
 * signs the browser in as `subject` at once, a token endpoint checking the client secret and
 * PKCE, and the JWKS of an RSA key made at start.
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  subject: string;
  close(): Promise<void>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export async function startProvider(): Promise<TestProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'e2e', alg: 'RS256', use: 'sig' };
  const grants = new Map<string, { challenge: string; nonce: string; redirect: string; sub: string }>();
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const p: TestProvider = {
    issuer,
    clientId: 'loggerhead-e2e',
    clientSecret: randomBytes(12).toString('hex'),
    subject: 'e2e-user',
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const sign = (claims: Record<string, unknown>) => {
    const input = `${b64url(JSON.stringify({ alg: 'RS256', kid: 'e2e', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    return `${input}.${b64url(createSign('RSA-SHA256').update(input).sign(privateKey))}`;
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
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const q = url.searchParams;
      const code = randomBytes(16).toString('hex');
      grants.set(code, {
        challenge: q.get('code_challenge') ?? '',
        nonce: q.get('nonce') ?? '',
        redirect: q.get('redirect_uri') ?? '',
        sub: p.subject,
      });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
          .toString()
          .split(':')
          .map(decodeURIComponent);
        if (id !== p.clientId || secret !== p.clientSecret) return json(res, 401, { error: 'invalid_client' });
        const g = grants.get(form.get('code') ?? '');
        grants.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!g || g.redirect !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== g.challenge) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        const now = Math.floor(Date.now() / 1000);
        const idToken = sign({ iss: issuer, aud: p.clientId, sub: g.sub, nonce: g.nonce, iat: now, exp: now + 300 });
        json(res, 200, { access_token: randomBytes(8).toString('hex'), token_type: 'Bearer', id_token: idToken });
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  return p;
}

/** A port free right now on the loopback (for a server whose public address must be known before it starts). */
export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
