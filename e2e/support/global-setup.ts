import { ENV } from './env.ts';
import { startServer } from './server.ts';

/**
 * One real server for the whole run (workers: 1), on free ports with a fresh data
 * directory. Tests read its address and the admin credentials from the environment
 * (`support/env.ts`). Set LOGGERHEAD_E2E_URL (and LOGGERHEAD_E2E_ADMIN_PASSWORD) to
 * test a server you started yourself instead.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[ENV.url]) return undefined;
  const server = await startServer({ env: { EXPERIENCE: 'true' } });
  try {
    await demoSeeded(server.baseURL);
  } catch (e) {
    await server.stop();
    throw e;
  }
  process.env[ENV.url] = server.baseURL;
  process.env[ENV.adminUser] = server.admin.username;
  process.env[ENV.adminPassword] = server.admin.password;
  return async () => {
    await server.stop();
  };
}

/**
 * The shared server seeds the experience demo in the background after it starts; the first tests
 * must not run beside that work (the embedded database does one thing at a time). The seed writes
 * the devices' histories last, each ending with an "upload" event on the device.
 */
async function demoSeeded(baseURL: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const json = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${baseURL}${path}`, init);
    return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
  };
  let last = '';
  while (Date.now() < deadline) {
    const session = await json('/v1/control/sessions/experience', { method: 'POST' });
    const token = session?.token as string | undefined;
    if (token) {
      const headers = { authorization: `Bearer ${token}` };
      const self = await json('/v1/tenant/users/self', { headers });
      const tenantId = self?.tenant_id as string | undefined;
      const things = tenantId ? await json(`/v1/things/tenants/${tenantId}/things?current_page=1&page_size=20`, { headers }) : null;
      const list = (things?.list ?? []) as { id: string; name: string }[];
      const ids = list.map((d) => d.id);
      const done = await Promise.all(
        ids.map(async (id) => {
          const events = await json(`/v1/things/tenants/${tenantId}/things/${id}/events?current_page=1&page_size=50`, { headers });
          return JSON.stringify(events ?? {}).includes('"upload"');
        }),
      );
      if (ids.length === 3 && done.every(Boolean)) return;
      last = `${done.filter(Boolean).length} of ${ids.length} demo devices have their history`;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the experience demo was not seeded within ${timeoutMs / 1000} s (${last || 'no demo session'})`);
}
