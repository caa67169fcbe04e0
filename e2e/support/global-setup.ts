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
  const server = await startServer();
  process.env[ENV.url] = server.baseURL;
  process.env[ENV.adminUser] = server.admin.username;
  process.env[ENV.adminPassword] = server.admin.password;
  return async () => {
    await server.stop();
  };
}
