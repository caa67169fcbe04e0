import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Credentials the server keeps for other systems (a forward destination's password, token, signing
 * secret, header values, URL) are stored sealed with AES-256-GCM under one key
 * (docs/decisions/0191-secrets-at-rest.md): `enc:v1:<iv>:<tag>:<data>`, each part base64. The key
 * comes from `SECRETS_KEY`, or is generated once into `DATA_DIR/secrets.key`. Neither the key nor a
 * value is ever put in an error message or the log.
 */
export const SEALED_PREFIX = 'enc:v1:';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The file in DATA_DIR that holds the generated key when `SECRETS_KEY` is not set. */
export const KEY_FILE = 'secrets.key';

/** A stored value could not be opened: altered, cut, or sealed under another key. */
export class SealedSecretError extends Error {
  override name = 'SealedSecretError';
}

/** No usable key at start-up, or a key other than the one the database's values were sealed with. */
export class SecretsKeyError extends Error {
  override name = 'SecretsKeyError';
}

export interface Sealer {
  /** `text` sealed; a value already sealed is returned as it is. */
  seal(text: string): string;
  /** The plain text of a sealed value; a value stored before sealing existed (plain) is returned as it is. */
  open(text: string): string;
  /** A public fingerprint of the key (not the key): tells whether two copies hold the same one. */
  readonly keyId: string;
}

export const isSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith(SEALED_PREFIX);

/**
 * A key given as 64 hex digits or as base64 of 32 bytes (`openssl rand -base64 32`); null when it is
 * neither. The given text is never echoed back.
 */
export function parseSecretsKey(raw: string): Buffer | null {
  const s = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(s)) {
    const b = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (b.length === KEY_BYTES) return b;
  }
  return null;
}

/** The key's fingerprint: the first 8 bytes of an HMAC under the key, hex. Reveals nothing of the key. */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('loggerhead secrets key id').digest('hex').slice(0, 16);
}

export function sealer(key: Buffer): Sealer {
  if (key.length !== KEY_BYTES) throw new SecretsKeyError(`a secrets key has ${KEY_BYTES} bytes, this one ${key.length}`);
  const k = Buffer.from(key);
  return {
    keyId: keyIdOf(k),
    seal(text) {
      if (isSealed(text)) return text;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return `${SEALED_PREFIX}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${data.toString('base64')}`;
    },
    open(text) {
      if (!isSealed(text)) return text;
      const parts = text.slice(SEALED_PREFIX.length).split(':');
      const [iv, tag, data] = parts.map((p) => Buffer.from(p, 'base64'));
      if (parts.length !== 3 || iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new SealedSecretError('a stored secret is malformed');
      try {
        const d = createDecipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES });
        d.setAuthTag(tag);
        return Buffer.concat([d.update(data), d.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError('a stored secret could not be opened: altered, or sealed under another SECRETS_KEY');
      }
    },
  };
}

/** Where the key's fingerprint is recorded in the database (`server_secrets`), read and written by the caller. */
export interface KeyRecord {
  /** The fingerprint recorded by the first copy that sealed anything, or null. */
  recorded(): Promise<string | null>;
  /** Records `id` unless one is recorded already; returns the one that is. */
  record(id: string): Promise<string>;
}

/**
 * The server's sealer: the key of `SECRETS_KEY`, else the one in `DATA_DIR/secrets.key`, else — only
 * when the database has never recorded a key — a new one written there (mode 0600). Refuses to start
 * (SecretsKeyError) when the database's values were sealed under another key, or under a key this
 * copy does not have: a copy that started anyway would fail every forward with a stored secret.
 */
export async function loadSealer(opts: { configured: Buffer | null; dataDir: string; record: KeyRecord }): Promise<Sealer> {
  const file = path.join(opts.dataDir, KEY_FILE);
  let key = opts.configured;
  let source = 'SECRETS_KEY';
  if (!key) {
    source = file;
    key = readKeyFile(file);
    if (!key) {
      const recorded = await opts.record.recorded();
      if (recorded)
        throw new SecretsKeyError(
          `SECRETS_KEY: not set and ${file} does not exist, but the database holds secrets sealed under key ${recorded}; ` +
            'set SECRETS_KEY to that key (every server copy needs the same one, see docs/operations.md)',
        );
      key = createKeyFile(file);
    }
  }
  const s = sealer(key);
  const recorded = await opts.record.record(s.keyId);
  if (recorded !== s.keyId)
    throw new SecretsKeyError(
      `SECRETS_KEY: the database's secrets are sealed under key ${recorded}, this server's key (from ${source}) is ${s.keyId}; ` +
        'give every server copy the same SECRETS_KEY (see docs/operations.md)',
    );
  return s;
}

function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const key = parseSecretsKey(text);
  if (!key) throw new SecretsKeyError(`SECRETS_KEY: ${file} does not hold a 32-byte key (base64 or hex)`);
  return key;
}

function createKeyFile(file: string): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    // `wx`: a second process on the same DATA_DIR never overwrites a key already in use.
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file) as Buffer;
    throw e;
  }
  return key;
}
