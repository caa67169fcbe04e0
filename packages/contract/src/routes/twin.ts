import { z } from 'zod';
import { OkSchema } from '../schemas/common.ts';
import {
  ModelEventPageSchema,
  ModelEventQuerySchema,
  PropertyHistoryQuerySchema,
  PropertyHistorySchema,
  TwinDesiredInputSchema,
  TwinRuleFirePageSchema,
  TwinRuleFireQuerySchema,
  TwinRuleInputSchema,
  TwinRulePageSchema,
  TwinRuleQuerySchema,
  TwinRuleSchema,
  TwinRuleTreeSaveSchema,
  TwinSchema,
} from '../schemas/twin.ts';
import { DeviceParams, defineRoute, TenantIdParams, TenantParams } from './define.ts';

const thing = '/things/tenants/:tenant_id/things/:things_id';

/** A device's digital twin and its model's event log (spec §7 things service digital-twin-things). */
export const TwinRoutes = {
  get: defineRoute({
    method: 'GET',
    path: `${thing}/digital-twin`,
    params: DeviceParams,
    response: TwinSchema,
    permission: 'things:digital-twin:query',
  }),
  /** Sets desired values; the delta goes down to the device on `down/twin`. */
  setDesired: defineRoute({
    method: 'PUT',
    path: `${thing}/digital-twin/desired`,
    params: DeviceParams,
    body: TwinDesiredInputSchema,
    response: TwinSchema,
    permission: 'things:digital-twin:update',
  }),
  /** One property's reported values over time (the twin holds only the last). */
  history: defineRoute({
    method: 'GET',
    path: `${thing}/digital-twin/history`,
    params: DeviceParams,
    query: PropertyHistoryQuerySchema,
    response: PropertyHistorySchema,
    permission: 'things:digital-twin:query',
  }),
  events: defineRoute({
    method: 'GET',
    path: `${thing}/model-events`,
    params: DeviceParams,
    query: ModelEventQuerySchema,
    response: ModelEventPageSchema,
    permission: 'things:digital-twin:query',
  }),
};

const rules = '/alert-mgmt/tenants/:tenant_id/twins-rules';

/** Twin rules (spec §3 twins rule, §7 /alert-mgmt): evaluated on reported state changes. */
export const TwinRuleRoutes = {
  list: defineRoute({
    method: 'GET',
    path: rules,
    params: TenantParams,
    query: TwinRuleQuerySchema,
    response: TwinRulePageSchema,
    permission: 'alert:twins-rule:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: rules,
    params: TenantParams,
    body: TwinRuleInputSchema,
    response: TwinRuleSchema,
    permission: 'alert:twins-rule:create',
  }),
  /** Spec "tree save": create the rule if none, else update it, then add or update one action. */
  treeSave: defineRoute({
    method: 'POST',
    path: `${rules}/tree`,
    params: TenantParams,
    body: TwinRuleTreeSaveSchema,
    response: TwinRuleSchema,
    permission: 'alert:twins-rule:update',
  }),
  fires: defineRoute({
    method: 'GET',
    path: `${rules}/fires`,
    params: TenantParams,
    query: TwinRuleFireQuerySchema,
    response: TwinRuleFirePageSchema,
    permission: 'alert:twins-rule:query',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: TwinRuleSchema,
    permission: 'alert:twins-rule:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${rules}/:id`,
    params: TenantIdParams,
    body: TwinRuleInputSchema,
    response: TwinRuleSchema,
    permission: 'alert:twins-rule:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${rules}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'alert:twins-rule:delete',
  }),
  setStatus: defineRoute({
    method: 'PUT',
    path: `${rules}/:id/status`,
    params: TenantIdParams,
    body: z.object({ status: z.union([z.literal(0), z.literal(1)]) }),
    response: TwinRuleSchema,
    permission: 'alert:twins-rule:updateStatus',
  }),
};
