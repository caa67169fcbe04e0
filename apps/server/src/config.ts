import { createPublicKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { S3Settings } from './files/s3-store.ts';
import { type EgressAllow, parseEgressAllow } from './lib/egress.ts';
import { isTimeZone } from './lib/local-time.ts';
import { parseSecretsKey } from './lib/sealed-secrets.ts';

export interface Config {
  /** HTTP port of the console and API (`PORT`, 8080). 0 picks a free port. */
  port: number;
  host: string;
  /** MQTT port of the embedded broker (`MQTT_PORT`, 1883). 0 picks a free port. */
  mqttPort: number;
  /**
   * Connections the embedded broker holds at most (`MQTT_MAX_CONNECTIONS`, 20 000); one more is
   * answered "server unavailable" and closed, and the device retries later.
   */
  mqttMaxConnections: number;
  /** Where PGlite files, uploads and the lock file live (`DATA_DIR`, ./data). */
  dataDir: string;
  /**
   * Free space `DATA_DIR` keeps (`DISK_FREE_MIN_MB`, 256 MB): under it uplinks are refused (not
   * acknowledged, so delivered again) and `/v1/health` says `disk: "low"`.
   */
  diskFreeMinBytes: number;
  /**
   * What a device's clock may claim (`DEVICE_CLOCK_PAST_DAYS`, 3650; `DEVICE_CLOCK_FUTURE_MINUTES`,
   * 60): a frame batch stamped earlier or later than this around the server's time is dropped as
   * malformed with the reason (it would otherwise make a partition of its own).
   */
  deviceClock: { pastDays: number; futureMinutes: number };
  /** PostgreSQL server (`DATABASE_URL`); unset = PGlite in `dataDir/pg`. `memory://` = in-memory PGlite. */
  databaseUrl: string | null;
  /**
   * PGlite runs on a worker thread of its own (`PGLITE_THREAD`, on), beside the server's thread
   * instead of on it; off runs it on the server's thread (to compare the two).
   */
  pgliteThread: boolean;
  /** External broker (`MQTT_URL`); unset = embedded aedes broker. */
  mqttUrl: string | null;
  /**
   * The external broker is Mosquitto with its dynamic-security plugin, and the server keeps the
   * devices' accounts there (`MQTT_DYNSEC`, off; needs `MQTT_URL` with an account allowed on
   * `$CONTROL/dynamic-security/#`).
   */
  mqttDynsec: boolean;
  /**
   * Shared secret of an external broker's HTTP authentication (`BROKER_AUTH_SECRET`): EMQX asks
   * `POST /v1/broker/auth` and `/v1/broker/acl` with `Authorization: Bearer <secret>`. Unset: those routes answer 404.
   */
  brokerAuthSecret: string | null;
  /**
   * Key that seals the credentials stored for other systems (forward destinations' passwords,
   * tokens, URLs) with AES-256-GCM (`SECRETS_KEY`: 32 bytes as base64 or 64 hex digits). Unset: a key
   * generated once into `DATA_DIR/secrets.key`. Several copies on one database need the same key.
   */
  secretsKey: Buffer | null;
  /** Run the job scheduler (`SCHEDULER`, on): scheduled jobs of /job-mgmt. */
  scheduler: boolean;
  /** Password of the first system manager `admin`; generated and printed once when unset. */
  adminPassword: string | null;
  /** SMTP server for e-mail (`SMTP_URL`, e.g. smtp://user:pass@host:587). */
  smtpUrl: string | null;
  /** Mail sender (`MAIL_FROM`). */
  mailFrom: string;
  /** HTTP SMS/voice provider endpoint (`SMS_URL`). */
  smsUrl: string | null;
  /** Address the console is reached at (`PUBLIC_URL`), used in links sent out. */
  publicUrl: string;
  /** The account a bank transfer pays an order into (`BANK_ACCOUNT`, free text shown with the order); null: ask the platform. */
  bankAccount: string | null;
  /** Directory of the built web console; null disables static serving. */
  webDir: string | null;
  /**
   * Ed25519 public key (`WEB_BUNDLE_PUBLIC_KEY`: a PEM, or the path of a PEM file): when set, only
   * console bundles signed with the matching private key are accepted (decision 0206).
   */
  webBundlePublicKey: KeyObject | null;
  /** Log level (`LOG_LEVEL`). */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Session lifetime in seconds (`SESSION_TTL`, 7 days). */
  sessionTtl: number;
  /** Seed the read-only experience tenant on first start (`EXPERIENCE`, on). */
  experience: boolean;
  /**
   * With the experience account and the embedded broker, a built-in simulated logger keeps one demo
   * device online and sending (`EXPERIENCE_LIVE`, on).
   */
  experienceLive: boolean;
  /** IANA zone of the times written in alert e-mail, SMS and voice texts (`TIME_ZONE`; default: the server's zone). */
  timeZone: string;
  /** Upload size bound in bytes (`MAX_UPLOAD_MB`, 64). */
  maxUploadBytes: number;
  /**
   * Verification codes one client address may ask for in ten minutes (`CODE_IP_LIMIT`, 10).
   * Raise it where many people register from one address (a company behind one NAT).
   */
  codeIpLimit: number;
  /**
   * Which proxies' X-Forwarded-For to believe (`TRUST_PROXY`): unset = none (client
   * address as seen), a hop count, or a comma-separated list of proxy addresses/CIDRs.
   * Believing every proxy would let any client pick the IP that rate limits count.
   */
  trustProxy: false | number | string;
  /**
   * What the egress policy lets tenants' addresses reach beyond the public internet (`EGRESS_ALLOW`,
   * comma-separated host names — `.example.com` for a whole domain — and CIDR blocks): unset, every
   * loopback, link-local, private, unique-local, unspecified or own address is refused (lib/egress.ts).
   */
  egressAllow: EgressAllow;
  /**
   * Third-party login through an OpenID Connect provider (`OIDC_ISSUER`, `OIDC_CLIENT_ID`,
   * `OIDC_CLIENT_SECRET`, optional `OIDC_NAME` shown on the login page); null when not set.
   */
  oidc: OidcConfig | null;
  /** Requests per client address and per account in each window, by kind (`RATE_LIMIT_*`, docs/security.md). */
  rateLimits: RateLimits;
  /**
   * Map tiles of the console's maps (`MAP_TILE_URL`, a Leaflet URL template with `{z}/{x}/{y}`, `{s}`
   * allowed in the host; `MAP_ATTRIBUTION` its credit line). Unset: OpenStreetMap's standard tiles
   * with their credit; `none`: no tiles, the maps draw a plain grid (as they do where tiles fail).
   * The tile host is added to the console's Content-Security-Policy `img-src`.
   */
  mapTileUrl: string | null;
  mapAttribution: string;
  /**
   * The platform's own contact, shown in the console's footer where a tenant has not set its own
   * (`SUPPORT_COMPANY`, `SUPPORT_PHONE`, `SUPPORT_EMAIL`), and the header's help link (`HELP_URL`;
   * unset, the built-in documentation).
   */
  support: { company: string; phone: string; email: string; helpUrl: string };
  /**
   * Seconds a server copy may stay silent before its long-running jobs count as interrupted and are
   * resumed or failed by another copy (`JOB_LEASE_SECONDS`, 30). Only matters with several copies.
   */
  jobLeaseSeconds: number;
  /** The log warns when the event loop was held longer than this, ms (`EVENT_LOOP_WARN_MS`, 200); `/v1/health` reports the delay. */
  eventLoopWarnMs: number;
  /** The Groovy runtime of test management (docs/test-management.md). */
  groovy: GroovyConfig;
  /**
   * Files in an S3-compatible bucket shared by every server copy (`S3_BUCKET`, `S3_URL`, `S3_REGION`,
   * `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`, `S3_PATH_STYLE`, `S3_PREFIX`); null = files under DATA_DIR.
   */
  s3: S3Settings | null;
}

export interface GroovyConfig {
  /** Worker JVMs kept warm (`GROOVY_WORKERS`, 2; 0 switches the runtime off). */
  workers: number;
  /** Heap cap of each worker JVM, MB (`GROOVY_HEAP_MB`, 256). */
  heapMb: number;
  /** CPU time one script run may use, s (`GROOVY_CPU_SECONDS`, 20). */
  cpuSeconds: number;
  /** Wall time one script run may take, s (`GROOVY_WALL_SECONDS`, 60). */
  wallSeconds: number;
  /** Output (log, metrics, tables) one run may produce, KB (`GROOVY_OUTPUT_KB`, 1024). */
  outputKb: number;
  /** Frames one run may analyse (`GROOVY_MAX_FRAMES`, 200000). */
  maxFrames: number;
  /** Start the workers with the server (`GROOVY_WARM`, on); off: at the first validation or run. */
  warm: boolean;
  /**
   * How the workers are contained by the operating system (`GROOVY_SANDBOX`): `bwrap` (default;
   * scripts are refused where it cannot be set up) or `off` (the operator's explicit opt-out).
   */
  sandbox: 'bwrap' | 'off';
  /** Host user of the workers when the server runs as root (`GROOVY_SANDBOX_UID`, 64930). */
  sandboxUid: number;
}

/** At most `perAddress` requests from one client address, and `perAccount` naming one account, per window; 0 = no limit. */
export interface RateLimit {
  perAddress: number;
  perAccount: number;
}

export interface RateLimits {
  /** Length of a window in seconds (`RATE_LIMIT_WINDOW`, 60). */
  windowSeconds: number;
  /** Logins and other password checks (`RATE_LIMIT_LOGIN`). */
  login: RateLimit;
  /** Verification codes sent (`RATE_LIMIT_CODE`). */
  code: RateLimit;
  /** Forgotten-password resets (`RATE_LIMIT_RESET`). */
  reset: RateLimit;
  /** Registrations (`RATE_LIMIT_REGISTER`). */
  register: RateLimit;
  /** File uploads (`RATE_LIMIT_UPLOAD`). */
  upload: RateLimit;
}

/**
 * Defaults: far above what a person or the test suites do in a minute, low enough that guessing
 * and flooding from one address or at one account stall at once.
 */
export const RATE_LIMIT_DEFAULTS: Omit<RateLimits, 'windowSeconds'> = {
  login: { perAddress: 300, perAccount: 30 },
  code: { perAddress: 60, perAccount: 10 },
  reset: { perAddress: 60, perAccount: 10 },
  register: { perAddress: 60, perAccount: 10 },
  upload: { perAddress: 600, perAccount: 300 },
};

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Label of the login icon (`OIDC_NAME`). */
  name: string;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function port(env: Env, name: string, def: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(name, `expected a port number 0-65535, got "${raw}"`);
  }
  return Number(raw);
}

