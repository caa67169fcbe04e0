import { z } from 'zod';
import { OkSchema, UuidSchema } from '../schemas/common.ts';
import {
  MappingEntityInputSchema,
  MappingEntityPageSchema,
  MappingEntityQuerySchema,
  MappingEntitySchema,
  MappingRuleInputSchema,
  MappingRulePageSchema,
  MappingRuleQuerySchema,
  MappingRuleSchema,
} from '../schemas/mapping-rules.ts';
import {
  FnJsonSchemaSchema,
  FunctionBlockInputSchema,
  FunctionBlockPageSchema,
  FunctionBlockQuerySchema,
  FunctionBlockSchema,
  InfoModelBatchQuerySchema,
  InfoModelDeleteQuerySchema,
  InfoModelInputSchema,
  InfoModelPageSchema,
  InfoModelQuerySchema,
  InfoModelSchema,
  ModelCategoryInputSchema,
  ModelCategorySchema,
  PublicFunctionBlockQuerySchema,
  PublicToTenantSchema,
} from '../schemas/models.ts';
import { defineRoute, IdParams, TenantIdParams, TenantParams } from './define.ts';

const base = '/mapping-mgmt';
const tenant = `${base}/tenants/:tenant_id`;
const Deleted = z.object({ deleted: z.number().int() });
const ModelParams = TenantParams.extend({ info_model_id: UuidSchema });
const PublicModelParams = z.object({ info_model_id: UuidSchema });

/** Function blocks (spec §7 /mapping-mgmt): public (platform) and per tenant. */
export const FunctionBlockRoutes = {
  /** What a new block's json_schema starts from. */
  jsonSchemaInit: defineRoute({
    method: 'GET',
    path: `${base}/function-blocks/json-schema/init`,
    response: FnJsonSchemaSchema,
    permission: 'mapping:function-block:query',
  }),
  listPublic: defineRoute({
    method: 'GET',
    path: `${base}/function-blocks/public`,
    query: PublicFunctionBlockQuerySchema,
    response: FunctionBlockPageSchema,
    permission: 'mapping:function-block:query',
  }),
  createPublic: defineRoute({
    method: 'POST',
    path: `${base}/function-blocks/public`,
    body: FunctionBlockInputSchema,
    response: FunctionBlockSchema,
    permission: 'mapping:function-block:public',
  }),
  updatePublic: defineRoute({
    method: 'PUT',
    path: `${base}/function-blocks/public/:id`,
    params: IdParams,
    body: FunctionBlockInputSchema,
    response: FunctionBlockSchema,
    permission: 'mapping:function-block:public',
  }),
  removePublic: defineRoute({
    method: 'DELETE',
    path: `${base}/function-blocks/public/:id`,
    params: IdParams,
    response: Deleted,
    permission: 'mapping:function-block:public',
  }),
  list: defineRoute({
    method: 'GET',
    path: `${tenant}/function-blocks`,
    params: TenantParams,
    query: FunctionBlockQuerySchema,
    response: FunctionBlockPageSchema,
    permission: 'mapping:function-block:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${tenant}/function-blocks`,
    params: TenantParams,
    body: FunctionBlockInputSchema,
    response: FunctionBlockSchema,
    permission: 'mapping:function-block:create',
  }),
  /** One of the tenant's blocks or a public one. */
  get: defineRoute({
    method: 'GET',
    path: `${tenant}/function-blocks/:id`,
    params: TenantIdParams,
    response: FunctionBlockSchema,
    permission: 'mapping:function-block:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${tenant}/function-blocks/:id`,
    params: TenantIdParams,
    body: FunctionBlockInputSchema,
    response: FunctionBlockSchema,
    permission: 'mapping:function-block:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${tenant}/function-blocks/:id`,
    params: TenantIdParams,
    response: Deleted,
    permission: 'mapping:function-block:delete',
  }),
};

/** Categories of info models with their templates: the tenant's and the public ones. */
export const ModelCategoryRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${tenant}/categories`,
    params: TenantParams,
    response: z.array(ModelCategorySchema),
    permission: 'mapping:category:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${tenant}/categories`,
    params: TenantParams,
    body: ModelCategoryInputSchema,
    response: ModelCategorySchema,
    permission: 'mapping:category:create',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${tenant}/categories/:id`,
    params: TenantIdParams,
    body: ModelCategoryInputSchema,
    response: ModelCategorySchema,
    permission: 'mapping:category:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${tenant}/categories/:id`,
    params: TenantIdParams,
    response: Deleted,
    permission: 'mapping:category:delete',
  }),
};

