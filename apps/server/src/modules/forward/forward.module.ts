import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import '../alert/alert.events.ts';
import { inTenant } from '../things/things.access.ts';
import { ForwardEngine, MAX_PENDING } from './forward.engine.ts';
import { forwardRepository } from './forward.repository.ts';
import { forwardService } from './forward.service.ts';

const R = Routes.forward;
const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['forward'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

const registry = new WeakMap<object, ForwardEngine>();
/** The app's forwarding engine (tests drain it). */
export function forwardOf(app: LoggerheadApp): ForwardEngine {
  const e = registry.get(app);
  if (!e) throw new Error('forward module not registered');
  return e;
}

/**
 * Things-forward rules (spec §7 /alert-mgmt): captured after ingest's commit from the decode stage's
 * events, alert events and device status changes, delivered from a durable outbox
 * (docs/decisions/0126-forwarding-delivery.md).
 */
export function forwardModule(root: LoggerheadApp, ctx: AppContext) {
  const app = root as unknown as App;
  const repo = forwardRepository(ctx.database.raw, ctx.secrets);
  const engine = new ForwardEngine({
    repo,
    egress: ctx.egress,
    log: root.log,
    owner: ctx.jobs.owner,
    counted: (tenantId, thingsId, n) => ctx.ingest.traffic.forwarded(tenantId, thingsId, n),
    pushTps: async (tenantId) => (await ctx.packages.load(tenantId)).push_tps ?? null,
  });
  registry.set(root, engine);
  const service = forwardService({
    repo,
    egress: ctx.egress,
    assertCanAdd: (a, resource, current) => ctx.quota.assertCanAdd(a, resource, current),
    changed: (tenantId, ruleId) => engine.invalidate(tenantId, ruleId),
    maxPending: MAX_PENDING,
  });

  const off = [
    ctx.events.on('signals.frames', (e) => engine.onFrames(e)),
    ctx.events.on('signals.decoded', (e) => engine.onSignals(e)),
    ctx.events.on('alert.event', (e) => engine.onAlert(e.tenantId, e.event)),
    ctx.ingest.devices.onStatus((d, online) => engine.onStatus(d.tenantId, d.thingsId, online)),
  ];

  route(app, R.list, withErrors, (req) => service.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => service.create(auth(req), req.body));
  route(app, R.testDestination, withErrors, (req) => service.test(auth(req), req.body));
  route(app, R.get, withErrors, (req) => service.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => service.update(auth(req), req.params.id, req.body));
  route(app, R.setStatus, withErrors, (req) => service.setStatus(auth(req), req.params.id, req.params.status));
  route(app, R.remove, withErrors, (req) => service.remove(auth(req), req.params.id));
  route(app, R.deadLetters, withErrors, (req) => service.deadLetters(auth(req), req.params.id, req.query));
  route(app, R.replayDeadLetters, withErrors, (req) => service.replay(auth(req), req.params.id, req.body.ids));
  route(app, R.discardDeadLetters, withErrors, (req) => service.discard(auth(req), req.params.id, req.body.ids));

  root.addHook('onReady', async () => {
    // Rules stored before credentials were sealed are sealed now, once (docs/decisions/0191-secrets-at-rest.md).
    const sealed = await repo.sealStored();
    if (sealed) root.log.info({ rules: sealed }, 'forward destinations: stored credentials sealed');
    engine.start();
  });
  root.addHook('preClose', async () => {
    for (const f of off) f();
    await engine.close().catch(() => {});
  });
}
