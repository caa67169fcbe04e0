import { TENANT_STATUS } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { accountsRepository } from './accounts.repository.ts';
import { customizationRepository } from './customization.repository.ts';
import { customizationRoutes } from './customization.routes.ts';
import { ensureExperienceTenant } from './experience.ts';
import { publicRoutes } from './public.routes.ts';
import { registrationService } from './registration.service.ts';
import { selfRoutes } from './self.routes.ts';
import { selfService } from './self.service.ts';
import { subUsersRoutes } from './subusers.routes.ts';
import { subUsersService } from './subusers.service.ts';
import { tenantsAdminRepository } from './tenants-admin.repository.ts';
import { tenantsAdminRoutes } from './tenants-admin.routes.ts';
import { tenantsAdminService } from './tenants-admin.service.ts';
import { loadCodeKey, verificationService } from './verification.service.ts';

/** Accounts and tenants: self, registration, codes, sub-users, tenant administration, customisation. */
export async function tenantModule(app: LoggerheadApp, ctx: AppContext) {
  const raw = ctx.database.raw;
  // Ended sessions and changed tenants must not live on in the session cache, nor in open sockets:
  // every end of sessions goes through ctx.control.endSessions.
  const accountsRepo = accountsRepository(raw);
  const accounts: typeof accountsRepo = {
    ...accountsRepo,
    async revokeSessions(userId, exceptSessionId, reason = 'ended') {
      await accountsRepo.revokeSessions(userId, exceptSessionId);
      ctx.control.endSessions({ userId, exceptSessionId }, reason);
    },
  };
  const adminRepo = tenantsAdminRepository(raw);
  const tenantsRepo: typeof adminRepo = {
    ...adminRepo,
    async update(id, fields) {
      await adminRepo.update(id, fields);
      // A tenant that is no longer active (disabled, rejected…) loses its sessions; other changes
      // (name, contact, demo flag) only refresh the cached ones.
      if (fields.status !== undefined && fields.status !== TENANT_STATUS.active) ctx.control.endSessions({ tenantId: id }, 'withdrawn');
      else ctx.control.forgetSessions({ tenantId: id });
    },
  };
  const codes = verificationService({
    raw,
    notifier: ctx.notifier,
    key: await loadCodeKey(raw),
    ipLimit: ctx.config.codeIpLimit,
  });
  ctx.control.useCodeVerifier(async (mobile, code) => (await codes.check(1, mobile, 'login', code, true)) === 'ok');
  if (ctx.config.experience) await ensureExperienceTenant(raw);

  const avatars = ctx.files.under('avatars');
  const retentionLimit = async (tenantId: string) => (await ctx.packages.load(tenantId)).maximum_data_retention_days;
  selfRoutes(app, selfService({ accounts, codes, avatars, retentionLimit }), avatars);
  publicRoutes(app, registrationService({ raw, accounts, codes }), codes);
  subUsersRoutes(app, subUsersService({ raw, accounts, assertCanAdd: (a, r, n) => ctx.quota.assertCanAdd(a, r, n) }));
  customizationRoutes(app, customizationRepository(raw));
  tenantsAdminRoutes(
    app,
    tenantsAdminService({
      repo: tenantsRepo,
      notifier: ctx.notifier,
      messages: ctx.messages,
      accounts,
      packages: ctx.packages,
      usage: ctx.usage,
      language: customizationRepository(raw).language,
    }),
  );
}
