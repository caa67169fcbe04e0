import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { projectNarrowing } from './project.narrowing.ts';
import { projectRepository } from './project.repository.ts';
import { projectService } from './project.service.ts';

const R = Routes.projects;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['projects'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Projects (spec §1, §7): devices, groups, vehicles and sub-users of a project. */
export function projectRoutes(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  // Members whose devices changed sign in again, as after a change of their device grants.
  const { endSessionsOf } = projectNarrowing(ctx);
  const projects = projectService(projectRepository(ctx.database.raw), endSessionsOf);
  route(app, R.list, withErrors, (req) => projects.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => projects.create(auth(req), req.body));
  route(app, R.get, withErrors, (req) => projects.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => projects.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, async (req) => {
    await projects.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
  route(app, R.things, withErrors, (req) => projects.devices(auth(req), req.params.id, req.query.current_page, req.query.page_size));
  route(app, R.members, withErrors, (req) => projects.members(auth(req), req.params.id));
  route(app, R.bind, withErrors, (req) => projects.bind(auth(req), req.params.id, req.body));
  route(app, R.unbind, withErrors, (req) => projects.unbind(auth(req), req.params.id, req.body));
}
