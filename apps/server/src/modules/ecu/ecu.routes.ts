import { ECU_FILE_TYPES, MAX_ECU_FILE_BYTES, Routes } from '@loggerhead/contract';
import { z } from 'zod';
import type { LoggerheadApp } from '../../app.ts';
import { badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import type { EcuService } from './ecu.service.ts';

const R = Routes.ecu;
const tags = ['ecu'];
const withErrors = { tags, errors };

/** Spec §7 CAN/DTU service: ECUs and their files (fault codes, firmware packages, unlock files). */
export function ecuRoutes(root: LoggerheadApp, svc: EcuService) {
  const app = root as unknown as App;
  route(app, R.list, withErrors, (req) => svc.list(tenantAuth(req), req.query.keyword));
  route(app, R.create, withErrors, (req) => svc.create(tenantAuth(req), req.body));
  route(app, R.get, withErrors, (req) => svc.get(tenantAuth(req), req.params.id));
  route(app, R.update, withErrors, (req) => svc.update(tenantAuth(req), req.params.id, req.body));
  route(app, R.remove, { tags }, async (req, reply) => {
    await svc.remove(tenantAuth(req), req.params.id);
    return reply.code(204).send();
  });

  route(app, R.files, withErrors, (req) => svc.files(tenantAuth(req), req.query.type));
  route(app, R.upload, withErrors, async (req) => {
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
  });
  route(app, R.removeFile, { tags }, async (req, reply) => {
    await svc.removeFile(tenantAuth(req), req.params.id);
    return reply.code(204).send();
  });
  route(app, R.faultCodes, withErrors, (req) => svc.faultCodes(tenantAuth(req), req.params.id));
}
