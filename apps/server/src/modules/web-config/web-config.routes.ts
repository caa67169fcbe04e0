import { Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { route } from '../../lib/route.ts';
import { globalMenu } from '../role/role.routes.ts';
import { settingsRepository } from '../role/settings.repository.ts';

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
    resourcePath: '/can',
    isDebug: 0,
    experience: ctx.config.experience,
    oidc: { enabled: ctx.config.oidc !== null, name: ctx.config.oidc?.name ?? '' },
  }));
  // Spec §7: isDebug 1 when the page path contains "debug".
  route(app, Routes.webConfig.deployInfo, { tags }, async (req) => ({
    resourcePath: '/can',
    isDebug: req.query.path?.includes('debug') ? 1 : 0,
  }));
}
