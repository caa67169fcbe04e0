import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import type { CommandService } from '../command/command.service.ts';
import { groupRepository } from '../group/group.repository.ts';
import { groupService } from '../group/group.service.ts';
import { projectNarrowing } from '../project/project.narrowing.ts';
import { inTenant } from '../things/things.access.ts';
import { jobsService, RUN_QUEUE, SWEEP } from './jobs.service.ts';

const R = Routes.jobs;
const tags = ['jobs'];
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags, errors };

/** Scheduled jobs (`/job-mgmt`): the routes, the minute's sweep and the queue of runs on the scheduler. */
export function jobsModule(app: LoggerheadApp, ctx: AppContext, commands: CommandService) {
  const groups = groupService(ctx.database.raw, groupRepository(ctx.database.raw), commands, projectNarrowing(ctx));
  const svc = jobsService({ raw: ctx.database.raw, commands, groups, scheduler: ctx.scheduler });
  ctx.scheduler?.every(SWEEP, '* * * * *', async () => {
    await svc.sweep();
  });
  ctx.scheduler?.queue<{ job_id: string; slot: number }>(RUN_QUEUE, (job) => svc.run(job), { pollSeconds: 5 });
  const auth = (req: { auth: Parameters<typeof requireAuth>[0]; params: { tenant_id: string } }) =>
    inTenant(requireAuth(req.auth), req.params.tenant_id);

  route(app, R.actions, { tags }, () => svc.actions());
  route(app, R.list, withErrors, (req) => svc.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => svc.create(auth(req), req.body));
  route(app, R.get, withErrors, (req) => svc.get(auth(req), req.params.job_id));
  route(app, R.update, withErrors, (req) => svc.update(auth(req), req.params.job_id, req.body));
  route(app, R.remove, withErrors, async (req, reply) => {
    await svc.remove(auth(req), req.params.job_id);
    return reply.code(204).send();
  });
  route(app, R.setStatus, withErrors, (req) => svc.setStatus(auth(req), req.params.job_id, req.params.status));
  route(app, R.logs, withErrors, (req) => svc.logs(auth(req), req.query));
  route(app, R.deleteLogs, withErrors, (req) => svc.deleteLogs(auth(req), req.body.ids));
  route(app, R.cleanupLogs, withErrors, (req) => svc.cleanupLogs(auth(req), req.body));
  return svc;
}
