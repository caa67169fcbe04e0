import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

/** bcrypt cost 10, as spec §9 says. */
export const BCRYPT_COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, BCRYPT_COST);
}

export function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return bcrypt.compare(plain, hash);
}

/** A password that satisfies the spec's complexity rule (letters of both cases and digits). */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(14);
  let s = '';
  for (const b of bytes) s += alphabet[b % alphabet.length];
  return `${s.slice(0, 4)}A${s.slice(4, 8)}a${s.slice(8)}7`.slice(0, 16);
}