function positiveInt(env: Env, name: string, def: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) {
    throw new ConfigError(name, `expected a positive whole number, got "${raw}"`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a valid URL`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(
      name,
      `expected a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL, got ${u.protocol.replace(':', '')}`,
    );
  }
  return raw;
}

function timeZone(env: Env): string {
  const raw = env.TIME_ZONE?.trim();
  if (!raw) return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  if (!isTimeZone(raw)) throw new ConfigError('TIME_ZONE', `expected an IANA time zone such as Asia/Shanghai or UTC, got "${raw}"`);
  return raw;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function groovySandbox(env: Env): 'bwrap' | 'off' {
  const raw = env.GROOVY_SANDBOX?.trim() || 'bwrap';
  if (raw !== 'bwrap' && raw !== 'off') throw new ConfigError('GROOVY_SANDBOX', `expected bwrap or off, got "${raw}"`);
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const dataDir = path.resolve(cwd, env.DATA_DIR || './data');
  const p = port(env, 'PORT', 8080);
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${p}`;
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const mqttUrl = url(env, 'MQTT_URL', ['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']);
  const mqttDynsec = bool(env, 'MQTT_DYNSEC', false);
  if (mqttDynsec && !mqttUrl) throw new ConfigError('MQTT_DYNSEC', 'needs MQTT_URL (the embedded broker checks device keys itself)');
  const adminPassword = env.LOGGERHEAD_ADMIN_PASSWORD || null;
  if (adminPassword !== null && (adminPassword.length < 8 || adminPassword.length > 64)) {
    throw new ConfigError('LOGGERHEAD_ADMIN_PASSWORD', 'must be 8-64 characters');
  }
  return {
    port: p,
    host: env.HOST || '0.0.0.0',
    mqttPort: port(env, 'MQTT_PORT', 1883),
    mqttMaxConnections: positiveInt(env, 'MQTT_MAX_CONNECTIONS', 20_000),
    dataDir,
    diskFreeMinBytes: positiveInt(env, 'DISK_FREE_MIN_MB', 256) * 1024 * 1024,
    deviceClock: {
      pastDays: positiveInt(env, 'DEVICE_CLOCK_PAST_DAYS', 3650),
      futureMinutes: positiveInt(env, 'DEVICE_CLOCK_FUTURE_MINUTES', 60),
    },
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:', 'memory:']),
    pgliteThread: bool(env, 'PGLITE_THREAD', true),
    mqttUrl,
    mqttDynsec,
    brokerAuthSecret: brokerAuthSecret(env),
    secretsKey: secretsKey(env),
    scheduler: bool(env, 'SCHEDULER', true),
    adminPassword,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || 'Loggerhead <no-reply@loggerhead.local>',
    smsUrl: url(env, 'SMS_URL', ['http:', 'https:']),
    publicUrl,
    bankAccount: env.BANK_ACCOUNT?.trim().slice(0, 500) || null,
    webDir: env.WEB_DIR === '' ? null : path.resolve(cwd, env.WEB_DIR || defaultWebDir()),
    webBundlePublicKey: webBundlePublicKey(env, cwd),
    logLevel,
    sessionTtl: positiveInt(env, 'SESSION_TTL', 7 * 24 * 3600),
    experience: bool(env, 'EXPERIENCE', true),
    experienceLive: bool(env, 'EXPERIENCE_LIVE', true),
    timeZone: timeZone(env),
    maxUploadBytes: positiveInt(env, 'MAX_UPLOAD_MB', 64) * 1024 * 1024,
    codeIpLimit: positiveInt(env, 'CODE_IP_LIMIT', 10),
    trustProxy: trustProxy(env),
    egressAllow: egressAllow(env),
    oidc: oidc(env),
    rateLimits: rateLimits(env),
    mapTileUrl: mapTileUrl(env),
    mapAttribution: env.MAP_ATTRIBUTION?.trim() || (env.MAP_TILE_URL?.trim() ? '' : OSM_ATTRIBUTION),
    support: {
      company: env.SUPPORT_COMPANY?.trim() ?? '',
      phone: env.SUPPORT_PHONE?.trim() ?? '',
      email: env.SUPPORT_EMAIL?.trim() ?? '',
      helpUrl: env.HELP_URL?.trim() ?? '',
    },
    jobLeaseSeconds: positiveInt(env, 'JOB_LEASE_SECONDS', 30),
    eventLoopWarnMs: positiveInt(env, 'EVENT_LOOP_WARN_MS', 200),
    groovy: {
      workers: env.GROOVY_WORKERS === '0' ? 0 : positiveInt(env, 'GROOVY_WORKERS', 2),
      heapMb: positiveInt(env, 'GROOVY_HEAP_MB', 256),
      cpuSeconds: positiveInt(env, 'GROOVY_CPU_SECONDS', 20),
      wallSeconds: positiveInt(env, 'GROOVY_WALL_SECONDS', 60),
      outputKb: positiveInt(env, 'GROOVY_OUTPUT_KB', 1024),
      maxFrames: positiveInt(env, 'GROOVY_MAX_FRAMES', 200_000),
      warm: bool(env, 'GROOVY_WARM', true),
      sandbox: groovySandbox(env),
      sandboxUid: positiveInt(env, 'GROOVY_SANDBOX_UID', 64930),
    },
    s3: s3(env),
  };
}

function brokerAuthSecret(env: Env): string | null {
  const raw = env.BROKER_AUTH_SECRET?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError('BROKER_AUTH_SECRET', 'use at least 16 characters');
  return raw;
}

/** `SECRETS_KEY`: 32 bytes, base64 or hex; the value is never repeated in the message. */
function secretsKey(env: Env): Buffer | null {
  const raw = env.SECRETS_KEY?.trim();
  if (!raw) return null;
  const key = parseSecretsKey(raw);
  if (!key) throw new ConfigError('SECRETS_KEY', 'expected 32 bytes as base64 or 64 hex digits (e.g. `openssl rand -base64 32`)');
  return key;
}

/** S3 settings: `S3_BUCKET` turns the S3 file store on; the others need it. */
function s3(env: Env): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim();
  const others = ['S3_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'].filter((n) => env[n]?.trim());
  if (!bucket) {
    if (others.length) throw new ConfigError('S3_BUCKET', `required when ${others.join(', ')} ${others.length > 1 ? 'are' : 'is'} set`);
    return null;
  }
  const endpoint = url(env, 'S3_URL', ['http:', 'https:']);
  const key = env.S3_ACCESS_KEY_ID?.trim() || null;
  const secret = env.S3_SECRET_ACCESS_KEY?.trim() || null;
  if (!key !== !secret)
    throw new ConfigError(key ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID', 'give both the access key id and the secret, or neither');
  return {
    url: endpoint,
    bucket,
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId: key,
    secretAccessKey: secret,
    pathStyle: bool(env, 'S3_PATH_STYLE', endpoint !== null),
    prefix: env.S3_PREFIX?.trim() ?? '',
  };
}

function defaultWebDir(): string {
  return path.resolve(import.meta.dirname, '../../web/dist');
}

/** All three of issuer, client id and secret, or none of them. */
/** WEB_BUNDLE_PUBLIC_KEY: a PEM (its line breaks may be written `\n`) or the path of a PEM file, of an Ed25519 key. */
function webBundlePublicKey(env: Env, cwd: string): KeyObject | null {
  const raw = env.WEB_BUNDLE_PUBLIC_KEY?.trim();
  if (!raw) return null;
  let pem = raw.replace(/\\n/g, '\n');
  if (!pem.startsWith('-----BEGIN')) {
    try {
      pem = fs.readFileSync(path.resolve(cwd, raw), 'utf8');
    } catch {
      throw new ConfigError('WEB_BUNDLE_PUBLIC_KEY', 'expected a PEM public key or the path of a readable PEM file');
    }
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new ConfigError('WEB_BUNDLE_PUBLIC_KEY', 'not a PEM public key (`openssl pkey -in signing.pem -pubout`)');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError('WEB_BUNDLE_PUBLIC_KEY', 'expected an Ed25519 key');
  return key;
}

function oidc(env: Env): OidcConfig | null {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
  const given = names.filter((n) => env[n]?.trim());
  if (given.length === 0) return null;
  const missing = names.find((n) => !env[n]?.trim());
  if (missing) throw new ConfigError(missing, `required when ${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set`);
  const issuer = url(env, 'OIDC_ISSUER', ['http:', 'https:']) as string;
  return {
    issuer: issuer.replace(/\/+$/, ''),
    clientId: (env.OIDC_CLIENT_ID as string).trim(),
    clientSecret: (env.OIDC_CLIENT_SECRET as string).trim(),
    name: env.OIDC_NAME?.trim() ?? '',
  };
}

function egressAllow(env: Env): EgressAllow {
  try {
    return parseEgressAllow(env.EGRESS_ALLOW);
  } catch (e) {
    throw new ConfigError('EGRESS_ALLOW', `${(e as Error).message}: give host names and CIDR blocks, comma-separated`);
  }
}

function trustProxy(env: Env): false | number | string {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (/^(true|yes|on)$/i.test(raw)) {
    throw new ConfigError('TRUST_PROXY', 'give the hop count or the proxy addresses, not "true" (any client could then forge its address)');
  }
  return raw;
}

/** `RATE_LIMIT_<KIND>=<per address>/<per account>`, e.g. `RATE_LIMIT_LOGIN=300/30`; 0 turns one off. */
function rateLimits(env: Env): RateLimits {
  const limits = { windowSeconds: positiveInt(env, 'RATE_LIMIT_WINDOW', 60) } as RateLimits;
  for (const [kind, def] of Object.entries(RATE_LIMIT_DEFAULTS) as [keyof typeof RATE_LIMIT_DEFAULTS, RateLimit][]) {
    const name = `RATE_LIMIT_${kind.toUpperCase()}`;
    const raw = env[name]?.trim();
    if (!raw) {
      limits[kind] = { ...def };
      continue;
    }
    const m = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
    if (!m)
      throw new ConfigError(name, `expected "<per address>/<per account>" such as "${def.perAddress}/${def.perAccount}", got "${raw}"`);
    limits[kind] = { perAddress: Number(m[1]), perAccount: Number(m[2]) };
  }
  return limits;
}

/** OpenStreetMap's standard tiles, the maps' default (its tile usage policy asks for this credit). */
export const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** A Leaflet tile URL template: http(s), `{z}`, `{x}` and `{y}` in it; unset is OpenStreetMap, `none` no tiles. */
function mapTileUrl(env: Env): string | null {
  const raw = env.MAP_TILE_URL?.trim();
  if (!raw) return OSM_TILE_URL;
  if (raw.toLowerCase() === 'none') return null;
  const host = /^https?:\/\/([^/?#]+)\//i.exec(raw)?.[1];
  let ok = host !== undefined && ['{z}', '{x}', '{y}'].every((p) => raw.includes(p));
  if (ok && host) {
    try {
      new URL(`http://${host.replace(/\{[a-z]+\}/gi, 'a')}/`);
    } catch {
      ok = false;
    }
  }
  if (!ok) {
    throw new ConfigError(
      'MAP_TILE_URL',
      `expected an http(s) tile URL template with {z}, {x} and {y}, such as https://tile.example.com/{z}/{x}/{y}.png, got "${raw}"`,
    );
  }
  return raw;
}
