import { DEFAULT_DASHBOARD_TYPE } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { generatePassword, hashPassword } from '../../lib/passwords.ts';
import { experienceRepository } from './experience.repository.ts';

export const DEMO_TENANT = 'demo';
export const DEMO_USERNAME = 'demo';

/**
 * The read-only experience account (spec §2 login button): a demo tenant and its
 * manager, created once. Its password is random and never shown: the only way in
 * is POST /control/sessions/experience, and every session of a demo tenant is read-only.
 */
export async function ensureExperienceTenant(raw: RawSql): Promise<{ tenantId: string; created: boolean }> {
  const existing = await experienceRepository(raw).demoTenant();
  if (existing) {
    await seedDefaultDashboard(raw, existing);
    return { tenantId: existing, created: false };
  }
  const hash = await hashPassword(generatePassword());
  return raw.transaction(async (tx) => {
    const repo = experienceRepository(tx);
    const tenantId = await repo.insertDemoTenant(DEMO_TENANT);
    // A real tenant already took the name: leave it alone, no experience account.
    if (!tenantId) return { tenantId: '', created: false };
    await repo.insertDemoManager(tenantId, DEMO_USERNAME, hash);
    await seedDefaultDashboard(tx, tenantId);
    return { tenantId, created: true };
  });
}

/** The demo manager's sessions are read-only, so its default dashboard is made here (spec §4). */
async function seedDefaultDashboard(raw: RawSql, tenantId: string): Promise<void> {
  await experienceRepository(raw).seedDefaultDashboard(tenantId, DEFAULT_DASHBOARD_TYPE);
}
