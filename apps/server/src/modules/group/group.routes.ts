import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { CommandService } from '../command/command.service.ts';
import { projectNarrowing } from '../project/project.narrowing.ts';
import { inTenant } from '../things/things.access.ts';
import { groupRepository } from './group.repository.ts';
import { groupService } from './group.service.ts';

const R = Routes.groups;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['groups'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** Device groups (spec §7 /out-group-mgmt): groups, bind/unbind devices, group commands. */
export function groupRoutes(root: LoggerheadApp, ctx: AppContext, commands: CommandService) {
  const app = root as unknown as App;
  const groups = groupService(ctx.database.raw, groupRepository(ctx.database.raw), commands, projectNarrowing(ctx));
  route(app, R.list, withErrors, (req) => groups.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => groups.create(auth(req), req.body));
  route(app, R.get, withErrors, (req) => groups.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => groups.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, async (req) => {
    await groups.remove(auth(req), req.params.id);
    return { ok: true as const };
  });
  route(app, R.things, withErrors, (req) => groups.members(auth(req), req.params.id, req.query.current_page, req.query.page_size));
  route(app, R.bind, withErrors, (req) => groups.bind(auth(req), req.params.id, req.body.things_ids));
  route(app, R.unbind, withErrors, (req) => groups.unbind(auth(req), req.params.id, req.body.things_ids));
  route(app, R.command, withErrors, (req) => groups.command(auth(req), req.params.id, req.body));
  route(app, R.commands, withErrors, (req) => groups.commands(auth(req), req.params.id, req.query.current_page, req.query.page_size));
  route(app, R.commandOne, withErrors, (req) => groups.commandOne(auth(req), req.params.id, req.params.command_id));
}
