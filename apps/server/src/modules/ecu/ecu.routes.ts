import {
  ECU_FILE_TYPES,
  EcuCreateSchema,
  EcuFileSchema,
  EcuSchema,
  EcuUpdateSchema,
  FaultCodeSchema,
  MAX_ECU_FILE_BYTES,
  TenantIdParamsSchema,
  TenantParamsSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import type { EcuService } from './ecu.service.ts';

const Tenant = TenantParamsSchema;
const TenantId = TenantIdParamsSchema;
const tags = ['ecu'];
const base = '/v1/single-candtu/tenants/:tenant_id';

/** Spec §7 CAN/DTU service: ECUs and their files (fault codes, firmware packages, unlock files). */
export function ecuRoutes(root: LoggerheadApp, svc: EcuService) {
  const app = root as unknown as App;
  app.get(
    `${base}/ecus`,
    {
      config: { permission: 'candtu:ecu:query' },
      schema: {
        tags,
        params: Tenant,
        querystring: z.object({ keyword: z.string().max(64).optional() }),
        response: { 200: z.array(EcuSchema), ...errors },
      },
    },
    (req) => svc.list(tenantAuth(req), req.query.keyword),
  );
  app.post(
    `${base}/ecus`,
    {
      config: { permission: 'candtu:ecu:create' },
      schema: { tags, params: Tenant, body: EcuCreateSchema, response: { 200: EcuSchema, ...errors } },
    },
    (req) => svc.create(tenantAuth(req), req.body),
  );
  app.get(
    `${base}/ecus/:id`,
    { config: { permission: 'candtu:ecu:query' }, schema: { tags, params: TenantId, response: { 200: EcuSchema, ...errors } } },
    (req) => svc.get(tenantAuth(req), req.params.id),
  );
  app.put(
    `${base}/ecus/:id`,
    {
      config: { permission: 'candtu:ecu:update' },
      schema: { tags, params: TenantId, body: EcuUpdateSchema, response: { 200: EcuSchema, ...errors } },
    },
    (req) => svc.update(tenantAuth(req), req.params.id, req.body),
  );
  app.delete(
    `${base}/ecus/:id`,
    { config: { permission: 'candtu:ecu:delete' }, schema: { tags, params: TenantId } },
    async (req, reply) => {
      await svc.remove(tenantAuth(req), req.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    `${base}/files`,
    {
      config: { permission: 'candtu:dtc:query' },
      schema: {
        tags,
        params: Tenant,
        querystring: z.object({ type: z.enum(ECU_FILE_TYPES).optional() }),
        response: { 200: z.array(EcuFileSchema), ...errors },
      },
    },
    (req) => svc.files(tenantAuth(req), req.query.type),
  );
  app.post(
    `${base}/files`,
    { config: { permission: 'candtu:dtc:create' }, schema: { tags, params: Tenant, response: { 200: EcuFileSchema, ...errors } } },
    async (req) => {
      const a = tenantAuth(req);
      if (!req.isMultipart()) throw badRequest('ecu.bad-file', 'Send the file as a multipart form');
      const fields: Record<string, string> = {};
      let file: { name: string; bytes: Buffer } | null = null;
      for await (const part of req.parts({ limits: { fileSize: MAX_ECU_FILE_BYTES } })) {
        if (part.type === 'file') file = { name: part.filename, bytes: await part.toBuffer() };
        else fields[part.fieldname] = String(part.value);
      }
      const f = z.object({ type: z.enum(ECU_FILE_TYPES), name: z.string().trim().min(1).max(64).optional() }).safeParse(fields);
      if (!f.success) throw badRequest('http.400', 'type must be dtc, firmware or unlock', 'type');
      if (!file) throw badRequest('ecu.bad-file', 'Choose a file', 'file');
      return svc.upload(a, f.data.type, f.data.name ?? file.name, file);
    },
  );
  app.delete(
    `${base}/files/:id`,
    { config: { permission: 'candtu:dtc:delete' }, schema: { tags, params: TenantId } },
    async (req, reply) => {
      await svc.removeFile(tenantAuth(req), req.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    `${base}/files/:id/fault-codes`,
    {
      config: { permission: 'candtu:dtc:query' },
      schema: { tags, params: TenantId, response: { 200: z.array(FaultCodeSchema), ...errors } },
    },
    (req) => svc.faultCodes(tenantAuth(req), req.params.id),
  );
}
