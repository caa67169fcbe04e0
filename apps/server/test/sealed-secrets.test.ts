import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import {
  KEY_FILE,
  type KeyRecord,
  keyIdOf,
  loadSealer,
  parseSecretsKey,
  SealedSecretError,
  SecretsKeyError,
  sealer,
} from '../src/lib/sealed-secrets.ts';

const key = crypto.randomBytes(32);
const s = sealer(key);

/** Swaps one character of the base64 part `i` (0 iv, 1 tag, 2 data) of a sealed value for another. */
function tamper(sealed: string, i: number): string {
  const parts = sealed.slice('enc:v1:'.length).split(':');
  const b = Buffer.from(parts[i], 'base64');
  b[0] ^= 1;
  parts[i] = b.toString('base64');
  return `enc:v1:${parts.join(':')}`;
}

describe('sealed secrets (AES-256-GCM)', () => {
  it('round-trips text, each sealing with its own IV, and leaves nothing of the text in the sealed value', () => {
    for (const text of ['p@ss:word', '', '密码 – ünïcode', 'x'.repeat(2000)]) {
      const a = s.seal(text);
      const b = s.seal(text);
      expect(a).toMatch(/^enc:v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/);
      expect(a).not.toBe(b);
      if (text.length > 3) expect(a).not.toContain(text);
      expect(s.open(a)).toBe(text);
      expect(s.open(b)).toBe(text);
    }
    // Sealing a sealed value does not wrap it twice.
    const once = s.seal('token-1');
    expect(s.seal(once)).toBe(once);
  });

  it('takes a value stored before sealing (plain) as it is', () => {
    expect(s.open('plain-password')).toBe('plain-password');
  });

  it('refuses a value whose IV, tag or data was altered, or that was cut', () => {
    const sealed = s.seal('the secret');
    for (const i of [0, 1, 2]) expect(() => s.open(tamper(sealed, i))).toThrow(SealedSecretError);
    expect(() => s.open(sealed.slice(0, sealed.lastIndexOf(':')))).toThrow(SealedSecretError);
    expect(() => s.open(`${sealed.slice(0, -4)}AAA=`)).toThrow(SealedSecretError);
  });

  it('refuses a value sealed under another key, and its error shows neither key nor value', () => {
    const sealed = s.seal('the secret');
    const other = sealer(crypto.randomBytes(32));
    let err: Error | null = null;
    try {
      other.open(sealed);
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(SealedSecretError);
    expect(err?.message).not.toContain('the secret');
    expect(err?.message).not.toContain(key.toString('base64'));
    expect(other.keyId).not.toBe(s.keyId);
  });

  it('reads SECRETS_KEY as 64 hex digits or base64 of 32 bytes, and refuses anything else without repeating it', () => {
    expect(parseSecretsKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(`${key.toString('base64url')}\n`)?.equals(key)).toBe(true);
    expect(parseSecretsKey(crypto.randomBytes(16).toString('base64'))).toBeNull();
    expect(parseSecretsKey('not a key')).toBeNull();
    expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secretsKey?.equals(key)).toBe(true);
    expect(loadConfig({}).secretsKey).toBeNull();
    const short = crypto.randomBytes(16).toString('hex');
    let err: Error | null = null;
    try {
      loadConfig({ SECRETS_KEY: short });
    } catch (e) {
      err = e as Error;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.message).toMatch(/^SECRETS_KEY: /);
    expect(err?.message).not.toContain(short);
  });
});

describe('the server key', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-key-'));
    dirs.push(d);
    return path.join(d, 'data');
  };
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  /** The database's record of the key's fingerprint (server_secrets), in memory. */
  const record = (initial: string | null = null): KeyRecord & { value: string | null } => {
    const r = {
      value: initial,
      recorded: async () => r.value,
      record: async (id: string) => {
        r.value ??= id;
        return r.value;
      },
    };
    return r;
  };

  it('without SECRETS_KEY: generates one into DATA_DIR (0600) once, records its fingerprint, and finds it again', async () => {
    const dataDir = dir();
    const db = record();
    const first = await loadSealer({ configured: null, dataDir, record: db });
    const file = path.join(dataDir, KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(db.value).toBe(first.keyId);
    expect(first.keyId).toBe(keyIdOf(parseSecretsKey(fs.readFileSync(file, 'utf8')) as Buffer));
    const sealed = first.seal('kept across restarts');
    const again = await loadSealer({ configured: null, dataDir, record: db });
    expect(again.open(sealed)).toBe('kept across restarts');
  });

  it('with SECRETS_KEY: uses it and writes no key file', async () => {
    const dataDir = dir();
    const db = record();
    const got = await loadSealer({ configured: key, dataDir, record: db });
    expect(got.open(s.seal('x'))).toBe('x');
    expect(db.value).toBe(keyIdOf(key));
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
  });

  it('refuses to start with another key than the database was sealed under, naming both fingerprints', async () => {
    const db = record(keyIdOf(key));
    const other = crypto.randomBytes(32);
    await expect(loadSealer({ configured: other, dataDir: dir(), record: db })).rejects.toThrow(SecretsKeyError);
    await expect(loadSealer({ configured: other, dataDir: dir(), record: db })).rejects.toThrow(
      `the database's secrets are sealed under key ${keyIdOf(key)}, this server's key (from SECRETS_KEY) is ${keyIdOf(other)}`,
    );
  });

  it('refuses to start without a key when the database holds sealed values, and generates none then', async () => {
    const dataDir = dir();
    const db = record(keyIdOf(key));
    await expect(loadSealer({ configured: null, dataDir, record: db })).rejects.toThrow(/SECRETS_KEY: not set and .* does not exist/);
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
  });
});
