import { ConfigResultSchema, MAX_CONFIG_FILE_BYTES, Routes } from '@loggerhead/contract';
import type { FastifyReply } from 'fastify';
import type { LoggerheadApp } from '../../app.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { errors, tenantAuth } from './command.routes.ts';
import type { ConfigService } from './config.service.ts';

const R = Routes.config;
const tags = ['config'];
/** The device's result (200 from the table) or 202 while it has not answered, and the error answers. */
const result = { tags, errors: { 202: ConfigResultSchema, ...errors, 413: errors[400], 504: errors[400] } };
/** Sends with the status the service chose (the handler's reply is typed for 200 only). */
const answer = (reply: unknown, status: number, body: unknown) => (reply as FastifyReply).code(status).send(body);

/** Device configuration: read from / write to the logger, last known, export and import (JSON ≤ 10 MB). */
export async function configRoutes(root: LoggerheadApp, svc: ConfigService) {
  await root.register(async (scope) => {
    const app = scope as unknown as App;
    // A config file may be up to 10 MB, above the API's default body limit.
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_CONFIG_FILE_BYTES + 1024 }, (_req, body, done) => {
      if ((body as Buffer).byteLength === 0) return done(null, {});
      try {
        done(null, JSON.parse((body as Buffer).toString('utf8')));
      } catch {
        const e = new Error('Body is not valid JSON') as Error & { statusCode: number };
        e.statusCode = 400;
        done(e, undefined);
      }
    });
    route(app, R.read, result, async (req, reply) => {
      const r = await svc.read(tenantAuth(req), req.params.things_id);
      return answer(reply, r.status, r.body);
    });
    route(app, R.write, result, async (req, reply) => {
      const r = await svc.write(tenantAuth(req), req.params.things_id, req.body);
      return answer(reply, r.status, r.body);
    });
    route(app, R.last, { tags, errors }, (req) => svc.last(tenantAuth(req), req.params.things_id));
    route(app, R.export, { tags }, async (req, reply) => {
      const last = await svc.last(tenantAuth(req), req.params.things_id);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', 'attachment; filename="config.json"')
        .send(JSON.stringify({ config: last.config }, null, 2));
    });
    route(app, R.import, result, async (req, reply) => {
      let bytes: Uint8Array;
      if (req.isMultipart()) {
        const file = await req.file({ limits: { fileSize: MAX_CONFIG_FILE_BYTES + 1 } });
        if (!file) return answer(reply, 400, { code: 'config.bad-file', message: 'No file' });
        bytes = await file.toBuffer();
      } else bytes = Buffer.from(JSON.stringify(req.body ?? {}));
      const r = await svc.import(tenantAuth(req), req.params.things_id, bytes);
      return answer(reply, r.status, r.body);
    });
  });
}
