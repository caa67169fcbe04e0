import { ErrorResponseSchema, Routes, WORK_ORDER_IMAGE_MAX_BYTES } from '@loggerhead/contract';
import type { FastifyReply } from 'fastify';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { WorkOrderService } from './workorder.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['workorder'];
const withErrors = { tags, errors };
const R = Routes.workorder;

function sendImage(reply: FastifyReply, img: { mime: string; name: string; bytes: Buffer }) {
  return reply
    .header('content-type', img.mime)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .header('cache-control', 'private, max-age=3600')
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(img.name)}`)
    .send(img.bytes);
}

/**
 * Tenant side: /v1/workorder/tenants/{tenant_id}/work-orders (create, list,
 * detail, the initiator's status changes) and images.
 * System side: /v1/workorder/work-orders (every tenant; the handler's status changes).
 * Transitions: docs/workorders.md.
 */
export function workOrderRoutes(app: App, svc: WorkOrderService) {
  route(app, R.uploadImage, withErrors, async (req, reply) => {
    let file: Awaited<ReturnType<typeof req.file>>;
    let bytes: Buffer;
    try {
      file = await req.file({ limits: { fileSize: WORK_ORDER_IMAGE_MAX_BYTES, files: 1 } });
      if (!file) throw badRequest('http.400', 'file: an image file is required', 'file');
      bytes = await file.toBuffer();
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new ApiError(413, 'workorder.image-too-large');
      }
      if ((e as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
        throw badRequest('http.400', 'file: send the image as multipart/form-data', 'file');
      }
      throw e;
    }
    return reply.code(201).send(await svc.uploadImage(requireAuth(req.auth), req.params.tenant_id, { name: file.filename, bytes }));
  });
  route(app, R.image, { tags }, async (req, reply) =>
    sendImage(reply, await svc.image(requireAuth(req.auth), req.params.tenant_id, req.params.id)),
  );

  route(app, R.create, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  route(app, R.list, withErrors, (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.query));
  route(app, R.get, withErrors, (req) => svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.id));
  route(app, R.move, withErrors, (req) =>
    svc.changeAsInitiator(requireAuth(req.auth), req.params.tenant_id, req.params.id, req.params.status, req.body),
  );
  route(app, R.reply, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.replyAsInitiator(requireAuth(req.auth), req.params.tenant_id, req.params.id, req.body)),
  );

  route(app, R.listAll, withErrors, (req) => svc.listAll(requireAuth(req.auth), req.query));
  route(app, R.getAny, withErrors, (req) => svc.getAny(requireAuth(req.auth), req.params.id));
  route(app, R.moveAny, withErrors, (req) => svc.changeAsHandler(requireAuth(req.auth), req.params.id, req.params.status, req.body));
  route(app, R.replyAny, withErrors, async (req, reply) =>
    reply.code(201).send(await svc.replyAsHandler(requireAuth(req.auth), req.params.id, req.body)),
  );
  route(app, R.imageAny, { tags }, async (req, reply) => sendImage(reply, await svc.imageAny(requireAuth(req.auth), req.params.id)));
}
