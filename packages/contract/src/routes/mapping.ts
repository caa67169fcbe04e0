import { z } from 'zod';
import {
  BackfillSchema,
  ChannelBindingSchema,
  ChannelBindSchema,
  ChannelStateSchema,
  DbcFilePageSchema,
  DbcFileSchema,
  DbcListQuerySchema,
  DbcMessageInfoSchema,
  DbcMessagesQuerySchema,
  StrategyCreateSchema,
  StrategyListQuerySchema,
  StrategyPageSchema,
  StrategySchema,
  StrategyUpdateSchema,
} from '../schemas/dbc.ts';
import { DeviceChannelParams, DeviceParams, defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/mapping-mgmt/tenants/:tenant_id';
const binding = `${base}/things/:things_id/channels/:channel/dbc-binding` as const;

/** DBC files, signal strategies and channel bindings (spec §7 mapping-mgmt, §4 DBC parsing). */
export const MappingRoutes = {
  dbcFiles: defineRoute({
    method: 'GET',
    path: `${base}/dbc-files`,
    params: TenantParams,
    query: DbcListQuerySchema,
    response: DbcFilePageSchema,
    permission: 'mapping:dbc:query',
  }),
  /** Body: multipart, the `.dbc` file and the fields `name`, `protocol`. */
  uploadDbc: defineRoute({
    method: 'POST',
    path: `${base}/dbc-files`,
    params: TenantParams,
    response: DbcFileSchema,
    permission: 'mapping:dbc:create',
  }),
  dbcFile: defineRoute({
    method: 'GET',
    path: `${base}/dbc-files/:id`,
    params: TenantIdParams,
    response: DbcFileSchema,
    permission: 'mapping:dbc:query',
  }),
  /** Body: multipart (a new file and/or fields) or JSON fields. */
  updateDbc: defineRoute({
    method: 'PUT',
    path: `${base}/dbc-files/:id`,
    params: TenantIdParams,
    response: DbcFileSchema,
    permission: 'mapping:dbc:update',
  }),
  /** 204. */
  removeDbc: defineRoute({
    method: 'DELETE',
    path: `${base}/dbc-files/:id`,
    params: TenantIdParams,
    permission: 'mapping:dbc:delete',
  }),
  dbcMessages: defineRoute({
    method: 'GET',
    path: `${base}/dbc-files/:id/messages`,
    params: TenantIdParams,
    query: DbcMessagesQuerySchema,
    response: z.array(DbcMessageInfoSchema),
    permission: 'mapping:dbc:query',
  }),
  /** The `.dbc` file itself (no JSON answer). */
  dbcContent: defineRoute({
    method: 'GET',
    path: `${base}/dbc-files/:id/content`,
    params: TenantIdParams,
    permission: 'mapping:dbc:query',
  }),

  strategies: defineRoute({
    method: 'GET',
    path: `${base}/signal-strategies`,
    params: TenantParams,
    query: StrategyListQuerySchema,
    response: StrategyPageSchema,
    permission: 'mapping:dbc:query',
  }),
  createStrategy: defineRoute({
    method: 'POST',
    path: `${base}/signal-strategies`,
    params: TenantParams,
    body: StrategyCreateSchema,
    response: StrategySchema,
    permission: 'mapping:dbc:create',
  }),
  strategy: defineRoute({
    method: 'GET',
    path: `${base}/signal-strategies/:id`,
    params: TenantIdParams,
    response: StrategySchema,
    permission: 'mapping:dbc:query',
  }),
  updateStrategy: defineRoute({
    method: 'PUT',
    path: `${base}/signal-strategies/:id`,
    params: TenantIdParams,
    body: StrategyUpdateSchema,
    response: StrategySchema,
    permission: 'mapping:dbc:update',
  }),
  /** 204. */
  removeStrategy: defineRoute({
    method: 'DELETE',
    path: `${base}/signal-strategies/:id`,
    params: TenantIdParams,
    permission: 'mapping:dbc:delete',
  }),

  bindings: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/dbc-bindings`,
    params: DeviceParams,
    response: z.array(ChannelBindingSchema),
    permission: 'mapping:dbc:query',
  }),
  binding: defineRoute({
    method: 'GET',
    path: binding,
    params: DeviceChannelParams,
    response: ChannelBindingSchema,
    permission: 'mapping:dbc:query',
  }),
  bind: defineRoute({
    method: 'PUT',
    path: binding,
    params: DeviceChannelParams,
    body: ChannelBindSchema,
    response: ChannelBindingSchema,
    permission: 'mapping:dbc:bind',
  }),
  /** Start or pause parsing; a start may back-fill a range of the channel's stored frames. */
  setState: defineRoute({
    method: 'PUT',
    path: `${binding}/state`,
    params: DeviceChannelParams,
    body: ChannelStateSchema,
    response: ChannelBindingSchema,
    permission: 'mapping:dbc:updateStatus',
  }),
  /** The channel's newest back-fill task, or null. */
  backfill: defineRoute({
    method: 'GET',
    path: `${binding}/backfill`,
    params: DeviceChannelParams,
    response: BackfillSchema.nullable(),
    permission: 'mapping:dbc:query',
  }),
  /** 204. */
  stopBackfill: defineRoute({
    method: 'DELETE',
    path: `${binding}/backfill`,
    params: DeviceChannelParams,
    permission: 'mapping:dbc:updateStatus',
  }),
  /** 204. */
  unbind: defineRoute({
    method: 'DELETE',
    path: binding,
    params: DeviceChannelParams,
    permission: 'mapping:dbc:unbind',
  }),
};
