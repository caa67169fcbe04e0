import type { RawSql } from '../../db/client.ts';
import { generatePassword, hashPassword } from '../../lib/passwords.ts';
import { bootstrapRepository } from './bootstrap.repository.ts';

export const SYSTEM_TENANT = 'platform';
export const ADMIN_USERNAME = 'admin';

/**
 * First start: the platform tenant and its system manager `admin`. The password
 * comes from LOGGERHEAD_ADMIN_PASSWORD or is generated; it is returned (to be
 * printed once) only when the account is created now.
 */
/**
 * Creates the first system manager once. `password` is the generated one (to be shown once); when
 * the operator chose it (LOGGERHEAD_ADMIN_PASSWORD) it is null, so that it never reaches a log.
 */
export async function ensureSystemManager(raw: RawSql, password: string | null): Promise<{ created: boolean; password: string | null }> {
  if (await bootstrapRepository(raw).userExists(SYSTEM_TENANT, ADMIN_USERNAME)) return { created: false, password: null };
  const plain = password ?? generatePassword();
  const hash = await hashPassword(plain);
  await raw.transaction(async (tx) => {
    const repo = bootstrapRepository(tx);
    const tenantId = await repo.ensureSystemTenant(SYSTEM_TENANT, 'Loggerhead platform');
    await repo.insertSystemManager(tenantId, ADMIN_USERNAME, hash);
  });
  return { created: true, password: password ? null : plain };
}
