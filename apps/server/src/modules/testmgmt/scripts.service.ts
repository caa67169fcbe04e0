import {
  type RoutineStep,
  type ScriptValidation,
  TEST_SCRIPT_FILE_FORMAT,
  type TestRoutine,
  type TestRoutineInputSchema,
  type TestScript,
  TestScriptFileSchema,
  TestScriptInputSchema,
  type TestScriptSummary,
  type TestScriptVersion,
} from '@loggerhead/contract';
import type { z } from 'zod';
import type { RawSql } from '../../db/client.ts';
import { epochMs } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import type { QuotaService } from '../billing/quota.service.ts';
import type { GroovyRuntime } from './runtime/groovy-runtime.ts';
import { type RoutineRow, type ScriptRow, testmgmtRepository } from './testmgmt.repository.ts';

type ScriptValues = z.output<typeof TestScriptInputSchema>;
type RoutineValues = z.output<typeof TestRoutineInputSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function toSummary(r: ScriptRow): TestScriptSummary {
  return {
    id: r.id,
    name: r.name,
    notes: r.notes,
    version: r.version,
    routines: r.routines,
    created_at: epochMs(r.created_at) ?? 0,
    updated_at: epochMs(r.updated_at) ?? 0,
  };
}

const toScript = (r: ScriptRow): TestScript => ({ ...toSummary(r), content: r.content });

/** Seconds a routine's steps take at least. */
export function stepSeconds(steps: RoutineStep[]): number {
  return steps.reduce((n, s) => n + (s.type === 'wait' || s.type === 'collect' ? s.seconds : 0), 0);
}

const toRoutine = (r: RoutineRow): TestRoutine => ({
  id: r.id,
  name: r.name,
  description: r.description,
  steps: r.steps,
  script_id: r.script_id,
  script_name: r.script_name,
  params: r.params ?? {},
  duration_seconds: stepSeconds(r.steps),
  created_at: epochMs(r.created_at) ?? 0,
  updated_at: epochMs(r.updated_at) ?? 0,
});

/** A unique-key refusal of the database (two saves of one name racing). */
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

/** The runtime refused (no Java or Groovy, or no containment): 503 with the code the console explains. */
export function runtimeError(e: unknown): never {
  const u = e as { unavailable?: boolean; code?: 'test.runtime-unavailable' | 'test.isolation-unavailable' };
  if (u?.unavailable) throw ApiError.of(u.code ?? 'test.runtime-unavailable');
  throw e;
}

