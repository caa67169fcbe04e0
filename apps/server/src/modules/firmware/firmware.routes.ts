import {
  FirmwarePageSchema,
  FirmwareSchema,
  FirmwareUploadFieldsSchema,
  UpgradeNotifyResultSchema,
  UpgradeNotifySchema,
  UpgradeSchema,
  UuidSchema,
} from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import { zodToApiError } from '../command/command.service.ts';
import type { FirmwareService } from './firmware.service.ts';

const Tenant = z.object({ tenantId: UuidSchema });
const tags = ['firmware'];
const base = '/v1/out-firmware-mgmt/tenants/:tenantId';
const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenantId: string } }) =>
  tenantAuth({ auth: req.auth, params: { tenant_id: req.params.tenantId } });

/** Spec §7 firmware paths: management, public flag, description, upgrade notify; plus upgrade state and the device download. */
export function firmwareRoutes(root: LoggerheadApp, svc: FirmwareService) {
  const app = root as unknown as App;
  app.get(
    `${base}/firmwares`,
    {
      config: { permission: 'firmware:firmware:query' },
      schema: {
        tags,
        params: Tenant,
        querystring: z.object({
          current_page: z.coerce.number().int().min(1).default(1),
          page_size: z.coerce.number().int().min(1).max(100).default(10),
          model_id: z.string().uuid().optional(),
          type: z.enum(['self', 'outer']).optional(),
        }),
        response: { 200: FirmwarePageSchema, ...errors },
      },
    },
    (req) => svc.list(auth(req), req.query),
  );
  app.post(
    `${base}/firmwares`,
    { config: { permission: 'firmware:firmware:upload' }, schema: { tags, params: Tenant, response: { 200: FirmwareSchema, ...errors } } },
    async (req) => {
      const a = auth(req);
      if (!req.isMultipart()) throw badRequest('firmware.no-file', 'Send the firmware as a multipart form');
      const fields: Record<string, string> = {};
      let file: { name: string; bytes: Buffer } | null = null;
      for await (const part of req.parts()) {
        if (part.type === 'file') file = { name: part.filename, bytes: await part.toBuffer() };
        else fields[part.fieldname] = String(part.value);
      }
      const f = FirmwareUploadFieldsSchema.safeParse(fields);
      if (!f.success) {
        const e = zodToApiError(f.error, '');
        for (const b of [e.body].flat()) if (b.field === 'version') b.code = 'firmware.bad-version';
        throw e;
      }
      if (!file) throw badRequest('firmware.no-file', 'Choose a firmware file', 'file');
      return svc.upload(a, f.data, file);
    },
  );
  app.delete(
    `${base}/firmwares`,
    {
      config: { permission: 'firmware:firmware:delete' },
      schema: { tags, params: Tenant, querystring: z.object({ ids: z.string().min(1).max(4000) }) },
    },
    async (req, reply) => {
      await svc.remove(
        auth(req),
        req.query.ids
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
      return reply.code(204).send();
    },
  );
  app.delete(
    `${base}/firmwares/:id`,
    { config: { permission: 'firmware:firmware:delete' }, schema: { tags, params: Tenant.extend({ id: UuidSchema }) } },
    async (req, reply) => {
      await svc.remove(auth(req), [req.params.id]);
      return reply.code(204).send();
    },
  );
  app.put(
    `${base}/firmwares/:id/:toPublic`,
    {
      config: { permission: 'firmware:firmware:public' },
      schema: {
        tags,
        params: Tenant.extend({ id: UuidSchema, toPublic: z.enum(['true', 'false', '1', '0']) }),
        response: { 200: FirmwareSchema, ...errors },
      },
    },
    (req) => svc.setPublic(auth(req), req.params.id, req.params.toPublic === 'true' || req.params.toPublic === '1'),
  );
  app.post(
    `${base}/firmwares/:model_id/:version/notify`,
    {
      config: { permission: 'firmware:firmware:notify-upgrade' },
      schema: {
        tags,
        params: Tenant.extend({ model_id: UuidSchema, version: z.string().max(16) }),
        body: UpgradeNotifySchema,
        response: { 200: UpgradeNotifyResultSchema, ...errors },
      },
    },
    (req) => svc.notify(auth(req), req.params.model_id, req.params.version, req.body),
  );
  app.get(
    '/v1/firmware/:devtype/:version/desc',
    {
      config: { permission: 'firmware:firmware:get-desc' },
      schema: {
        tags,
        params: z.object({ devtype: z.string().max(64), version: z.string().max(16) }),
        response: { 200: z.object({ version: z.string(), model_id: z.string(), description: z.string() }), ...errors },
      },
    },
    (req) => svc.describe(requireAuth(req.auth), req.params.devtype, req.params.version),
  );
  app.get(
    `${base}/things/:things_id/upgrades`,
    {
      config: { permission: 'things:things:queryone' },
      schema: { tags, params: Tenant.extend({ things_id: UuidSchema }), response: { 200: z.array(UpgradeSchema), ...errors } },
    },
    (req) => svc.upgrades(auth(req), req.params.things_id),
  );
  app.post(
    `${base}/things/:things_id/upgrades/:id/cancel`,
    {
      config: { permission: 'firmware:firmware:notify-upgrade' },
      schema: {
        tags,
        params: Tenant.extend({ things_id: UuidSchema, id: UuidSchema }),
        response: { 200: UpgradeSchema, ...errors },
      },
    },
    (req) => svc.cancel(auth(req), req.params.things_id, req.params.id),
  );
  // The device fetches the image with the one-time token of its running upgrade.
  app.get(
    '/v1/out-firmware-mgmt/download/:token',
    { config: { public: true }, schema: { tags, params: z.object({ token: z.string().regex(/^[0-9a-f]{48}$/) }) } },
    async (req, reply) => {
      const f = await svc.download(req.params.token);
      return reply.header('content-type', 'application/octet-stream').header('content-length', f.size).send(f.stream);
    },
  );
}
