import { createHmac } from 'node:crypto';

/**
 * The header a device sends with each request on a one-time link of a command (a recalled file's
 * upload, a firmware download): HMAC-SHA256 of the link's token under the device's `things_key`,
 * in hexadecimal. The token alone is not enough: a leaked command does not open its links to anyone
 * but the device it was issued for, and the key itself never travels.
 */
export const LINK_PROOF_HEADER = 'x-device-proof';

/** The token of a one-time link (its URL, its path or the token itself): the last path segment. */
export function linkToken(url: string): string {
  const path = url.split(/[?#]/, 1)[0];
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The proof of `key` for a link (its URL, its path or its token). */
export function linkProof(key: string, urlOrToken: string): string {
  return createHmac('sha256', key).update(linkToken(urlOrToken)).digest('hex');
}
