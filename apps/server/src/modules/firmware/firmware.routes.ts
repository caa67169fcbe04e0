import { FirmwareUploadFieldsSchema, Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { LINK_PROOF_HEADER } from '../../lib/device-proof.ts';
import { badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import { zodToApiError } from '../command/command.service.ts';
import type { FirmwareService } from './firmware.service.ts';

const R = Routes.firmware;
const tags = ['firmware'];
const withErrors = { tags, errors };
const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenantId: string } }) =>
  tenantAuth({ auth: req.auth, params: { tenant_id: req.params.tenantId } });

/** Spec §7 firmware paths: management, public flag, description, upgrade notify; plus upgrade state and the device download. */
export function firmwareRoutes(root: LoggerheadApp, svc: FirmwareService) {
  const app = root as unknown as App;
  route(app, R.list, withErrors, (req) => svc.list(auth(req), req.query));
  route(app, R.upload, withErrors, async (req) => {
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
    if (!file) throw badRequest('firmware.no-file', undefined, 'file');
    return svc.upload(a, f.data, file);
  });
  route(app, R.removeMany, { tags }, async (req, reply) => {
    await svc.remove(
      auth(req),
      req.query.ids
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    return reply.code(204).send();
  });
  route(app, R.remove, { tags }, async (req, reply) => {
    await svc.remove(auth(req), [req.params.id]);
    return reply.code(204).send();
  });
  route(app, R.setPublic, withErrors, (req) =>
    svc.setPublic(auth(req), req.params.id, req.params.toPublic === 'true' || req.params.toPublic === '1'),
  );
  route(app, R.notify, withErrors, (req) => svc.notify(auth(req), req.params.model_id, req.params.version, req.body));
  route(app, R.describe, withErrors, (req) => svc.describe(requireAuth(req.auth), req.params.devtype, req.params.version));
  route(app, R.upgrades, withErrors, (req) => svc.upgrades(auth(req), req.params.things_id));
  route(app, R.cancelUpgrade, withErrors, (req) => svc.cancel(auth(req), req.params.things_id, req.params.id));
  // The device fetches the image with the one-time token of its running upgrade and its proof of it.
  route(app, R.download, { tags }, async (req, reply) => {
    const f = await svc.download(req.params.token, req.headers[LINK_PROOF_HEADER]);
    return reply.header('content-type', 'application/octet-stream').header('content-length', f.size).send(f.stream);
  });
}
