import { z } from 'zod';
import { ECU_FILE_TYPES, EcuCreateSchema, EcuFileSchema, EcuSchema, EcuUpdateSchema, FaultCodeSchema } from '../schemas/ecu.ts';
import { defineRoute, TenantIdParams, TenantParams } from './define.ts';

const base = '/single-candtu/tenants/:tenant_id';

/** Spec §7 CAN/DTU service: ECUs and their files (fault codes, firmware packages, unlock files). */
export const EcuRoutes = {
  list: defineRoute({
    method: 'GET',
    path: `${base}/ecus`,
    params: TenantParams,
    query: z.object({ keyword: z.string().max(64).optional() }),
    response: z.array(EcuSchema),
    permission: 'candtu:ecu:query',
  }),
  create: defineRoute({
    method: 'POST',
    path: `${base}/ecus`,
    params: TenantParams,
    body: EcuCreateSchema,
    response: EcuSchema,
    permission: 'candtu:ecu:create',
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/ecus/:id`,
    params: TenantIdParams,
    response: EcuSchema,
    permission: 'candtu:ecu:query',
  }),
  update: defineRoute({
    method: 'PUT',
    path: `${base}/ecus/:id`,
    params: TenantIdParams,
    body: EcuUpdateSchema,
    response: EcuSchema,
    permission: 'candtu:ecu:update',
  }),
  /** Answers 204. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/ecus/:id`,
    params: TenantIdParams,
    permission: 'candtu:ecu:delete',
  }),

  files: defineRoute({
    method: 'GET',
    path: `${base}/files`,
    params: TenantParams,
    query: z.object({ type: z.enum(ECU_FILE_TYPES).optional() }),
    response: z.array(EcuFileSchema),
    permission: 'candtu:dtc:query',
  }),
  /** Body: a multipart form with `type` (dtc, firmware, unlock), an optional `name` and the file. */
  upload: defineRoute({
    method: 'POST',
    path: `${base}/files`,
    params: TenantParams,
    response: EcuFileSchema,
    permission: 'candtu:dtc:create',
  }),
  /** Answers 204. */
  removeFile: defineRoute({
    method: 'DELETE',
    path: `${base}/files/:id`,
    params: TenantIdParams,
    permission: 'candtu:dtc:delete',
  }),
  faultCodes: defineRoute({
    method: 'GET',
    path: `${base}/files/:id/fault-codes`,
    params: TenantIdParams,
    response: z.array(FaultCodeSchema),
    permission: 'candtu:dtc:query',
  }),
};
