import {
  ConfigResultSchema,
  DeviceConfigSchema,
  DeviceConfigStateSchema,
  MAX_CONFIG_FILE_BYTES,
  TenantThingParamsSchema,
} from '@loggerhead/contract';
import type { LoggerheadApp } from '../../app.ts';
import type { App } from '../../lib/fastify.ts';
import { errors, tenantAuth } from './command.routes.ts';
import type { ConfigService } from './config.service.ts';

const TenantThing = TenantThingParamsSchema;
const tags = ['config'];
const base = '/v1/things/tenants/:tenant_id/things/:things_id/config';
const result = { 200: ConfigResultSchema, 202: ConfigResultSchema, ...errors, 413: errors[400], 504: errors[400] };

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
    app.get(
      `${base}/device`,
      { config: { permission: 'things:things:command' }, schema: { tags, params: TenantThing, response: result } },
      async (req, reply) => {
        const r = await svc.read(tenantAuth(req), req.params.things_id);
        return reply.code(r.status).send(r.body);
      },
    );
    app.put(
      base,
      {
        config: { permission: 'things:things:command' },
        schema: { tags, params: TenantThing, body: DeviceConfigSchema, response: result },
      },
      async (req, reply) => {
        const r = await svc.write(tenantAuth(req), req.params.things_id, req.body);
        return reply.code(r.status).send(r.body);
      },
    );
    app.get(
      base,
      {
        config: { permission: 'things:things:queryone' },
        schema: { tags, params: TenantThing, response: { 200: DeviceConfigStateSchema, ...errors } },
      },
      (req) => svc.last(tenantAuth(req), req.params.things_id),
    );
    app.get(
      `${base}/export`,
      { config: { permission: 'things:things:export' }, schema: { tags, params: TenantThing } },
      async (req, reply) => {
        const last = await svc.last(tenantAuth(req), req.params.things_id);
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('content-disposition', 'attachment; filename="config.json"')
          .send(JSON.stringify({ config: last.config }, null, 2));
      },
    );
    app.post(
      `${base}/import`,
      { config: { permission: 'things:things:command' }, schema: { tags, params: TenantThing, response: result } },
      async (req, reply) => {
        let bytes: Uint8Array;
        if (req.isMultipart()) {
          const file = await req.file({ limits: { fileSize: MAX_CONFIG_FILE_BYTES + 1 } });
          if (!file) return reply.code(400).send({ code: 'config.bad-file', message: 'No file' });
          bytes = await file.toBuffer();
        } else bytes = Buffer.from(JSON.stringify(req.body ?? {}));
        const r = await svc.import(tenantAuth(req), req.params.things_id, bytes);
        return reply.code(r.status).send(r.body);
      },
    );
  });
}
