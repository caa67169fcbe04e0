import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { RawSql } from '../../db/client.ts';
import { secretsRepository } from './secrets.repository.ts';

export interface TokenClaims {
  sid: string;
  sub: string;
  tid: string;
  /** A monitor screen's session (read-only, short-lived): its tab holds it apart from the console's session. */
  mon?: true;
}

/** Signs and verifies session tokens with a key kept in the database, so sessions survive a restart. */
export class TokenSigner {
  private constructor(private readonly key: Uint8Array) {}

  static async load(raw: RawSql): Promise<TokenSigner> {
    const fresh = randomBytes(32).toString('base64');
    const value = await secretsRepository(raw).getOrCreate('jwt', fresh);
    return new TokenSigner(Buffer.from(value, 'base64'));
  }

  sign(claims: TokenClaims, audience: 'console' | 'ujwt', expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sid, tid: claims.tid, ...(claims.mon ? { mon: true } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setAudience(audience)
      .setIssuer('loggerhead')
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  async verify(token: string, audience: 'console' | 'ujwt' = 'console'): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { audience, issuer: 'loggerhead' });
      if (typeof payload.sid !== 'string' || typeof payload.tid !== 'string' || typeof payload.sub !== 'string') return null;
      return { sid: payload.sid, tid: payload.tid, sub: payload.sub };
    } catch {
      return null;
    }
  }
}