/** Info models (spec §7 /mapping-mgmt): the device types, made of function blocks (decision 0123). */
export const InfoModelRoutes = {
  listPublic: defineRoute({
    method: 'GET',
    path: `${base}/info-models/public`,
    query: InfoModelQuerySchema,
    response: InfoModelPageSchema,
    permission: 'things:info-model:query',
  }),
  createPublic: defineRoute({
    method: 'POST',
    path: `${base}/info-models/public`,
    body: InfoModelInputSchema,
    response: InfoModelSchema,
    permission: 'mapping:info-model:public',
  }),
  updatePublic: defineRoute({
    method: 'PUT',
    path: `${base}/info-models/public/:info_model_id`,
    params: PublicModelParams,
    body: InfoModelInputSchema,
    response: InfoModelSchema,
    permission: 'mapping:info-model:public',
  }),
  list: defineRoute({
    method: 'GET',
    path: `${tenant}/info-models`,
    params: TenantParams,
    query: InfoModelQuerySchema,
    response: InfoModelPageSchema,
    permission: 'things:info-model:query',
  }),
  /** The tenant's and public models named by `ids` or `names` (comma-separated). */
  batch: defineRoute({
    method: 'GET',
    path: `${tenant}/info-models/batch`,
    params: TenantParams,
    query: InfoModelBatchQuerySchema,
    response: z.array(InfoModelSchema),
    permission: 'things:info-model:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${tenant}/info-models`,
    params: TenantParams,
    body: InfoModelInputSchema,
    response: InfoModelSchema,
    permission: 'things:info-model:create',
  }),
  /** Copies a public model into the tenant (its blocks stay the shared public ones). */
  publicToTenant: defineRoute({
    method: 'POST',
    path: `${tenant}/info-models/public-to-tenant`,
    params: TenantParams,
    body: PublicToTenantSchema,
    response: InfoModelSchema,
    permission: 'things:info-model:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${tenant}/info-models/:info_model_id`,
    params: ModelParams,
    response: InfoModelSchema,
    permission: 'things:info-model:query',
  }),
  /** The model's function blocks with their schemas, in order: what a device of it reports and accepts. */
  blocks: defineRoute({
    method: 'GET',
    path: `${tenant}/info-models/:info_model_id/function-blocks`,
    params: ModelParams,
    response: z.array(FunctionBlockSchema),
    permission: 'things:info-model:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${tenant}/info-models/:info_model_id`,
    params: ModelParams,
    body: InfoModelInputSchema,
    response: InfoModelSchema,
    permission: 'things:info-model:update',
  }),
  /** Refused while devices use it; without `force` also while blocks, display groups or firmware hang on it. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${tenant}/info-models/:info_model_id`,
    params: ModelParams,
    query: InfoModelDeleteQuerySchema,
    response: Deleted,
    permission: 'things:info-model:delete',
  }),
};

const mappingRules = `${tenant}/mapping-rule-infos`;

/** Mapping rules (spec §7 /mapping-mgmt mapping-rule-infos): raw uplink keys onto model properties. */
export const MappingRuleRoutes = {
  list: defineRoute({
    method: 'GET',
    path: mappingRules,
    params: TenantParams,
    query: MappingRuleQuerySchema,
    response: MappingRulePageSchema,
    permission: 'mapping:mapping-rule:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: mappingRules,
    params: TenantParams,
    body: MappingRuleInputSchema,
    response: MappingRuleSchema,
    permission: 'mapping:mapping-rule:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${mappingRules}/:id`,
    params: TenantIdParams,
    response: MappingRuleSchema,
    permission: 'mapping:mapping-rule:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${mappingRules}/:id`,
    params: TenantIdParams,
    body: MappingRuleInputSchema,
    response: MappingRuleSchema,
    permission: 'mapping:mapping-rule:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${mappingRules}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'mapping:mapping-rule:delete',
  }),
};

const entities = `${tenant}/entities`;

/** Entities (spec §7 /mapping-mgmt): the raw shapes of devices' uplinks that mapping rules map from. */
export const MappingEntityRoutes = {
  list: defineRoute({
    method: 'GET',
    path: entities,
    params: TenantParams,
    query: MappingEntityQuerySchema,
    response: MappingEntityPageSchema,
    permission: 'mapping:entity:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: entities,
    params: TenantParams,
    body: MappingEntityInputSchema,
    response: MappingEntitySchema,
    permission: 'mapping:entity:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${entities}/:id`,
    params: TenantIdParams,
    response: MappingEntitySchema,
    permission: 'mapping:entity:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${entities}/:id`,
    params: TenantIdParams,
    body: MappingEntityInputSchema,
    response: MappingEntitySchema,
    permission: 'mapping:entity:update',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${entities}/:id`,
    params: TenantIdParams,
    response: OkSchema,
    permission: 'mapping:entity:delete',
  }),
};
