import { z } from 'zod';
import {
  CommandIssueSchema,
  CommandListQuerySchema,
  CommandPageSchema,
  CommandResponseListSchema,
  CommandSchema,
  DeviceTestResultSchema,
  DeviceTestSchema,
  ResponseQuerySchema,
} from '../schemas/command.ts';
import { DeviceParams, defineRoute, TenantParams } from './define.ts';

const base = '/things/tenants/:tenant_id';
const DeviceCorrelationParams = DeviceParams.extend({ correlation_id: z.string().max(64) });

/** Spec §7 things service "messages": issue a command, list them, get one, responses. */
export const CommandRoutes = {
  issue: defineRoute({
    method: 'POST',
    path: `${base}/things/:things_id/messages`,
    params: DeviceParams,
    body: CommandIssueSchema,
    response: CommandSchema,
    permission: 'things:things:command',
  }),
  /** Spec §7 device test: sends one message now and answers with the device's raw responses (or the time-out). */
  deviceTest: defineRoute({
    method: 'POST',
    path: `${base}/things/:things_id/device-test`,
    params: DeviceParams,
    body: DeviceTestSchema,
    response: DeviceTestResultSchema,
    permission: 'things:things:command',
  }),
  page: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/messages`,
    params: DeviceParams,
    query: CommandListQuerySchema,
    response: CommandPageSchema,
    permission: 'things:message:query',
  }),
  responses: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/messages/responses`,
    params: DeviceParams,
    query: ResponseQuerySchema,
    response: CommandResponseListSchema,
    permission: 'things:message:query',
  }),
  tenantResponses: defineRoute({
    method: 'GET',
    path: `${base}/messages/responses`,
    params: TenantParams,
    query: ResponseQuerySchema,
    response: CommandResponseListSchema,
    permission: 'things:message:query',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/things/:things_id/messages/:correlation_id`,
    params: DeviceCorrelationParams,
    response: CommandSchema,
    permission: 'things:message:query',
  }),
  cancel: defineRoute({
    method: 'POST',
    path: `${base}/things/:things_id/messages/:correlation_id/cancel`,
    params: DeviceCorrelationParams,
    response: CommandSchema,
    permission: 'things:things:command',
  }),
};
