import { OkSchema, PageQuerySchema } from '../schemas/common.ts';
import {
  ProjectBindResultSchema,
  ProjectBindSchema,
  ProjectDevicePageSchema,
  ProjectInputSchema,
  ProjectMembersSchema,
  ProjectPageSchema,
  ProjectQuerySchema,
  ProjectSchema,
  ProjectUnbindSchema,
} from '../schemas/project.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const projects = '/project/tenants/:tenant_id/projects';

/**
 * Projects (spec §1, §7 projects): a project holds devices, groups, vehicles and sub-users; a member
 * sub-user sees only the project's devices. A sub-user lists only the projects it is a member of.
 */
export const ProjectRoutes = {
  list: defineRoute({
    method: 'GET',
    path: projects,
    params: TenantParams,
    query: ProjectQuerySchema,
    response: ProjectPageSchema,
    permission: 'project:project:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: projects,
    params: TenantParams,
    body: ProjectInputSchema,
    response: ProjectSchema,
    permission: 'project:project:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${projects}/:id`,
    params: TenantIdParams,
    response: ProjectSchema,
    permission: 'project:project:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${projects}/:id`,
    params: TenantIdParams,
    body: ProjectInputSchema,
    response: ProjectSchema,
    permission: 'project:project:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${projects}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'project:project:delete',
  }),
  /** Every device of the project (direct, through groups and vehicles) the caller can see. */
  things: defineRoute({
    method: 'GET',
    path: `${projects}/:id/things`,
    params: TenantIdParams,
    query: PageQuerySchema.extend({ page_size: PageQuerySchema.shape.page_size.default(20) }),
    response: ProjectDevicePageSchema,
    permission: 'project:project:query',
  }),
  members: defineRoute({
    method: 'GET',
    path: `${projects}/:id/members`,
    params: TenantIdParams,
    response: ProjectMembersSchema,
    permission: 'project:project:query',
  }),
  bind: defineRoute({
    method: 'POST',
    path: `${projects}/:id/bind`,
    params: TenantIdParams,
    body: ProjectBindSchema,
    response: ProjectBindResultSchema,
    permission: 'project:project:bind',
  }),
  unbind: defineRoute({
    method: 'POST',
    path: `${projects}/:id/unbind`,
    params: TenantIdParams,
    body: ProjectUnbindSchema,
    response: ProjectBindResultSchema,
    permission: 'project:project:unbind',
  }),
};
