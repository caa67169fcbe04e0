import { z } from 'zod';
import { OkSchema, PageQuerySchema, UuidSchema } from '../schemas/common.ts';
import {
  GroupBindResultSchema,
  GroupBindSchema,
  GroupCommandIssueSchema,
  GroupCommandPageSchema,
  GroupCommandSchema,
  GroupInputSchema,
  GroupMemberPageSchema,
  GroupPageSchema,
  GroupQuerySchema,
  GroupSchema,
  LabelBatchQuerySchema,
  LabelDeleteResultSchema,
  LabelIdsParamsSchema,
  LabelInputSchema,
  LabelPageSchema,
  LabelQuerySchema,
  LabelSchema,
} from '../schemas/org.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const labels = '/tenant/tenants/:tenant_id/labels';

/** The tenant's label registry (spec §7 tenant service labels); device labels refer to it. */
export const LabelRoutes = {
  list: defineRoute({
    method: 'GET',
    path: labels,
    params: TenantParams,
    query: LabelQuerySchema,
    response: LabelPageSchema,
    permission: 'tenant:label:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: labels,
    params: TenantParams,
    body: LabelInputSchema,
    response: LabelSchema,
    permission: 'tenant:label:create',
  }),
  /** Every label of the tenant (or those of `ids`), at most 10000: what pickers and filters read. */
  batch: defineRoute({
    method: 'GET',
    path: `${labels}/batch`,
    params: TenantParams,
    query: LabelBatchQuerySchema,
    response: z.array(LabelSchema),
    permission: 'tenant:label:query',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${labels}/:id`,
    params: TenantIdParams,
    response: LabelSchema,
    permission: 'tenant:label:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${labels}/:id`,
    params: TenantIdParams,
    body: LabelInputSchema,
    response: LabelSchema,
    permission: 'tenant:label:update',
  }),
  /** Deletes the labels and takes them off every device that carries them. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${labels}/:ids`,
    params: LabelIdsParamsSchema,
    response: LabelDeleteResultSchema,
    permission: 'tenant:label:delete',
  }),
};

const groups = '/out-group-mgmt/tenants/:tenant_id/groups';
const GroupCommandParams = TenantIdParams.extend({ command_id: UuidSchema });

/** Device groups (spec §7 /out-group-mgmt): groups, bind/unbind devices, group commands. */
export const GroupRoutes = {
  list: defineRoute({
    method: 'GET',
    path: groups,
    params: TenantParams,
    query: GroupQuerySchema,
    response: GroupPageSchema,
    permission: 'group:group:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: groups,
    params: TenantParams,
    body: GroupInputSchema,
    response: GroupSchema,
    permission: 'group:group:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${groups}/:id`,
    params: TenantIdParams,
    response: GroupSchema,
    permission: 'group:group:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${groups}/:id`,
    params: TenantIdParams,
    body: GroupInputSchema,
    response: GroupSchema,
    permission: 'group:group:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${groups}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'group:group:delete',
  }),
  /** The members the caller can see. */
  things: defineRoute({
    method: 'GET',
    path: `${groups}/:id/things`,
    params: TenantIdParams,
    query: PageQuerySchema.extend({ page_size: PageQuerySchema.shape.page_size.default(20) }),
    response: GroupMemberPageSchema,
    permission: 'group:group:query',
  }),
  bind: defineRoute({
    method: 'POST',
    path: `${groups}/:id/bind`,
    params: TenantIdParams,
    body: GroupBindSchema,
    response: GroupBindResultSchema,
    permission: 'group:device:bind',
  }),
  unbind: defineRoute({
    method: 'POST',
    path: `${groups}/:id/unbind`,
    params: TenantIdParams,
    body: GroupBindSchema,
    response: GroupBindResultSchema,
    permission: 'group:device:unbind',
  }),
  command: defineRoute({
    method: 'POST',
    path: `${groups}/:id/commands`,
    params: TenantIdParams,
    body: GroupCommandIssueSchema,
    response: GroupCommandSchema,
    permission: 'group:device:command',
  }),
  commands: defineRoute({
    method: 'GET',
    path: `${groups}/:id/commands`,
    params: TenantIdParams,
    query: PageQuerySchema,
    response: GroupCommandPageSchema,
    permission: 'group:group:query',
  }),
  commandOne: defineRoute({
    method: 'GET',
    path: `${groups}/:id/commands/:command_id`,
    params: GroupCommandParams,
    response: GroupCommandSchema,
    permission: 'group:group:query',
  }),
};
