import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { API_KEY_PREFIX, type RouteDef, WEB_DEPLOY_TOKEN_PREFIX } from '@loggerhead/contract';
import Fastify from 'fastify';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { type Database, isConnectionLoss, openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { type FileStore, LocalFileStore } from './files/file-store.ts';
import { S3FileStore } from './files/s3-store.ts';
import type { Broker } from './ingest/broker.ts';
import { createIngest, deploymentId, type Ingest } from './ingest/ingest.ts';
import { assertPermission, isReadAction } from './lib/auth.ts';
import { createEgress, type Egress } from './lib/egress.ts';
import { ApiError } from './lib/errors.ts';
import { EventBus } from './lib/events.ts';
import type { App } from './lib/fastify.ts';
import {
  bodyUnread,
  brokenFormError,
  databaseInputError,
  discardUnreadBody,
  JSON_BODY_LIMIT,
  multipartLimit,
  rejectBadInput,
  urlError,
} from './lib/input-guard.ts';
import { JobLeases } from './lib/job-leases.ts';
import { runPeriodically } from './lib/periodic.ts';
import { registerRateLimits } from './lib/rate-limits.ts';
import { registerReaderTexts } from './lib/reader-texts.ts';
import { Scheduler } from './lib/scheduler.ts';
import { loadSealer, type Sealer } from './lib/sealed-secrets.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { Cluster } from './live/cluster.ts';
import { type ApiKeyService, apiKeyService } from './modules/apikey/apikey.service.ts';
import { type BillingServices, billingServices } from './modules/billing/billing.services.ts';
import { controlRepository } from './modules/control/control.repository.ts';
import { type ControlService, controlService } from './modules/control/control.service.ts';
import { privilegesRepository } from './modules/control/privileges.repository.ts';
import { secretsRepository } from './modules/control/secrets.repository.ts';
import { TokenSigner } from './modules/control/tokens.ts';
import { type MessageService, messageService } from './modules/message/message.service.ts';
import { opLogRepository } from './modules/oplog/oplog.repository.ts';
import { modules } from './modules/registry.ts';
import { createSignals, type Signals } from './modules/signals/signals.module.ts';
import { ensureSystemManager } from './modules/tenant/bootstrap.ts';
import { customizationRepository } from './modules/tenant/customization.repository.ts';
import { webDeployRepository } from './modules/web-config/web-deploy.repository.ts';
import { type WebDeployService, webDeployService } from './modules/web-config/web-deploy.service.ts';
import { webVersionsRepository } from './modules/web-config/web-versions.repository.ts';
import { createNotifier, type Notifier } from './notify/notifier.ts';
import { VERSION } from './version.ts';

export interface AppContext {
  config: Config;
  database: Database;
  broker: Broker;
  /** Device uplinks: pipeline, chunk writer, device directory, live hub. */
  ingest: Ingest;
  /** Live views and pushes shared with the other server copies (external broker only). */
  cluster: Cluster | null;
  signer: TokenSigner;
  /**
   * Seals the credentials kept for other systems (AES-256-GCM, `SECRETS_KEY`): a repository seals
   * them on write and opens them on read (docs/decisions/0191-secrets-at-rest.md).
   */
  secrets: Sealer;
  /**
   * The egress policy of every address a tenant configures (`EGRESS_ALLOW`, lib/egress.ts):
   * `await ctx.egress.check(url)` before use, sockets through `ctx.egress.connect` / `ctx.egress.lookup`.
   */
  egress: Egress;
  control: ControlService;
  /** In-process events between modules (lib/events.ts): new messages, work-order changes… */
  events: EventBus;
  /**
   * Long-running jobs survive a crash visibly: a job row names `ctx.jobs.owner`, and a module's
   * `ctx.jobs.register(kind, recover)` resumes or fails the jobs of stopped copies at start.
   */
  jobs: JobLeases;
  /** In-app user messages: `ctx.messages.send(tenantId, userId, {title, content, type})`. */
  messages: MessageService;
  /** Tenant packages: `ctx.packages.load(tenantId)` gives the limits. */
  packages: BillingServices['packages'];
  /** Package limits: `await ctx.quota.assertCanAdd(auth, 'things_num', currentCount)` (403 quota.limit-reached). */
  quota: BillingServices['quota'];
  /** Capacity accounting: `await ctx.usage.add(tenantId, thingsId, bytes)`. */
  usage: BillingServices['usage'];
  /** Decoded signals: `ctx.signals.onChunks(committedChunks)` decodes bound channels; curves, stats. */
  signals: Signals;
  /** E-mail / SMS / voice out, every message recorded in the push log. */
  notifier: Notifier;
  /**
   * Generated and uploaded files (exports, recalled files, firmware and ECU images, work-order
   * images, avatars): DATA_DIR, or the S3 bucket every copy shares (`S3_BUCKET`). Each module keeps
   * its files under its own folder key: `ctx.files.under('firmware')`.
   */
  files: FileStore;
  /** Tenant API keys for machines: `Authorization: Bearer lhk_…` resolves through it. */
  apiKeys: ApiKeyService;
  /** Web deployment: its configuration and web-deploy users, whose `Bearer lhw_…` sessions reach only /out-web. */
  webDeploy: WebDeployService;
  /** The job scheduler (pg-boss on this database): `ctx.scheduler?.every(name, cron, fn)`, queues; null with SCHEDULER=false. */
  scheduler: Scheduler | null;
  /** Set when this start created the system manager: the password to print once. */
  initialAdminPassword: string | null;
  /** The first system manager was created at this start (its password generated or from the environment). */
  adminCreated: boolean;
  version: string;
}

/** One route of the router: method, path pattern and its config (public, auth, permission). */
export interface RouteEntry {
  method: string;
  url: string;
  websocket: boolean;
  config: { public?: boolean; auth?: 'socket'; permission?: string; route?: RouteDef; plugin?: boolean };
  /** The route's request schemas (zod), when it has them: what the input tests generate from. */
  schema: { params?: unknown; querystring?: unknown; body?: unknown };
}

export type LoggerheadApp = App & { ctx: AppContext; routeTable: readonly RouteEntry[] };

export interface BuildOptions {
  /** Use this database instead of opening one from the config (tests). */
  database?: Database;
  /** Pino logger options override (tests silence it). */
  logger?: boolean;
  /** Write the log here instead of stdout (tests check that no secret is logged). */
  logStream?: NodeJS.WritableStream;
  /** The egress policy instead of the one built from `config.egressAllow` (tests give one with their own resolver). */
  egress?: Egress;
}

/** The sealing key's fingerprint in `server_secrets`: every copy on one database must hold the same key. */
function sealingKeyRecord(raw: Database['raw']) {
  const repo = secretsRepository(raw);
  return { recorded: () => repo.get('secrets-key-id'), record: (id: string) => repo.getOrCreate('secrets-key-id', id) };
}

/** Builds the whole server from a config. Tests call it and use `inject`; `serve` listens. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<LoggerheadApp> {
  const database = opts.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, thread: config.pgliteThread }));
  let secrets: Sealer;
  try {
    await migrate(database.raw);
    secrets = await loadSealer({ configured: config.secretsKey, dataDir: config.dataDir, record: sealingKeyRecord(database.raw) });
  } catch (e) {
    if (!opts.database) await database.close();
    throw e;
  }
  const admin = await ensureSystemManager(database.raw, config.adminPassword);
  const signer = await TokenSigner.load(database.raw);

  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            // Secrets never reach the log.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'password', 'token'], remove: true },
            // Third-party login passes session tokens and one-time codes in query strings.
            serializers: {
              req: (req) => ({ method: req.method, url: redactQuery(req.url), remoteAddress: req.ip }),
            },
          },
    bodyLimit: JSON_BODY_LIMIT,
    // Starting the broker, the cluster link and the job recovery (the onReady hook) can take more
    // than Fastify's default 10 s on a small, busy machine; a slow start is not a failed one.
    pluginTimeout: 60_000,
    // URLs the router cannot read (bad percent-encoding, an over-long parameter): the spec's shape too.
    frameworkErrors: urlError,
    trustProxy: typeof config.trustProxy === 'number' ? hops(config.trustProxy) : config.trustProxy,
    // Spec §7: the API answers on /api (localhost) and /v1 alike.
    rewriteUrl: (req) => (req.url?.startsWith('/api/') || req.url === '/api' ? `/v1${req.url.slice(4)}` : (req.url ?? '/')),
  }).withTypeProvider() as unknown as LoggerheadApp;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const events = new EventBus((err, event) => app.log.error({ err, event }, 'event listener failed'));
  const ingest = await createIngest({ config, database, events, log: app.log });
  const broker = ingest.broker;

  const control = controlService({
    repo: controlRepository(database.raw),
    signer,
    sessionTtl: config.sessionTtl,
    loadGrants: async (userId) => {
      return new Set(await privilegesRepository(database.raw).grants(userId));
    },
  });

  const notifier = createNotifier({ raw: database.raw, smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, smsUrl: config.smsUrl });
  const messages = messageService(database.raw, events);
  const billing = billingServices(database.raw, events);
  // Without an external broker this copy is the deployment's only one (docs/operations.md).
  const jobs = new JobLeases({
    raw: database.raw,
    name: config.port ? `${os.hostname()}-${config.port}` : null,
    alone: !config.mqttUrl,
    leaseMs: config.jobLeaseSeconds * 1000,
    log: app.log,
  });
  const signals = createSignals({ database, events, usage: billing.usage, log: app.log, owner: jobs.owner });
  // Several copies can only run on an external broker; through it they share live views and pushes.
  const cluster = config.mqttUrl
    ? new Cluster({ url: config.mqttUrl, deployment: deploymentId(config), hub: ingest.live, events, writer: ingest.writer, log: app.log })
    : null;
  const files: FileStore = config.s3 ? S3FileStore.connect(config.s3) : new LocalFileStore(config.dataDir);
  const ctx: AppContext = {
    config,
    database,
    broker,
    ingest,
    cluster,
    signer,
    secrets,
    egress: opts.egress ?? createEgress({ allow: config.egressAllow }),
    control,
    events,
    jobs,
    messages,
    ...billing,
    signals,
    notifier,
    files,
    scheduler: config.scheduler ? new Scheduler(database.raw, app.log) : null,
    apiKeys: apiKeyService({
      raw: database.raw,
      loadGrants: async (userId) => new Set(await privilegesRepository(database.raw).grants(userId)),
    }),
    webDeploy: webDeployService({
      repo: webDeployRepository(database.raw),
      log: webVersionsRepository(database.raw).log,
      sessionTtl: config.sessionTtl,
    }),
    initialAdminPassword: admin.password,
    adminCreated: admin.created,
    version: VERSION,
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('auth', null);

  // Every route the router has, as registered (the security tests walk it). Routes of the API docs
  // and of the built console's files are public and marked as a plugin's: they are registered while
  // `openPlugin` is set. Every other route comes from the contract's table (`route()`, `socketRoute()`).
  const routeTable: RouteEntry[] = [];
  let openPlugin = false;
  app.addHook('onRoute', (route) => {
    if (openPlugin) route.config = { ...(route.config as object), public: true, plugin: true };
    const methods = [route.method].flat();
    for (const method of methods)
      routeTable.push({
        method,
        url: route.url,
        websocket: route.websocket === true,
        config: (route.config ?? {}) as RouteEntry['config'],
        schema: { params: route.schema?.params, querystring: route.schema?.querystring, body: route.schema?.body },
      });
  });
  app.decorate('routeTable', routeTable);

  // Security headers, compression and rate limits (docs/security.md): before any route, so every
  // route gets them.
  // Seeded names and units in the reader's language (decision 0178): before compression takes the body.
  registerReaderTexts(app, (tenantId) => customizationRepository(database.raw).language(tenantId));
  await registerSecurityHeaders(app, config);
  await registerRateLimits(app, config.rateLimits);
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: 1 } });
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Loggerhead API', version: VERSION, description: 'Cloud console for CAN-bus data loggers and IoT devices' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  openPlugin = true;
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });
  openPlugin = false;

  // Bad input is a 4xx (docs/decisions/0105-bad-input-is-a-4xx.md): uploads over MAX_UPLOAD_MB are
  // refused before they are read; NUL characters and absurd nesting anywhere in params, query, body.
  app.addHook('preParsing', multipartLimit(config.maxUploadBytes));
  app.addHook('preValidation', rejectBadInput);
  // One error handler: spec §8 bodies, no internals on a 5xx.
  app.setErrorHandler(async (err, req, reply) => {
    // Answered before the body was read (too large, refused first): the rest is read and thrown
    // away first, so a client that writes its whole body before reading gets this answer, not a reset.
    if (bodyUnread(req.raw)) await discardUnreadBody(req.raw);
    if (err instanceof ApiError) return reply.code(err.status).send(err.body);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const items = err.validation.map((v) => {
        const field =
          v.instancePath.replace(/^\//, '').replaceAll('/', '.') || (v.params as { missingProperty?: string })?.missingProperty || '';
        return { code: 'http.400', message: `${field ? `${field}: ` : ''}${v.message ?? 'invalid'}`, field: field || undefined };
      });
      return reply.code(400).send(items.length === 1 ? items[0] : items);
    }
    // Last safety net: values the database refused are the request's fault, not the server's. The
    // warning shows which input still lacks a check in its schema.
    const refused = databaseInputError(err);
    if (refused) {
      req.log.warn({ sqlState: refused.sqlState, route: req.routeOptions.url, method: req.method }, 'database refused a request value');
      return reply.code(refused.status).send(refused.body);
    }
    const form = brokenFormError(err);
    if (form) return reply.code(400).send(form);
    // The database out of reach (crashed, restarting, refusing connections): a 503 the client
    // retries, not a 500; the pool reconnects by itself once the server is back.
    if (isConnectionLoss(err)) {
      req.log.warn({ err, route: req.routeOptions.url }, 'database unreachable');
      return reply.code(503).header('retry-after', '5').send(ApiError.of('db.unavailable').body);
    }
    const e = err as { statusCode?: number; message?: string; code?: string };
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 600 ? e.statusCode : 500;
    if (status < 500) return reply.code(status).send({ code: `http.${status}`, message: e.message ?? 'Bad request' });
    req.log.error({ err }, 'request failed');
    return reply.code(status).send({ code: `http.${status}`, message: 'Internal server error' });
  });

  // Authentication and the permission check happen here, for every route, decided by the route the
  // router matched (its options), never by the URL text: `/%761/…`, `//v1/…` or `/V1/…` either match a
  // route, and then its own rule applies, or match none and the 404 handler answers. Deny by default:
  // a route is open only when its config says `public: true`, or `auth: 'socket'` for a WebSocket that
  // authenticates on the socket itself (the token in its query, checked by its handler).
  app.addHook('onRequest', async (req) => {
    if (!req.routeOptions.url) return; // no route matched: the 404 handler answers, no handler runs
    const cfg = req.routeOptions.config;
    if (cfg?.auth === 'socket') return;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (token?.startsWith(WEB_DEPLOY_TOKEN_PREFIX)) {
      if (cfg?.public) return;
      req.auth = await ctx.webDeploy.authenticate(token);
      if (!req.auth) throw new ApiError(401);
      // A web-deploy session reaches the web deployment only, whatever keys a route names.
      if (!req.routeOptions.url.startsWith('/v1/out-web/')) throw ApiError.of('web.deploy-only');
    } else if (token?.startsWith(API_KEY_PREFIX)) {
      if (cfg?.public) return;
      req.auth = await ctx.apiKeys.authenticate(token, req.ip);
      if (!req.auth) throw ApiError.of('api-key.refused');
      // A key reaches only routes that name a permission key (never the account's own calls).
      if (!cfg?.permission) throw new ApiError(403, 'http.403', 'An API key reaches only calls guarded by a permission key');
    } else if (token) req.auth = await ctx.control.authenticate(token);
    if (cfg?.public) return;
    if (!req.auth) throw new ApiError(401);
    // A read-only super-session changes nothing: every write is refused with its own code, but
    // leaving it (its logout) and calls that only read through a POST (a read key) pass.
    if (req.auth.superSession?.readOnly && !READ_METHODS.has(req.method) && req.routeOptions.url !== LOGOUT_URL) {
      if (!cfg?.permission || !isReadAction(cfg.permission)) throw new ApiError(403, 'super-session.read-only');
    }
    // A monitor screen's session reads, and nothing else: not even the account's own calls, nor a
    // new session (it cannot renew itself past its twelve hours).
    if (req.auth.monitor && !READ_METHODS.has(req.method) && req.routeOptions.url !== LOGOUT_URL) {
      if (!cfg?.permission || !isReadAction(cfg.permission)) throw new ApiError(403, 'session.monitor-read-only');
    }
    if (cfg?.permission) assertPermission(req.auth, cfg.permission);
  });
  // Operation log: every change made through the API, by whom, when, from which IP. Written before
  // the response leaves (onSend, not onResponse), so a caller that reads the log right after its
  // change always finds it.
  const opLogs = opLogRepository(database.raw);
  // In a super-session each change (or refused try, and its end) goes to the tenant's log and to the
  // platform's, under the system manager's name.
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.auth || !req.routeOptions.url) return payload;
    const sup = req.auth.superSession;
    // Every call made with an API key is logged, reads included; a person's changes only (and in a
    // super-session, its logout too).
    if (!req.auth.apiKey) {
      if (READ_METHODS.has(req.method)) return payload;
      if (req.routeOptions.config?.noOpLog && !sup) return payload;
    }
    const entry = {
      userId: sup?.userId ?? req.auth.userId,
      username: sup?.username ?? req.auth.username,
      method: req.method,
      path: req.routeOptions.url,
      status: reply.statusCode,
      ip: req.ip,
      // Opening one is a use of it too.
      superSession: Boolean(sup) || req.routeOptions.url === SUPER_SESSION_URL,
    };
    const logs = [opLogs.insert({ ...entry, tenantId: req.auth.tenantId })];
    if (sup) logs.push(opLogs.insert({ ...entry, tenantId: sup.tenantId }));
    await Promise.all(logs).catch((err) => req.log.warn({ err }, 'operation log write failed'));
    return payload;
  });

  const accounts = ingest.accounts;
  if (accounts)
    runPeriodically(app, ctx, {
      name: 'broker-accounts-reconcile',
      everyMs: 300_000,
      cron: '*/5 * * * *',
      work: () => accounts.reconcile(),
    });
  for (const register of modules) await register(app, ctx);

  openPlugin = true;
  await registerWeb(app, config.webDir);
  openPlugin = false;

  app.addHook('onReady', async () => {
    // A wrong bucket, address or key stops the start with the store's answer.
    if (files instanceof S3FileStore) await files.check();
    // Device accounts on the external broker first (those added while the server was down, at once;
    // the servers' account may get its role, which makes the broker close its connections).
    await ingest.accounts?.start();
    await broker.start();
    await cluster?.start();
    // Last: every module has registered its recovery step, and commands can go out.
    await jobs.start();
    await ctx.scheduler?.start();
  });
  app.addHook('onClose', async () => {
    await ctx.scheduler?.stop();
    await jobs.close();
    await cluster?.close().catch(() => {});
    await ingest.accounts?.close().catch(() => {});
    await broker.close().catch(() => {});
    await signals.backfill.stopAll().catch(() => {});
    await signals.idle().catch(() => {});
    await notifier.close().catch(() => {});
    if (files instanceof S3FileStore) files.close();
    if (!opts.database) await database.close();
  });
  return app;
}

