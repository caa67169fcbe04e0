import { DBC_MAX_BYTES, DbcFieldsSchema, ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { bindingsService } from './bindings.service.ts';
import { mappingRepository } from './mapping.repository.ts';
import { type DbcUpload, mappingService } from './mapping.service.ts';

const R = Routes.mapping;
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  413: ErrorResponseSchema,
};
const tags = ['mapping'];
const withErrors = { tags, errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** The `.dbc` file part and the form fields of a multipart request (or the JSON body's fields). */
async function readUpload(req: FastifyRequest): Promise<{ file: DbcUpload | null; fields: { name?: string; protocol?: number } }> {
  const raw: Record<string, unknown> = {};
  let file: DbcUpload | null = null;
  if (req.isMultipart()) {
    for await (const part of req.parts({ limits: { fileSize: DBC_MAX_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        try {
          file = { fileName: part.filename, bytes: await part.toBuffer() };
        } catch (e) {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ApiError(413, 'mapping.dbc-too-large', undefined, { field: 'file' });
          throw e;
        }
      } else raw[part.fieldname] = part.value;
    }
  } else if (req.body && typeof req.body === 'object') Object.assign(raw, req.body);
  const parsed = DbcFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest('http.400', `${issue.path.join('.')}: ${issue.message}`, issue.path.join('.'));
  }
  return { file, fields: parsed.data };
}

/** DBC files, signal strategies and channel bindings (spec §7 mapping-mgmt, §4 DBC parsing). */
export async function mappingRoutes(app: LoggerheadApp, ctx: AppContext) {
  const repo = mappingRepository(ctx.database.raw);
  const svc = mappingService(
    repo,
    (ids) => {
      for (const id of ids) ctx.signals.invalidate(id);
    },
    ctx.database.raw,
  );
  const bindings = bindingsService(ctx.database.raw, repo, {
    changed: (id) => ctx.signals.invalidate(id),
    clearChannel: (tenantId, thingsId, channel) => ctx.signals.clearChannel(tenantId, thingsId, channel),
    backfill: ctx.signals.backfill,
  });

  route(app, R.dbcFiles, withErrors, (req) => svc.listDbc(auth(req), req.query));
  route(app, R.uploadDbc, withErrors, async (req) => {
    const a = auth(req);
    const { file, fields } = await readUpload(req);
    if (!file) throw badRequest('http.400', 'Send the .dbc file as multipart field "file"', 'file');
    return svc.createDbc(a, file, fields);
  });
  route(app, R.dbcFile, withErrors, (req) => svc.getDbc(auth(req), req.params.id));
  route(app, R.updateDbc, withErrors, async (req) => {
    const a = auth(req);
    const { file, fields } = await readUpload(req);
    return svc.updateDbc(a, req.params.id, file, fields);
  });
  route(app, R.removeDbc, { tags }, async (req, reply) => {
    await svc.deleteDbc(auth(req), req.params.id);
    return reply.code(204).send();
  });
  route(app, R.dbcMessages, withErrors, (req) => svc.messages(auth(req), req.params.id, req.query.keyword));
  route(app, R.dbcContent, { tags }, async (req, reply) => {
    const f = await svc.content(auth(req), req.params.id);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${f.file_name.replace(/[^\w.-]/g, '_')}"`)
      .send(f.content);
  });

  route(app, R.strategies, withErrors, (req) => svc.listStrategies(auth(req), req.query));
  route(app, R.createStrategy, withErrors, (req) => svc.createStrategy(auth(req), req.body));
  route(app, R.strategy, withErrors, (req) => svc.getStrategy(auth(req), req.params.id));
  route(app, R.updateStrategy, withErrors, (req) => svc.updateStrategy(auth(req), req.params.id, req.body));
  route(app, R.removeStrategy, { tags }, async (req, reply) => {
    await svc.deleteStrategy(auth(req), req.params.id);
    return reply.code(204).send();
  });

  route(app, R.bindings, withErrors, (req) => bindings.list(auth(req), req.params.things_id));
  route(app, R.binding, withErrors, (req) => bindings.get(auth(req), req.params.things_id, req.params.channel));
  route(app, R.bind, withErrors, (req) => bindings.bind(auth(req), req.params.things_id, req.params.channel, req.body));
  route(app, R.setState, withErrors, (req) =>
    bindings.setState(auth(req), req.params.things_id, req.params.channel, req.body.state, req.body.backfill),
  );
  route(app, R.backfill, withErrors, (req) => bindings.backfill(auth(req), req.params.things_id, req.params.channel));
  route(app, R.stopBackfill, { tags }, async (req, reply) => {
    await bindings.stopBackfill(auth(req), req.params.things_id, req.params.channel);
    return reply.code(204).send();
  });
  route(app, R.unbind, { tags }, async (req, reply) => {
    await bindings.unbind(auth(req), req.params.things_id, req.params.channel);
    return reply.code(204).send();
  });
}
