import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import { type AppContext, type LoggerheadApp, webCacheControl } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { route } from '../../lib/route.ts';
import { globalMenu } from '../role/role.routes.ts';
import { settingsRepository } from '../role/settings.repository.ts';
import { webVersionsRepository } from './web-versions.repository.ts';
import { mimeOf, webVersionsService } from './web-versions.service.ts';

function supportLinks(s: { company: string; phone: string; email: string; helpUrl: string }) {
  return Object.fromEntries(
    Object.entries({ footerCompany: s.company, footerPhone: s.phone, footerEmail: s.email, helpUrl: s.helpUrl }).filter(([, v]) => v),
  );
}

/**
 * The global system configuration the console loads before any navigation
 * (spec §2 route guard, §3 global permission info, §7 deploy/config/info).
 */
export function webConfigRoutes(app: LoggerheadApp, ctx: AppContext) {
  const tags = ['web'];
  const settings = settingsRepository(ctx.database.raw);
  route(app, Routes.webConfig.globalConfig, { tags }, async () => ({
    loginLogo: '',
    cloudname: 'Loggerhead',
    homepageLogo: '',
    // The system manager's global menu configuration (the header's top menu for managers).
    menu: await globalMenu(settings),
    link: JSON.stringify({
      systemLanguage: 'zh',
      lowCodeUrl: '',
      userCenterUrl: '',
      capacityUrl: '',
      // The maps' tiles (MAP_TILE_URL); the console's Content-Security-Policy allows their host.
      ...(ctx.config.mapTileUrl ? { mapTileUrl: ctx.config.mapTileUrl, mapAttribution: ctx.config.mapAttribution } : {}),
      // The footer's and help link's platform defaults (SUPPORT_*, HELP_URL); a tenant's customisation comes first.
      ...supportLinks(ctx.config.support),
    }),
    ...(await ctx.webDeploy.deployInfo()),
    experience: ctx.config.experience,
    oidc: { enabled: ctx.config.oidc !== null, name: ctx.config.oidc?.name ?? '' },
  }));
  // Spec §7: isDebug 1 when the page path contains "debug".
  route(app, Routes.webConfig.deployInfo, { tags }, (req) => ctx.webDeploy.deployInfo(req.query.path));

  // Console versions (spec §7 deploy/web) and the deploy log: system managers and web-deploy users
  // stage versions; only a system manager releases one (docs/decisions/0206-console-release-by-a-system-manager.md).
  const versions = webVersionsService({
    repo: webVersionsRepository(ctx.database.raw),
    store: ctx.files,
    reauth: (auth, password) => ctx.control.reauth(auth, password),
    webDir: ctx.config.webDir,
    publicKey: ctx.config.webBundlePublicKey,
  });
  const withErrors = { tags, errors: { 400: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema } };
  const W = Routes.webConfig;
  route(app, W.versions, withErrors, () => versions.list());
  route(app, W.saveVersion, withErrors, async (req, reply) => {
    // The bundle (`file`) and, where WEB_BUNDLE_PUBLIC_KEY is set, its signature (`signature`), in either order.
    let bytes: Buffer | null = null;
    let signature: string | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && !bytes) bytes = await part.toBuffer();
        else part.file.resume();
      } else if (part.fieldname === 'signature') signature = String(part.value);
    }
    if (!bytes) throw badRequest('http.400', 'file: the console bundle is required', 'file');
    return reply.code(201).send(await versions.save(requireAuth(req.auth), req.query, bytes, signature));
  });
  const managerErrors = { tags, errors: { ...withErrors.errors, 403: ErrorResponseSchema } };
  route(app, W.reviewVersion, withErrors, (req) => versions.review(req.query.id));
  route(app, W.release, managerErrors, (req) => versions.release(requireAuth(req.auth), req.body.id, req.body.password));
  route(app, W.rollback, managerErrors, (req) => versions.rollback(requireAuth(req.auth)));
  route(app, W.builtIn, managerErrors, async (req, reply) => {
    await versions.builtIn(requireAuth(req.auth));
    return reply.code(204).send();
  });
  route(app, W.removeVersion, managerErrors, async (req, reply) => {
    await versions.remove(requireAuth(req.auth), req.query.id);
    return reply.code(204).send();
  });
  route(app, W.deployLogs, withErrors, () => versions.logs());
  route(app, W.webInfo, withErrors, () => versions.info());

  // Deploy and server configuration, web-deploy users (docs/decisions/0171-web-deploy-users.md).
  const deploy = ctx.webDeploy;
  const userErrors = { ...withErrors.errors, 401: ErrorResponseSchema, 403: ErrorResponseSchema, 423: ErrorResponseSchema };
  route(app, W.saveDeployConfig, withErrors, (req) => deploy.saveDeployConfig(requireAuth(req.auth), req.body));
  route(app, W.serverConfig, withErrors, () => deploy.serverConfig());
  route(app, W.saveServerConfig, withErrors, (req) => deploy.saveServerConfig(requireAuth(req.auth), req.body));
  route(app, W.deployUsers, withErrors, (req) => deploy.users(requireAuth(req.auth)));
  route(app, W.createDeployUser, withErrors, async (req, reply) =>
    reply.code(201).send(await deploy.create(requireAuth(req.auth), req.body)),
  );
  route(app, W.deleteDeployUser, withErrors, async (req, reply) => {
    await deploy.remove(requireAuth(req.auth), req.query.id);
    return reply.code(204).send();
  });
  route(app, W.updateDeployPassword, { tags, errors: userErrors }, async (req, reply) => {
    await deploy.password(requireAuth(req.auth), req.body);
    return reply.code(204).send();
  });
  route(app, W.deployLogin, { tags, errors: userErrors, config: { noOpLog: true } }, (req) =>
    deploy.login(req.body.username, req.body.password, req.ip),
  );
  route(app, W.deployLogout, { tags, errors: userErrors }, async (req, reply) => {
    await deploy.logout(requireAuth(req.auth));
    return reply.code(204).send();
  });
  runPeriodically(app, ctx, {
    name: 'web-deploy-session-sweep',
    everyMs: 3600_000,
    cron: '13 * * * *',
    work: () => deploy.purgeSessions(),
  });

  // The released console version, when there is one, is served instead of the console built with
  // the server: every page and file address outside the API.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    const url = (req.url ?? '/').split('?')[0];
    if (/^\/(?:v1|api)(?:\/|$)/.test(url)) return;
    const f = await versions.file(url);
    if (f === 'none') return;
    if (!f) return reply.code(404).send({ code: 'http.404', message: 'Not found' });
    return reply.header('content-type', mimeOf(f.rel)).header('cache-control', webCacheControl(f.rel)).send(f.bytes);
  });
}