/**
 * Serves the built console with a history fallback, so a reload on any route works (GET and HEAD).
 * Caching: `index.html` is checked again on every load (it names the current build's files); the
 * files under /assets/ carry a content hash in their names and are kept for a year; anything else
 * (the favicon…) for an hour.
 */
async function registerWeb(app: App, webDir: string | null) {
  const index = webDir ? path.join(webDir, 'index.html') : null;
  const hasWeb = index !== null && fs.existsSync(index);
  if (hasWeb && webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (reply, file) => reply.header('cache-control', webCacheControl(path.relative(webDir, file))),
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const page = (req.method === 'GET' || req.method === 'HEAD') && !/^\/(?:v1|assets)(?:[/?]|$)/.test(req.url);
    // (a missing build file is a 404, never the page: a stale chunk must fail as a script, not parse HTML)
    if (!page || !hasWeb) return reply.code(404).send({ code: 'http.404', message: 'Not found' });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

/** Cache-Control of a file of the built console, by its path relative to the web directory. */
export function webCacheControl(file: string): string {
  const f = file.split(path.sep).join('/');
  if (f === 'index.html') return 'no-cache';
  if (/^assets\/[^/]+[.-][\w-]{6,}\.\w+$/.test(f)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

const SECRET_PARAMS = /([?&](?:token|ujwt|code|state|session_state|browserState|oidcCode)=)[^&#]*/g;

/** A request URL as logged: values of token-like query parameters hidden. */
export function redactQuery(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAMS, '$1[hidden]');
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The logout route: the way out of a read-only super-session. */
const LOGOUT_URL = '/v1/control/sessions/:id';
const SUPER_SESSION_URL = '/v1/control/super-session';

/** Trust the nearest `n` proxies (fastify's types take a function for a hop count). */
function hops(n: number) {
  return (_address: string, hop: number) => hop < n;
}
