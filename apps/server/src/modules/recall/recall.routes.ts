import { Routes } from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { LINK_PROOF_HEADER } from '../../lib/device-proof.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { errors, tenantAuth } from '../command/command.routes.ts';
import type { RecallService } from './recall.service.ts';

const R = Routes.recall;
const tags = ['recall'];
const withErrors = { tags, errors };
/** A device uploads a file in parts of at most this size. */
export const MAX_UPLOAD_PART = 4 * 1024 * 1024;

/** Spec §4 file recall and §7 file manager paths for recalled files. */
export async function recallRoutes(root: LoggerheadApp, svc: RecallService) {
  const app = root as unknown as App;
  route(app, R.list, withErrors, (req) => svc.list(tenantAuth(req), req.params.things_id, req.body));
  route(app, R.listResult, withErrors, (req) => svc.listResult(tenantAuth(req), req.params.things_id, req.params.correlation_id));
  route(app, R.recall, withErrors, (req) => svc.recall(tenantAuth(req), req.params.things_id, req.body));
  route(app, R.batch, withErrors, (req) => svc.batch(tenantAuth(req), req.params.things_id, req.body.files));
  route(app, R.tasks, withErrors, (req) => svc.tasks(tenantAuth(req), req.params.things_id, req.query.batch_id ?? null));
  route(app, R.task, withErrors, (req) => svc.task(tenantAuth(req), req.params.things_id, req.params.id));
  route(app, R.cancel, withErrors, (req) => svc.cancel(tenantAuth(req), req.params.things_id, req.params.id));
  route(app, R.deleteOnDevice, withErrors, (req) =>
    svc.deleteOnDevice(tenantAuth(req), req.params.things_id, req.body.filter.name, req.body.size),
  );

  // Recalled files (file manager).
  route(app, R.files, withErrors, (req) => svc.files(tenantAuth(req), req.query.things_id ?? null));
  route(app, R.fileUrl, withErrors, async (req) => {
    const f = await svc.open(tenantAuth(req), req.query.name);
    f.stream.destroy();
    return { url: `/v1/filemanager/upload/commonfile/${encodeURIComponent(f.file.name)}`, size: f.file.size };
  });
  route(app, R.download, { tags }, async (req, reply) => {
    const f = await svc.open(requireAuth(req.auth), req.params.name);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', f.file.size)
      .header('content-disposition', `attachment; filename="${f.file.name.replace(/[^\w.-]/g, '_')}"`)
      .send(f.stream);
  });
  route(app, R.remove, { tags }, async (req, reply) => {
    await svc.remove(tenantAuth(req), req.query.name);
    return reply.code(204).send();
  });
  route(app, R.importToHistory, { tags }, (req) => svc.importToHistory(tenantAuth(req), req.body.name));

  // The device's upload endpoint: the one-time token in the URL, and the device's proof of it
  // (X-Device-Proof, lib/device-proof.ts), so that the link opens for the recalled device alone.
  await root.register(async (scope) => {
    const s = scope as unknown as App;
    s.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_PART }, (_req, body, done) =>
      done(null, body),
    );
    const put = (req: {
      params: { token: string };
      query: { offset: number; total?: number };
      body: unknown;
      headers: Record<string, string | string[] | undefined>;
    }) =>
      svc.upload(
        req.params.token,
        req.headers[LINK_PROOF_HEADER],
        req.query.offset,
        Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        req.query.total ?? null,
      );
    const upload = { tags, config: { noOpLog: true } };
    route(s, R.uploadPut, upload, put);
    route(s, R.uploadPost, upload, put);
    route(s, R.uploadStatus, { tags }, (req) => svc.uploadStatus(req.params.token, req.headers[LINK_PROOF_HEADER]));
  });
}
