import { ErrorResponseSchema, ORDER_RECEIPT_MAX_BYTES, Routes } from '@loggerhead/contract';
import type { FastifyReply } from 'fastify';
import { requireAuth } from '../../lib/auth.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import type { App } from '../../lib/fastify.ts';
import { route } from '../../lib/route.ts';
import type { CatalogueService } from './catalogue.service.ts';
import type { OrdersService } from './orders.service.ts';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema, 409: ErrorResponseSchema };
const tags = ['billing'];
const withErrors = { tags, errors };

function sendReceipt(reply: FastifyReply, r: { mime: string; name: string; bytes: Buffer }) {
  return reply
    .header('content-type', r.mime)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(r.name)}`)
    .send(r.bytes);
}

/** The billing catalogue and orders (docs/billing.md). */
export function ordersRoutes(app: App, svc: { catalogue: CatalogueService; orders: OrdersService }) {
  const C = Routes.catalogue;
  const c = svc.catalogue;
  route(app, C.packages, withErrors, (req) => c.packages(requireAuth(req.auth), req.query.all === 1));
  route(app, C.createPackage, withErrors, async (req, reply) =>
    reply.code(201).send(await c.createPackage(requireAuth(req.auth), req.body)),
  );
  route(app, C.updatePackage, withErrors, (req) => c.updatePackage(requireAuth(req.auth), req.params.id, req.body));
  route(app, C.removePackage, withErrors, async (req, reply) => {
    await c.removePackage(requireAuth(req.auth), req.params.id);
    return reply.code(204).send();
  });
  route(app, C.items, withErrors, () => c.items());
  route(app, C.saveItem, withErrors, (req) => c.saveItem(requireAuth(req.auth), req.body));
  route(app, C.removeItem, withErrors, async (req, reply) => {
    await c.removeItem(requireAuth(req.auth), req.params.id);
    return reply.code(204).send();
  });
  route(app, C.discounts, withErrors, () => c.discounts());
  route(app, C.createDiscount, withErrors, async (req, reply) =>
    reply.code(201).send(await c.createDiscount(requireAuth(req.auth), req.body)),
  );
  route(app, C.removeDiscount, withErrors, async (req, reply) => {
    await c.removeDiscount(requireAuth(req.auth), req.params.id);
    return reply.code(204).send();
  });
  route(app, C.coupons, withErrors, () => c.coupons());
  route(app, C.createCoupon, withErrors, async (req, reply) => reply.code(201).send(await c.createCoupon(requireAuth(req.auth), req.body)));
  route(app, C.removeCoupon, withErrors, async (req, reply) => {
    await c.removeCoupon(requireAuth(req.auth), req.params.id);
    return reply.code(204).send();
  });

  const O = Routes.orders;
  const o = svc.orders;
  route(app, O.quote, { ...withErrors, config: { noOpLog: true } }, (req) =>
    o.quote(requireAuth(req.auth), req.params.tenant_id, req.body),
  );
  route(app, O.create, withErrors, async (req, reply) =>
    reply.code(201).send(await o.create(requireAuth(req.auth), req.params.tenant_id, req.body)),
  );
  route(app, O.list, withErrors, (req) => o.list(requireAuth(req.auth), req.params.tenant_id, req.query));
  route(app, O.get, withErrors, (req) => o.get(requireAuth(req.auth), req.params.tenant_id, req.params.id));
  route(app, O.pay, withErrors, (req) => o.pay(requireAuth(req.auth), req.params.tenant_id, req.params.id));
  route(app, O.uploadReceipt, withErrors, async (req) => {
    let file: Awaited<ReturnType<typeof req.file>>;
    let bytes: Buffer;
    try {
      file = await req.file({ limits: { fileSize: ORDER_RECEIPT_MAX_BYTES, files: 1 } });
      if (!file) throw badRequest('http.400', 'file: a receipt file is required', 'file');
      bytes = await file.toBuffer();
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw ApiError.of('order.receipt-too-large');
      if ((e as { code?: string }).code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
        throw badRequest('http.400', 'file: send the receipt as multipart/form-data', 'file');
      }
      throw e;
    }
    return o.uploadReceipt(requireAuth(req.auth), req.params.tenant_id, req.params.id, { name: file.filename, bytes });
  });
  route(app, O.receipt, { tags }, async (req, reply) =>
    sendReceipt(reply, await o.receipt(requireAuth(req.auth), req.params.tenant_id, req.params.id)),
  );
  route(app, O.cancel, withErrors, (req) => o.cancel(requireAuth(req.auth), req.params.tenant_id, req.params.id));

  route(app, O.listAll, withErrors, (req) => o.list(requireAuth(req.auth), null, req.query));
  route(app, O.receiptAny, { tags }, async (req, reply) => sendReceipt(reply, await o.receipt(requireAuth(req.auth), null, req.params.id)));
  route(app, O.confirm, withErrors, (req) => o.confirm(requireAuth(req.auth), req.params.id, req.body));
  route(app, O.reject, withErrors, (req) => o.reject(requireAuth(req.auth), req.params.id, req.body.remark));
  route(app, O.refund, withErrors, (req) => o.refund(requireAuth(req.auth), req.params.id, req.body.remark));
}
