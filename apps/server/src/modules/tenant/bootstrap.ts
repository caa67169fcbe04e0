import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { tenants, users } from '../../db/schema/index.ts';
import { generatePassword, hashPassword } from '../../lib/passwords.ts';

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
export async function ensureSystemManager(db: Db, password: string | null): Promise<{ created: boolean; password: string | null }> {
  const existing = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(tenants, eq(users.tenantId, tenants.id))
    .where(and(eq(tenants.name, SYSTEM_TENANT), eq(users.username, ADMIN_USERNAME)))
    .limit(1);
  if (existing.length) return { created: false, password: null };
  const plain = password ?? generatePassword();
  const hash = await hashPassword(plain);
  await db.transaction(async (tx) => {
    const [t] = await tx
      .insert(tenants)
      .values({ name: SYSTEM_TENANT, organizationName: 'Loggerhead platform', isSystem: true, status: 1, audited: true })
      .onConflictDoNothing()
      .returning();
    const tenantId = t?.id ?? (await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, SYSTEM_TENANT)))[0].id;
    await tx.insert(users).values({
      tenantId,
      username: ADMIN_USERNAME,
      name: ADMIN_USERNAME,
      passwordHash: hash,
      isManager: true,
      systemManager: true,
    });
  });
  return { created: true, password: password ? null : plain };
}