/** Analysis scripts (name, Groovy content, notes; versions on save) and test routines. */
export function scriptsService(deps: { raw: RawSql; runtime: GroovyRuntime; quota: QuotaService }) {
  const { raw, runtime, quota } = deps;
  const repo = testmgmtRepository(raw);

  async function script(auth: Auth, id: string): Promise<ScriptRow> {
    const r = UUID.test(id) ? await repo.script(auth.tenantId, id) : null;
    if (!r) throw notFound('Analysis script not found');
    return r;
  }

  async function routine(auth: Auth, id: string): Promise<RoutineRow> {
    const r = UUID.test(id) ? await repo.routine(auth.tenantId, id) : null;
    if (!r) throw notFound('Test routine not found');
    return r;
  }

  async function create(auth: Auth, body: ScriptValues): Promise<TestScript> {
    // The package's data_analysis bounds the tenant's analysis scripts (docs/decisions/0114).
    await quota.assertCanAdd(auth, 'data_analysis', await repo.scriptCount(auth.tenantId));
    if (await repo.scriptNameTaken(auth.tenantId, body.name)) throw ApiError.of('test.script-name-used', undefined, { field: 'name' });
    try {
      const id = await raw.transaction((tx) => testmgmtRepository(tx).insertScript(auth.tenantId, auth.userId, body));
      return toScript(await script(auth, id));
    } catch (e) {
      if (isUniqueViolation(e)) throw ApiError.of('test.script-name-used', undefined, { field: 'name' });
      throw e;
    }
  }

  async function checkRoutine(auth: Auth, body: RoutineValues, exceptId: string | null) {
    if (await repo.routineNameTaken(auth.tenantId, body.name, exceptId))
      throw ApiError.of('test.routine-name-used', undefined, { field: 'name' });
    if (!(await repo.script(auth.tenantId, body.script_id)))
      throw new ApiError(400, 'http.400', 'script_id: no such analysis script', { field: 'script_id' });
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; name?: string }) {
      const { rows, total } = await repo.scriptPage(auth.tenantId, q.name, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toSummary) };
    },

    async get(auth: Auth, id: string): Promise<TestScript> {
      return toScript(await script(auth, id));
    },

    create,

    async update(auth: Auth, id: string, body: ScriptValues): Promise<TestScript> {
      await script(auth, id);
      if (await repo.scriptNameTaken(auth.tenantId, body.name, id))
        throw ApiError.of('test.script-name-used', undefined, { field: 'name' });
      try {
        const ok = await raw.transaction((tx) => testmgmtRepository(tx).updateScript(auth.tenantId, id, auth.userId, body));
        if (!ok) throw notFound('Analysis script not found');
      } catch (e) {
        if (isUniqueViolation(e)) throw ApiError.of('test.script-name-used', undefined, { field: 'name' });
        throw e;
      }
      return toScript(await script(auth, id));
    },

    /** Refused while a routine uses the script. */
    async remove(auth: Auth, id: string): Promise<void> {
      const s = await script(auth, id);
      if (s.routines > 0) throw ApiError.of('test.script-in-use', undefined, { details: { routines: s.routines } });
      try {
        if (!(await repo.deleteScript(auth.tenantId, id))) throw notFound('Analysis script not found');
      } catch (e) {
        // A routine took it up meanwhile (the foreign key refuses).
        if ((e as { code?: string })?.code === '23503') throw ApiError.of('test.script-in-use');
        throw e;
      }
    },

    async versions(auth: Auth, id: string): Promise<Omit<TestScriptVersion, 'content'>[]> {
      await script(auth, id);
      return (await repo.scriptVersions(auth.tenantId, id)).map((v) => ({
        script_id: v.script_id,
        version: v.version,
        notes: v.notes,
        created_at: epochMs(v.created_at) ?? 0,
        created_by: v.created_by,
      }));
    },

    async version(auth: Auth, id: string, version: number): Promise<TestScriptVersion> {
      await script(auth, id);
      const v = await repo.scriptVersion(auth.tenantId, id, version);
      if (!v) throw notFound('No such version of the script');
      return {
        script_id: v.script_id,
        version: v.version,
        content: v.content,
        notes: v.notes,
        created_at: epochMs(v.created_at) ?? 0,
        created_by: v.created_by,
      };
    },

    /** Compiles the script in a worker: problems with line and column, sandbox refusals included. */
    async validate(content: string): Promise<ScriptValidation> {
      const errors = await runtime.validate(content).catch(runtimeError);
      return { valid: errors.length === 0, errors };
    },

    /** The export file: JSON with the format tag, name, notes, content and version. */
    async exportFile(auth: Auth, id: string): Promise<{ name: string; body: string }> {
      const s = await script(auth, id);
      const body = JSON.stringify(
        { format: TEST_SCRIPT_FILE_FORMAT, name: s.name, notes: s.notes, content: s.content, version: s.version },
        null,
        2,
      );
      return { name: s.name, body };
    },

    /**
     * Import: an export file (JSON, format `loggerhead-test-script/1`) or a plain Groovy file named
     * after the file. A taken name gets " (2)", " (3)"… so an import never overwrites a script.
     */
    async importFile(auth: Auth, fileName: string, bytes: Uint8Array): Promise<TestScript> {
      const text = Buffer.from(bytes).toString('utf8');
      let values: ScriptValues;
      if (/\.json$/i.test(fileName) || text.trimStart().startsWith('{')) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw ApiError.of('test.bad-import');
        }
        const f = TestScriptFileSchema.safeParse(json);
        if (!f.success) throw ApiError.of('test.bad-import');
        values = { name: f.data.name, notes: f.data.notes, content: f.data.content };
      } else {
        if (text.includes('\u0000')) throw ApiError.of('test.bad-import');
        const r = TestScriptInputSchema.safeParse({
          name: fileName.replace(/\.(groovy|gvy|txt)$/i, '').slice(0, 64) || 'script',
          content: text,
        });
        if (!r.success) throw ApiError.of('test.bad-import');
        values = r.data;
      }
      const base = values.name.slice(0, 58);
      let name = values.name;
      for (let n = 2; (await repo.scriptNameTaken(auth.tenantId, name)) && n < 1000; n++) name = `${base} (${n})`;
      return create(auth, { ...values, name });
    },

    // ── routines ──────────────────────────────────────────────────────────
    async routines(auth: Auth, q: { current_page: number; page_size: number; name?: string; script_id?: string }) {
      const { rows, total } = await repo.routinePage(
        auth.tenantId,
        { name: q.name, scriptId: q.script_id },
        (q.current_page - 1) * q.page_size,
        q.page_size,
      );
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toRoutine) };
    },

    async routine(auth: Auth, id: string): Promise<TestRoutine> {
      return toRoutine(await routine(auth, id));
    },

    /** The row itself (runs start from it). */
    routineRow: routine,

    async createRoutine(auth: Auth, body: RoutineValues): Promise<TestRoutine> {
      await checkRoutine(auth, body, null);
      try {
        const id = await repo.insertRoutine(auth.tenantId, auth.userId, body);
        return toRoutine(await routine(auth, id));
      } catch (e) {
        if (isUniqueViolation(e)) throw ApiError.of('test.routine-name-used', undefined, { field: 'name' });
        throw e;
      }
    },

    async updateRoutine(auth: Auth, id: string, body: RoutineValues): Promise<TestRoutine> {
      await routine(auth, id);
      await checkRoutine(auth, body, id);
      try {
        if (!(await repo.updateRoutine(auth.tenantId, id, body))) throw notFound('Test routine not found');
      } catch (e) {
        if (isUniqueViolation(e)) throw ApiError.of('test.routine-name-used', undefined, { field: 'name' });
        throw e;
      }
      return toRoutine(await routine(auth, id));
    },

    async removeRoutine(auth: Auth, id: string): Promise<void> {
      await routine(auth, id);
      if (!(await repo.deleteRoutine(auth.tenantId, id))) throw notFound('Test routine not found');
    },
  };
}

export type ScriptsService = ReturnType<typeof scriptsService>;
