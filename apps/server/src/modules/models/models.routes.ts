import { ErrorResponseSchema, Routes } from '@loggerhead/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext, LoggerheadApp } from '../../app.ts';
import { requireAuth } from '../../lib/auth.ts';
import { route } from '../../lib/route.ts';
import { inTenant } from '../things/things.access.ts';
import { modelsRepository } from './models.repository.ts';
import { modelsService } from './models.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const withErrors = { tags: ['models'], errors };

const auth = (req: { auth: FastifyRequest['auth']; params: { tenant_id: string } }) =>
  inTenant(requireAuth(req.auth), req.params.tenant_id);
const signedIn = (req: { auth: FastifyRequest['auth'] }) => requireAuth(req.auth);

/** Function blocks, categories and info models (spec §7 /mapping-mgmt; decision 0123). */
export function modelsRoutes(app: LoggerheadApp, ctx: AppContext) {
  const svc = modelsService({
    repo: modelsRepository(ctx.database.raw),
    assertCanAdd: (a, resource, current) => ctx.quota.assertCanAdd(a, resource, current),
  });
  const B = Routes.functionBlocks;
  route(app, B.jsonSchemaInit, withErrors, () => svc.jsonSchemaInit());
  route(app, B.listPublic, withErrors, (req) => svc.listPublicBlocks(signedIn(req), req.query));
  route(app, B.createPublic, withErrors, (req) => svc.createPublicBlock(signedIn(req), req.body));
  route(app, B.updatePublic, withErrors, (req) => svc.updatePublicBlock(signedIn(req), req.params.id, req.body));
  route(app, B.removePublic, withErrors, (req) => svc.removePublicBlock(signedIn(req), req.params.id));
  route(app, B.list, withErrors, (req) => svc.listBlocks(auth(req), req.query));
  route(app, B.create, withErrors, (req) => svc.createBlock(auth(req), req.body));
  route(app, B.get, withErrors, (req) => svc.getBlock(auth(req), req.params.id));
  route(app, B.update, withErrors, (req) => svc.updateBlock(auth(req), req.params.id, req.body));
  route(app, B.remove, withErrors, (req) => svc.removeBlock(auth(req), req.params.id));

  const C = Routes.modelCategories;
  route(app, C.list, withErrors, (req) => svc.categories(auth(req)));
  route(app, C.create, withErrors, (req) => svc.saveCategory(auth(req), null, req.body));
  route(app, C.update, withErrors, (req) => svc.saveCategory(auth(req), req.params.id, req.body));
  route(app, C.remove, withErrors, (req) => svc.removeCategory(auth(req), req.params.id));

  const M = Routes.infoModels;
  route(app, M.listPublic, withErrors, (req) => svc.listModels(signedIn(req), null, req.query));
  route(app, M.createPublic, withErrors, (req) => svc.createModel(signedIn(req), null, req.body));
  route(app, M.updatePublic, withErrors, (req) => svc.updateModel(signedIn(req), null, req.params.info_model_id, req.body));
  route(app, M.list, withErrors, (req) => svc.listModels(auth(req), auth(req).tenantId, req.query));
  route(app, M.batch, withErrors, (req) => svc.batchModels(auth(req), req.query));
  route(app, M.create, withErrors, (req) => svc.createModel(auth(req), auth(req).tenantId, req.body));
  route(app, M.publicToTenant, withErrors, (req) => svc.publicToTenant(auth(req), req.body));
  route(app, M.get, withErrors, (req) => svc.getModel(auth(req), req.params.info_model_id));
  route(app, M.blocks, withErrors, (req) => svc.modelBlocks(auth(req), req.params.info_model_id));
  route(app, M.update, withErrors, (req) => svc.updateModel(auth(req), auth(req).tenantId, req.params.info_model_id, req.body));
  route(app, M.remove, withErrors, (req) => svc.removeModel(auth(req), auth(req).tenantId, req.params.info_model_id, req.query.force));
}
