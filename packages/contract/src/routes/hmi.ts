import { z } from 'zod';
import {
  HmiPressResultSchema,
  HmiPressSchema,
  HmiScreenInputSchema,
  HmiScreenListQuerySchema,
  HmiScreenPageSchema,
  HmiScreenSchema,
  HmiScreenSummarySchema,
  HmiUserListSchema,
  HmiUserSchema,
  HmiUserScreensSchema,
} from '../schemas/hmi.ts';
import { defineRoute, TenantIdParams, TenantParams, TenantUserParams } from './define.ts';

const base = '/out-hmi/tenants/:tenant_id';

/**
 * HMI screens (spec /out-hmi): the tenant's screens (CRUD, publish, unpublish; quota `hmi`), the HMI
 * users they are given to (`out-hmi:user:query/update`), and the screens an HMI user opens and
 * presses the buttons of.
 */
export const HmiRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${base}/screens`,
    params: TenantParams,
    query: HmiScreenListQuerySchema,
    response: HmiScreenPageSchema,
    permission: 'out-hmi:screen:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${base}/screens`,
    params: TenantParams,
    body: HmiScreenInputSchema,
    response: HmiScreenSchema,
    status: 201,
    permission: 'out-hmi:screen:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/screens/:id`,
    params: TenantIdParams,
    response: HmiScreenSchema,
    permission: 'out-hmi:screen:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/screens/:id`,
    params: TenantIdParams,
    body: HmiScreenInputSchema,
    response: HmiScreenSchema,
    permission: 'out-hmi:screen:update',
  }),
  /** 204. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/screens/:id`,
    params: TenantIdParams,
    permission: 'out-hmi:screen:delete',
  }),
  publish: defineRoute({
    method: 'POST',
    path: `${base}/screens/:id/publish`,
    params: TenantIdParams,
    response: HmiScreenSummarySchema,
    permission: 'out-hmi:screen:updateStatus',
  }),
  unpublish: defineRoute({
    method: 'POST',
    path: `${base}/screens/:id/unpublish`,
    params: TenantIdParams,
    response: HmiScreenSummarySchema,
    permission: 'out-hmi:screen:updateStatus',
  }),

  /** The tenant's sub-users and the screens given to each. */
  users: defineRoute({
    method: 'GET',
    path: `${base}/users`,
    params: TenantParams,
    response: HmiUserListSchema,
    permission: 'out-hmi:user:query',
  }),
  /** The screens a sub-user is given (replaces the list). */
  setUserScreens: defineRoute({
    method: 'PUT',
    path: `${base}/users/:user_id/screens`,
    params: TenantUserParams,
    body: HmiUserScreensSchema,
    response: HmiUserSchema,
    permission: 'out-hmi:user:update',
  }),

  /** The published screens the caller may open: given to them, or every published one for a manager. */
  mine: defineRoute({
    method: 'GET',
    path: `${base}/my-screens`,
    params: TenantParams,
    response: z.object({ list: z.array(HmiScreenSummarySchema) }),
    signedIn: true,
  }),
  /** One of those, with its canvas (full-screen view). */
  open: defineRoute({
    method: 'GET',
    path: `${base}/my-screens/:id`,
    params: TenantIdParams,
    response: HmiScreenSchema,
    signedIn: true,
  }),
  /** Presses a button of a screen the caller may open: its command is sent, or its twin values set. */
  press: defineRoute({
    method: 'POST',
    path: `${base}/my-screens/:id/press`,
    params: TenantIdParams,
    body: HmiPressSchema,
    response: HmiPressResultSchema,
    signedIn: true,
  }),
};
