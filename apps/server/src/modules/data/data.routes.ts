import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { bytesCodec } from '../../db/bytea.ts';
import { requireAuth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { route } from '../../lib/route.ts';
import { liveRoutes } from '../../live/live.routes.ts';
import { inTenant } from '../things/things.access.ts';
import { dataServiceRoutes } from './data-service.routes.ts';
import { downloadsService } from './downloads.service.ts';
import { attachment } from './export-name.ts';
import { framesService } from './frames.service.ts';
import { quickDeleteRoutes } from './quick-delete.routes.ts';
import { sweepRetention } from './retention.job.ts';
import { uploadsService } from './uploads.service.ts';

const R = Routes.data;
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  413: ErrorResponseSchema,
  429: ErrorResponseSchema,
};
const tags = ['data'];
const withErrors = { tags, errors };
const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Raw frame history, exports, log uploads (spec §7 data service), the live WebSocket and retention. */
export function dataRoutes(app: LoggerheadApp, ctx: AppContext) {
  const raw = ctx.database.raw;
  const codec = bytesCodec(ctx.database.kind);
  const frames = framesService(raw, codec);
  const files = ctx.files.under('files');
  const jobLimit = (tenantId: string) => ctx.quota.limit(tenantId, 'concurrent_data_jobs');
  const downloads = downloadsService(raw, files, app.log, codec, ctx.jobs.owner, (a, r, n) => ctx.quota.assertCanAdd(a, r, n), jobLimit);
  ctx.jobs.register('export', (pass) => downloads.recover(pass));
  const uploads = uploadsService(raw, ctx.ingest.writer, ctx.ingest.devices, ctx.config.maxUploadBytes * 4, jobLimit);

  route(app, R.frames, withErrors, (req) => frames.page(auth(req), req.params.things_id, req.query));

  route(app, R.createDownload, withErrors, (req) => downloads.create(auth(req), req.params.things_id, req.body));
  route(app, R.download, withErrors, (req) => downloads.get(auth(req), req.params.things_id, req.params.id));
  route(app, R.downloadFile, { tags }, async (req, reply) => {
    const f = await downloads.file(auth(req), req.params.things_id, req.params.id);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', f.size)
      .header('content-disposition', attachment(f.name))
      .send(f.stream);
  });
  route(app, R.cancelDownload, { tags }, async (req, reply) => {
    await downloads.cancel(auth(req), req.params.things_id, req.params.id);
    return reply.code(204).send();
  });

  route(app, R.upload, withErrors, async (req) => {
    const a = auth(req);
    if (!req.isMultipart()) throw badRequest('http.400', 'Send the log as a multipart file');
    const file = await req.file();
    if (!file) throw badRequest('http.400', 'No file');
    // Read as it arrives (gzip inflated on the way); MAX_UPLOAD_MB bounds the bytes sent (413 beyond).
    const upload = { name: file.filename, bytes: file.file, truncated: () => file.file.truncated };
    return uploads.upload(a, req.params.things_id, upload, req.query.start_time);
  });

  liveRoutes(app, ctx);
  quickDeleteRoutes(app, ctx);
  dataServiceRoutes(app, ctx, downloads);

  // Retention by each tenant's package days, every hour (whole partitions past the longest).
  runPeriodically(app, ctx, {
    name: 'retention-sweep',
    everyMs: 3600_000,
    cron: '23 * * * *',
    work: () => sweepRetention({ raw, writer: ctx.ingest.writer, signals: ctx.signals, files: { store: ctx.files, usage: ctx.usage } }),
  });
  app.addHook('onClose', async () => {
    await downloads.idle();
  });
}
