import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { mappingRuleRepository } from '../models/mapping-rules.repository.ts';
import { mappingRuleService } from '../models/mapping-rules.service.ts';
import { inTenant } from '../things/things.access.ts';
import { twinRepository } from './twin.repository.ts';
import { twinRuleService, twinService } from './twin.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['twin'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);

/**
 * Digital twins (telemetry and acknowledgements from the ingest pipeline, decoded signals through the
 * mapping rules), twin rules, and the mapping rules themselves (mapping-rule-infos).
 */
export function twinModule(app: LoggerheadApp, ctx: AppContext) {
  const repo = twinRepository(ctx.database.raw);
  const mappings = mappingRuleService(mappingRuleRepository(ctx.database.raw));
  const twins = twinService({
    mappings,
    raw: ctx.database.raw,
    repo,
    publish: (topic, payload) => ctx.broker.publish(topic, payload),
    malformed: (d, topic, reason) => ctx.ingest.devices.malformedUplink(d, topic, reason),
    log: app.log,
  });
  ctx.ingest.pipeline.onTelemetry((d, values, topic) => twins.onTelemetry(d, values, topic));
  ctx.ingest.pipeline.onTwinAck((d, ack, topic) => twins.onTwinAck(d, ack, topic));
  ctx.events.on('signals.decoded', (e) => {
    void twins.onSignals(e).catch((err) => app.log.warn({ err, thingsId: e.thingsId }, 'mapped signals not reported'));
  });

  const T = Routes.twin;
  route(app, T.get, withErrors, (req) => twins.get(auth(req), req.params.things_id));
  route(app, T.setDesired, withErrors, (req) => twins.setDesired(auth(req), req.params.things_id, req.body.desired));
  route(app, T.history, withErrors, (req) => twins.history(auth(req), req.params.things_id, req.query));
  route(app, T.events, withErrors, (req) => twins.events(auth(req), req.params.things_id, req.query));

  const rules = twinRuleService(ctx.database.raw, repo);
  const R = Routes.twinRules;
  route(app, R.list, withErrors, (req) => rules.list(auth(req), req.query));
  route(app, R.create, withErrors, (req) => rules.create(auth(req), req.body));
  route(app, R.treeSave, withErrors, (req) => rules.treeSave(auth(req), req.body));
  route(app, R.fires, withErrors, (req) => rules.fires(auth(req), req.query));
  route(app, R.get, withErrors, (req) => rules.get(auth(req), req.params.id));
  route(app, R.update, withErrors, (req) => rules.update(auth(req), req.params.id, req.body));
  route(app, R.remove, withErrors, (req) => rules.remove(auth(req), req.params.id));
  route(app, R.setStatus, withErrors, (req) => rules.setStatus(auth(req), req.params.id, req.body.status));
  mappingRuleRoutes(app, mappings);
}

/** Mapping rules and entities, registered with the twin module, whose ingest shares the rules' cache. */
function mappingRuleRoutes(app: LoggerheadApp, mappings: ReturnType<typeof mappingRuleService>) {
  const M = Routes.mappingRules;
  const w = { tags: ['mapping-rules'], errors };
  route(app, M.list, w, (req) => mappings.list(auth(req), req.query));
  route(app, M.create, w, (req) => mappings.create(auth(req), req.body));
  route(app, M.get, w, (req) => mappings.get(auth(req), req.params.id));
  route(app, M.update, w, (req) => mappings.update(auth(req), req.params.id, req.body));
  route(app, M.remove, w, (req) => mappings.remove(auth(req), req.params.id));
  const E = Routes.mappingEntities;
  route(app, E.list, w, (req) => mappings.entities.list(auth(req), req.query));
  route(app, E.create, w, (req) => mappings.entities.create(auth(req), req.body));
  route(app, E.get, w, (req) => mappings.entities.get(auth(req), req.params.id));
  route(app, E.update, w, (req) => mappings.entities.update(auth(req), req.params.id, req.body));
  route(app, E.remove, w, (req) => mappings.entities.remove(auth(req), req.params.id));
}
