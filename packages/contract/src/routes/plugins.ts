import { OkSchema } from '../schemas/common.ts';
import {
  PluginInputSchema,
  PluginPageSchema,
  PluginQuerySchema,
  PluginSchema,
  PluginTestResultSchema,
  PluginTestSchema,
} from '../schemas/plugins.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const plugins = '/data-mgmt/tenants/:tenant_id/plugins';

/** Data transform and export plugins (spec §7 /data-mgmt): JSONata expressions, and a test run. */
export const PluginRoutes = {
  list: defineRoute({
    method: 'GET',
    path: plugins,
    params: TenantParams,
    query: PluginQuerySchema,
    response: PluginPageSchema,
    permission: 'data-mgmt:plugin:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: plugins,
    params: TenantParams,
    body: PluginInputSchema,
    response: PluginSchema,
    permission: 'data-mgmt:plugin:create',
  }),
  /** Evaluates an expression on an input, within the plugins' bounds; nothing is stored. */
  test: defineRoute({
    method: 'POST',
    path: `${plugins}/test`,
    params: TenantParams,
    body: PluginTestSchema,
    response: PluginTestResultSchema,
    permission: 'data-mgmt:plugin:execute',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${plugins}/:id`,
    params: TenantIdParams,
    response: PluginSchema,
    permission: 'data-mgmt:plugin:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${plugins}/:id`,
    params: TenantIdParams,
    body: PluginInputSchema,
    response: PluginSchema,
    permission: 'data-mgmt:plugin:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${plugins}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'data-mgmt:plugin:delete',
  }),
};
