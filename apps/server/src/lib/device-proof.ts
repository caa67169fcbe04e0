import { timingSafeEqual } from 'node:crypto';
import { LINK_PROOF_HEADER, linkProof } from '@loggerhead/can/protocol/link-proof.ts';
import type { RawSql } from '../db/client.ts';
import { deviceKeyOf } from './device-keys.repository.ts';
import { ApiError } from './errors.ts';

/**
 * A one-time link of a command opens only for the device it was issued for: the request carries
 * `X-Device-Proof`, the HMAC of the link's token under that device's key
 * (`packages/can/src/protocol/link-proof.ts`). Missing: 401 `device-link.no-proof`; another
 * device's, or made with an old key: 403 `device-link.bad-proof`.
 */
export async function checkLinkProof(raw: RawSql, thingsId: string, token: string, given: string | string[] | undefined): Promise<void> {
  const proof = Array.isArray(given) ? given[0] : given;
  if (!proof) throw ApiError.of('device-link.no-proof');
  const key = await deviceKeyOf(raw, thingsId);
  const expected = Buffer.from(key ? linkProof(key, token) : '');
  const sent = Buffer.from(proof.toLowerCase());
  if (!key || sent.length !== expected.length || !timingSafeEqual(sent, expected)) throw ApiError.of('device-link.bad-proof');
}

export { LINK_PROOF_HEADER };
