import { randomUUID } from 'node:crypto';
import { FINAL_TEST_RUN_STATES, MAX_RUN_DEVICES, type TestReport, type TestRun, type TestRunStart } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { groupRepository } from '../group/group.repository.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import { toReport, toRun } from './run-dto.ts';
import type { TestRunner } from './runner.ts';
import type { GroovyRuntime } from './runtime/groovy-runtime.ts';
import type { ScriptsService } from './scripts.service.ts';
import { type RunRow, testmgmtRepository } from './testmgmt.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs of routines on devices and their reports. */
export function runsService(deps: { raw: RawSql; runtime: GroovyRuntime; runner: TestRunner; scripts: ScriptsService; events: EventBus }) {
  const { raw, runtime, runner, scripts, events } = deps;
  const repo = testmgmtRepository(raw);
  const groups = groupRepository(raw);

  /** The devices a start names: its list, or the members of its group (of the tenant) the caller may read. */
  async function targets(auth: Auth, body: TestRunStart): Promise<string[]> {
    if (body.things_ids) return body.things_ids;
    const groupId = body.group_id as string;
    if (!(await groups.get(auth, groupId))) throw new ApiError(404, 'group.not-found');
    const { rows, total } = await groups.members(auth, groupId, restrictedUser(auth), 0, MAX_RUN_DEVICES);
    if (!total) throw badRequest('group.empty', 'The group has no devices you may use', 'group_id');
    if (total > MAX_RUN_DEVICES)
      throw badRequest('test.too-many-devices', `The group has ${total} devices; a test starts on at most ${MAX_RUN_DEVICES}`, 'group_id');
    return rows.map((m) => m.things_id);
  }

  /** A run of a device the caller may reach (`need`), or 404 (a sub-user cannot probe for others). */
  async function run(auth: Auth, id: string, need: 'read' | 'write'): Promise<RunRow> {
    const r = UUID.test(id) ? await repo.run(auth.tenantId, id) : null;
    if (!r) throw notFound('Test run not found');
    try {
      await requireDevice(raw, auth, r.things_id, need);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) throw notFound('Test run not found');
      throw e;
    }
    return r;
  }

  const emit = (r: RunRow) => events.emit('testmgmt.run', { tenantId: r.tenant_id, thingsId: r.things_id, run: toRun(r) });

  return {
    /**
     * Starts the routine on each device: a test needs write access to the device (it sends to it), a
     * dry run read access (it reads history). Each run is queued behind the device's running test.
     * A group start runs on each member the caller may read, as if they were listed.
     */
    async start(auth: Auth, body: TestRunStart): Promise<{ runs: TestRun[] }> {
      const routine = await scripts.routineRow(auth, body.routine_id);
      if (!runtime.available) throw ApiError.of(runtime.unavailableCode());
      const dry = body.dry_run ?? null;
      const thingsIds = await targets(auth, body);
      for (const id of thingsIds) await requireDevice(raw, auth, id, dry ? 'read' : 'write');
      const script = await repo.script(auth.tenantId, routine.script_id);
      if (!script) throw notFound('Analysis script not found');
      const batchId = randomUUID();
      const ids = await raw.transaction(async (tx) => {
        const r = testmgmtRepository(tx);
        const out: string[] = [];
        for (const thingsId of thingsIds)
          out.push(
            await r.insertRun(auth.tenantId, auth.userId, {
              batchId,
              routineId: routine.id,
              routineName: routine.name,
              thingsId,
              dryRun: dry !== null,
              steps: routine.steps,
              scriptId: script.id,
              scriptName: script.name,
              scriptVersion: script.version,
              scriptContent: script.content,
              params: { ...(routine.params ?? {}), ...(body.params ?? {}) },
              windows: dry ? [{ from: dry.begin_time, to: dry.end_time }] : [],
            }),
          );
        return out;
      });
      await runner.kick();
      const runs: TestRun[] = [];
      for (const id of ids) {
        const r = await repo.run(auth.tenantId, id);
        if (!r) continue;
        if (r.state === 'queued') emit(r);
        runs.push(toRun(r));
      }
      return { runs };
    },

    async list(
      auth: Auth,
      q: {
        current_page: number;
        page_size: number;
        routine_id?: string;
        things_id?: string;
        batch_id?: string;
        state?: string;
        verdict?: string;
        begin_time?: number;
        end_time?: number;
      },
    ) {
      const { rows, total } = await repo.runPage(
        auth.tenantId,
        restrictedUser(auth),
        {
          routineId: q.routine_id,
          thingsId: q.things_id,
          batchId: q.batch_id,
          state: q.state,
          verdict: q.verdict,
          from: q.begin_time,
          to: q.end_time,
        },
        (q.current_page - 1) * q.page_size,
        q.page_size,
      );
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toRun) };
    },

    async get(auth: Auth, id: string): Promise<TestRun> {
      return toRun(await run(auth, id, 'read'));
    },

    /** A queued run ends at once; a running one at its next step or second (its analysis worker is stopped). */
    async cancel(auth: Auth, id: string): Promise<TestRun> {
      const r = await run(auth, id, 'write');
      if (FINAL_TEST_RUN_STATES.includes(r.state)) throw ApiError.of('test.not-cancellable');
      if (r.state === 'queued' && (await repo.cancelQueued(auth.tenantId, id, 'Cancelled by the user', 'test.cancelled'))) {
        const done = await repo.run(auth.tenantId, id);
        if (done) {
          emit(done);
          return toRun(done);
        }
      }
      if (!runner.cancelLocal(id) && !(await repo.requestCancel(auth.tenantId, id))) {
        const now = await repo.run(auth.tenantId, id);
        if (now && FINAL_TEST_RUN_STATES.includes(now.state)) throw ApiError.of('test.not-cancellable');
      }
      // Give the runner a moment to end it, so the answer shows the end when it is quick.
      for (let i = 0; i < 30; i++) {
        const now = await repo.run(auth.tenantId, id);
        if (!now || FINAL_TEST_RUN_STATES.includes(now.state)) return toRun(now ?? r);
        await new Promise((res) => setTimeout(res, 100));
      }
      return toRun((await repo.run(auth.tenantId, id)) ?? r);
    },

    async remove(auth: Auth, id: string): Promise<void> {
      const r = await run(auth, id, 'write');
      if (!FINAL_TEST_RUN_STATES.includes(r.state)) throw ApiError.of('test.run-active');
      if (!(await repo.deleteRun(auth.tenantId, id))) throw ApiError.of('test.run-active');
    },

    async report(auth: Auth, id: string): Promise<TestReport> {
      const r = await run(auth, id, 'read');
      const rep = await repo.report(r.id);
      if (!rep) throw notFound('This run has no report (yet)');
      return toReport(r, rep);
    },
  };
}

export type RunsService = ReturnType<typeof runsService>;
