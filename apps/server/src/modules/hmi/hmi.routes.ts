import { ErrorResponseSchema, HmiStatus, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import type { CommandService } from '../command/command.service.ts';
import { inTenant } from '../things/things.access.ts';
import { twinRepository } from '../twin/twin.repository.ts';
import { twinService } from '../twin/twin.service.ts';
import { hmiService } from './hmi.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['hmi'], errors };
const R = Routes.hmi;

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/** HMI screens (spec /out-hmi): screens, their HMI users, and the screens a user opens and presses. */
export function hmiModule(app: LoggerheadApp, ctx: AppContext, commands: CommandService) {
  const raw = ctx.database.raw;
  // The twin module's service, for a button that sets desired properties (no hooks of its own).
  const twins = twinService({
    raw,
    repo: twinRepository(raw),
    publish: (topic, payload) => ctx.broker.publish(topic, payload),
    malformed: (d, topic, reason) => ctx.ingest.devices.malformedUplink(d, topic, reason),
    log: app.log,
  });
  const hmi = hmiService({ raw, commands, twins, assertCanAdd: (a, r, n) => ctx.quota.assertCanAdd(a, r, n) });

  route(app, R.list, withErrors, (req) => hmi.list(auth(req), req.query));
  route(app, R.create, withErrors, async (req, reply) => reply.code(201).send(await hmi.create(auth(req), req.body)));
  route(app, R.get, withErrors, (req) => hmi.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => hmi.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, async (req, reply) => {
    await hmi.remove(auth(req), req.params.id);
    return reply.code(204).send();
  });
  route(app, R.publish, withErrors, (req) => hmi.setStatus(auth(req), req.params.id, HmiStatus.published));
  route(app, R.unpublish, withErrors, (req) => hmi.setStatus(auth(req), req.params.id, HmiStatus.draft));
  route(app, R.users, withErrors, async (req) => ({ list: await hmi.users(auth(req)) }));
  route(app, R.setUserScreens, withErrors, (req) => hmi.setUserScreens(auth(req), req.params.user_id, req.body.screen_ids));
  route(app, R.mine, withErrors, async (req) => ({ list: await hmi.mine(auth(req)) }));
  route(app, R.open, withErrors, (req) => hmi.open(auth(req), req.params.id));
  route(app, R.press, withErrors, (req) => hmi.press(auth(req), req.params.id, req.body.widget_id));
}
