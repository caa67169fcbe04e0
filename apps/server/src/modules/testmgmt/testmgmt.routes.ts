import { ErrorResponseSchema, MAX_SCRIPT_CHARS, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { compareReports } from './report-compare.ts';
import { reportCsv, reportHtml } from './report-export.ts';
import type { RunsService } from './runs.service.ts';
import type { GroovyRuntime } from './runtime/groovy-runtime.ts';
import type { ScriptsService } from './scripts.service.ts';

const R = Routes.testmgmt;
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  503: ErrorResponseSchema,
};
const tags = ['test-mgmt'];
const o = { tags, errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** `attachment; filename=…` with a UTF-8 name and an ASCII fallback. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Test management: analysis scripts, routines, runs and reports (docs/test-management.md). */
export function testmgmtRoutes(app: LoggerheadApp, svc: { runtime: GroovyRuntime; scripts: ScriptsService; runs: RunsService }) {
  const { runtime, scripts, runs } = svc;
  route(app, R.runtime, { tags }, async () => runtime.status());

  route(app, R.scripts, o, (req) => scripts.list(auth(req), req.query));
  route(app, R.createScript, o, (req) => scripts.create(auth(req), req.body));
  route(app, R.validateScript, o, async (req) => {
    auth(req);
    return scripts.validate(req.body.content);
  });
  route(app, R.importScript, { ...o, errors: { ...errors, 413: ErrorResponseSchema } }, async (req) => {
    const a = auth(req);
    if (!req.isMultipart()) throw ApiError.of('test.bad-import');
    const file = await req.file({ limits: { fileSize: MAX_SCRIPT_CHARS * 4 + 4096 } });
    if (!file) throw ApiError.of('test.bad-import');
    const bytes = await file.toBuffer();
    if (file.file.truncated) throw new ApiError(413, 'http.413', 'The file is larger than a script may be');
    return scripts.importFile(a, file.filename ?? 'script.groovy', bytes);
  });
  route(app, R.script, o, (req) => scripts.get(auth(req), req.params.id));
  route(app, R.updateScript, o, (req) => scripts.update(auth(req), req.params.id, req.body));
  route(app, R.deleteScript, o, async (req) => {
    await scripts.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
  route(app, R.scriptVersions, o, (req) => scripts.versions(auth(req), req.params.id));
  route(app, R.scriptVersion, o, (req) => scripts.version(auth(req), req.params.id, req.params.version));
  route(app, R.exportScript, o, async (req, reply) => {
    const f = await scripts.exportFile(auth(req), req.params.id);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', attachment(`${f.name}.json`))
      .send(f.body);
  });

  route(app, R.routines, o, (req) => scripts.routines(auth(req), req.query));
  route(app, R.createRoutine, o, (req) => scripts.createRoutine(auth(req), req.body));
  route(app, R.routine, o, (req) => scripts.routine(auth(req), req.params.id));
  route(app, R.updateRoutine, o, (req) => scripts.updateRoutine(auth(req), req.params.id, req.body));
  route(app, R.deleteRoutine, o, async (req) => {
    await scripts.removeRoutine(auth(req), req.params.id);
    return { ok: true as const };
  });

  route(app, R.startRuns, o, (req) => runs.start(auth(req), req.body));
  route(app, R.runs, o, (req) => runs.list(auth(req), req.query));
  route(app, R.run, o, (req) => runs.get(auth(req), req.params.id));
  route(app, R.cancelRun, o, (req) => runs.cancel(auth(req), req.params.id));
  route(app, R.deleteRun, o, async (req) => {
    await runs.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
  route(app, R.report, o, (req) => runs.report(auth(req), req.params.id));
  route(app, R.compareReports, o, async (req) => {
    const a = auth(req);
    return compareReports(await runs.report(a, req.query.a), await runs.report(a, req.query.b));
  });
  route(app, R.exportReport, o, async (req, reply) => {
    const r = await runs.report(auth(req), req.params.id);
    const base = `${r.routine_name}-${r.things_name}-${new Date(r.created_at).toISOString().slice(0, 19).replace(/[:T]/g, '')}`;
    if (req.query.format === 'csv')
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(`${base}.csv`))
        .send(reportCsv(r));
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-disposition', attachment(`${base}.html`))
      .send(reportHtml(r));
  });
}
