import { randomBytes } from 'node:crypto';
import type { Api } from './api.ts';
import type { Credentials } from './server.ts';

interface SelfUser {
  id: string;
  tenant_id: string;
}

/**
 * A sub-user of the tenant of `managerApi`'s user, bound to the given menus (and, through them, the
 * permission keys those menus give), seeded through the API. Returns the login name
 * `name@tenant` and its password.
 */
export async function seedSubUser(managerApi: Api, menus: string[], prefix = 'viewer'): Promise<Credentials> {
  const self = await managerApi.get<SelfUser>('/tenant/users/self');
  const tenant = await managerApi.get<{ name: string }>('/tenant/users/self/tenant');
  const username = `${prefix}_${randomBytes(3).toString('hex')}`;
  const password = `Viewer-${randomBytes(4).toString('hex')}`;
  const mobile = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  await managerApi.post(`/tenant/tenants/${self.tenant_id}/users`, { username, password, mobile, menus });
  return { username: `${username}@${tenant.name}`, password };
}
