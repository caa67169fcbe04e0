import type { Credentials } from './server.ts';

/** Where global setup leaves the server's address and admin credentials for the test workers. */
export const ENV = {
  url: 'LOGGERHEAD_E2E_URL',
  adminUser: 'LOGGERHEAD_E2E_ADMIN_USER',
  adminPassword: 'LOGGERHEAD_E2E_ADMIN_PASSWORD',
} as const;

export function serverURL(): string {
  const url = process.env[ENV.url];
  if (!url) throw new Error(`${ENV.url} is not set: run the tests through playwright.config.ts (its global setup starts the server)`);
  return url;
}

export function adminCredentials(): Credentials {
  const password = process.env[ENV.adminPassword];
  if (!password) throw new Error(`${ENV.adminPassword} is not set`);
  return { username: process.env[ENV.adminUser] || 'admin', password };
}
