import { type RouteBody, Routes } from '@loggerhead/contract/routes/index.ts';
import { call } from '../../../api/client.ts';

const W = Routes.webConfig;

/** Web deployment (spec §7 /out-web): console versions, deploy and server configuration, web-deploy users, the deploy log. */
export const webDeployApi = {
  versions: (signal?: AbortSignal) => call(W.versions, { signal }),
  upload: (version: string, description: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return call(W.saveVersion, { query: { version, description }, body: form, timeout: 300_000 });
  },
  review: (id: string, signal?: AbortSignal) => call(W.reviewVersion, { query: { id }, signal }),
  release: (id: string, password: string) => call(W.release, { body: { id, password } }),
  rollback: () => call(W.rollback, {}),
  builtIn: () => call(W.builtIn, {}),
  remove: (id: string) => call(W.removeVersion, { query: { id } }),
  logs: (signal?: AbortSignal) => call(W.deployLogs, { signal }),
  config: (signal?: AbortSignal) => call(W.deployInfo, { signal }),
  saveConfig: (body: RouteBody<typeof W.saveDeployConfig>) => call(W.saveDeployConfig, { body }),
  serverConfig: (signal?: AbortSignal) => call(W.serverConfig, { signal }),
  saveServerConfig: (body: Record<string, string>) => call(W.saveServerConfig, { body }),
  users: (signal?: AbortSignal) => call(W.deployUsers, { signal }),
  createUser: (body: RouteBody<typeof W.createDeployUser>) => call(W.createDeployUser, { body }),
  removeUser: (id: string) => call(W.deleteDeployUser, { query: { id } }),
  setPassword: (id: string, password: string) => call(W.updateDeployPassword, { body: { id, password } }),
};
