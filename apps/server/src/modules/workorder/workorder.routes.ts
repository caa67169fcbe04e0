import {
  ErrorResponseSchema,
  WORK_ORDER_IMAGE_MAX_BYTES,
  WORK_ORDER_STATUSES,
  WorkOrderCreateSchema,
  WorkOrderDetailSchema,
  WorkOrderImageSchema,
  WorkOrderListQuerySchema,
  WorkOrderPageSchema,
  WorkOrderStatusBodySchema,
} from '@loggerhead/contract';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import type { WorkOrderService } from './workorder.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['workorder'];
const TenantParams = z.object({ tenant_id: z.uuid() });
const TenantIdParams = TenantParams.extend({ id: z.uuid() });
const StatusBody = WorkOrderStatusBodySchema.prefault({});
const Status = z.enum(WORK_ORDER_STATUSES);

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
  const t = '/v1/workorder/tenants/:tenant_id';

  app.post(
    `${t}/images`,
    {
      config: { permission: 'workorder:workorder:create' },
      schema: { tags, params: TenantParams, response: { 201: WorkOrderImageSchema, ...errors } },
    },
    async (req, reply) => {
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
    },
  );
  app.get(
    `${t}/images/:id`,
    { config: { permission: 'workorder:workorder:query' }, schema: { tags, params: TenantIdParams } },
    async (req, reply) => sendImage(reply, await svc.image(requireAuth(req.auth), req.params.tenant_id, req.params.id)),
  );

  app.post(
    `${t}/work-orders`,
    {
      config: { permission: 'workorder:workorder:create' },
      schema: { tags, params: TenantParams, body: WorkOrderCreateSchema, response: { 201: WorkOrderDetailSchema, ...errors } },
    },
    async (req, reply) => reply.code(201).send(await svc.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  app.get(
    `${t}/work-orders`,
    {
      config: { permission: 'workorder:workorder:query' },
      schema: {
        tags,
        params: TenantParams,
        querystring: WorkOrderListQuerySchema.omit({ tenant_id: true }),
        response: { 200: WorkOrderPageSchema, ...errors },
      },
    },
    (req) => svc.list(requireAuth(req.auth), req.params.tenant_id, req.query),
  );
  app.get(
    `${t}/work-orders/:id`,
    {
      config: { permission: 'workorder:workorder:query' },
      schema: { tags, params: TenantIdParams, response: { 200: WorkOrderDetailSchema, ...errors } },
    },
    (req) => svc.get(requireAuth(req.auth), req.params.tenant_id, req.params.id),
  );
  app.put(
    `${t}/work-orders/:id/status/:status`,
    {
      config: { permission: 'workorder:workorder:create' },
      schema: {
        tags,
        params: TenantIdParams.extend({ status: Status }),
        body: StatusBody,
        response: { 200: WorkOrderDetailSchema, ...errors },
      },
    },
    (req) => svc.changeAsInitiator(requireAuth(req.auth), req.params.tenant_id, req.params.id, req.params.status, req.body),
  );

  const s = '/v1/workorder/work-orders';
  app.get(
    s,
    {
      config: { permission: 'workorder:workorder:handle' },
      schema: { tags, querystring: WorkOrderListQuerySchema, response: { 200: WorkOrderPageSchema, ...errors } },
    },
    (req) => svc.listAll(requireAuth(req.auth), req.query),
  );
  app.get(
    `${s}/:id`,
    {
      config: { permission: 'workorder:workorder:handle' },
      schema: { tags, params: z.object({ id: z.uuid() }), response: { 200: WorkOrderDetailSchema, ...errors } },
    },
    (req) => svc.getAny(requireAuth(req.auth), req.params.id),
  );
  app.put(
    `${s}/:id/status/:status`,
    {
      config: { permission: 'workorder:workorder:handle' },
      schema: {
        tags,
        params: z.object({ id: z.uuid(), status: Status }),
        body: StatusBody,
        response: { 200: WorkOrderDetailSchema, ...errors },
      },
    },
    (req) => svc.changeAsHandler(requireAuth(req.auth), req.params.id, req.params.status, req.body),
  );
  app.get(
    '/v1/workorder/images/:id',
    { config: { permission: 'workorder:workorder:handle' }, schema: { tags, params: z.object({ id: z.uuid() }) } },
    async (req, reply) => sendImage(reply, await svc.imageAny(requireAuth(req.auth), req.params.id)),
  );
}
