import {
  type CodesOf,
  findTransition,
  parseTimeInput,
  serverText,
  type TextLang,
  type TextParams,
  WORK_ORDER_REPLY_STATUSES,
  type WorkOrder,
  type WorkOrderActor,
  type WorkOrderCreate,
  type WorkOrderDetail,
  type WorkOrderListQuery,
  type WorkOrderReply,
  type WorkOrderStatus,
  type WorkOrderStatusBody,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import type { MessageService } from '../message/message.service.ts';
import type { WorkOrderImages } from './workorder.images.ts';
import type { ImageRow, WorkOrderRepository, WorkOrderRow } from './workorder.repository.ts';

/** Applies a capacity request to the tenant's package inside the transition's transaction (billing provides it). */
export type CapacityApplier = (tx: RawSql, tenantId: string, request: Record<string, unknown>) => Promise<void>;

export interface WorkOrderDeps {
  raw: RawSql;
  repo: WorkOrderRepository;
  messages: MessageService;
  events: EventBus;
  images: WorkOrderImages;
  applyCapacity?: CapacityApplier;
}

type OrderTextKey = 'workorder.changed.title' | 'workorder.new.title' | 'workorder.replied.title';

/** A work-order message in both console languages (the inbox answers in the reader's); English is the stored default. */
function orderText(key: OrderTextKey, params: (lang: TextLang) => TextParams, content: string) {
  const words = (lang: TextLang) => ({ title: serverText(lang, key, params(lang)), content });
  const texts = { en: words('en'), zh: words('zh') };
  return { ...texts.en, texts, type: 'workorder' };
}

function changedText(identifier: string, to: WorkOrderStatus, content: string) {
  return orderText('workorder.changed.title', (l) => ({ identifier, status: serverText(l, `workorder.status.${to}`) }), content);
}

/** A reply's message to the other side. */
function repliedText(identifier: string, by: string, content: string) {
  return orderText('workorder.replied.title', () => ({ identifier, by }), content);
}

const err = (status: number, code: CodesOf<'workorder'>, details?: Record<string, unknown>) =>
  new ApiError(status, code, undefined, details ? { details } : undefined);

function toWorkOrder(r: WorkOrderRow, images: ImageRow[]): WorkOrder {
  return {
    id: r.id,
    identifier: r.identifier,
    tenant_id: r.tenant_id,
    tenant_name: r.tenant_name,
    name: r.name,
    feedback_type: r.feedback_type as WorkOrder['feedback_type'],
    belong_function: r.belong_function,
    phone: r.phone,
    description: r.description,
    images: images.filter((i) => i.work_order_id === r.id).map((i) => ({ id: i.id, name: i.name, size: i.size, mime: i.mime })),
    status: r.status,
    initiator: { id: r.initiator_id ?? '', name: r.initiator_name },
    handler: r.handler_id || r.handler_name ? { id: r.handler_id ?? '', name: r.handler_name ?? '' } : null,
    remark: r.remark,
    capacity_request: r.capacity_request,
    applied: r.applied,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

function assertTenant(auth: Auth, tenantId: string) {
  if (auth.tenantId !== tenantId) throw forbidden();
}

export function workOrderService(deps: WorkOrderDeps) {
  const { repo } = deps;

  async function detail(row: WorkOrderRow): Promise<WorkOrderDetail> {
    const [images, history] = await Promise.all([repo.imagesOf([row.id]), repo.history(row.id)]);
    return {
      ...toWorkOrder(row, images),
      history: history.map((h) => ({
        from: h.from_status,
        to: h.to_status,
        by: { id: h.by_user_id ?? '', name: h.by_name },
        remark: h.remark,
        at: new Date(h.at).toISOString(),
      })),
    };
  }

  /** Tenant side: a manager sees the tenant's orders, a sub-user only those it started. */
  async function visible(auth: Auth, tenantId: string, id: string): Promise<WorkOrderRow> {
    assertTenant(auth, tenantId);
    const row = await repo.get(tenantId, id);
    if (!row || (!auth.isManager && row.initiator_id !== auth.userId)) throw notFound('Work order not found');
    return row;
  }

  async function page(q: WorkOrderListQuery, tenantId: string | null, initiatorId?: string) {
    const from = q.start_time ? parseTimeInput(q.start_time) : undefined;
    const to = q.end_time ? parseTimeInput(q.end_time) : undefined;
    if (from === null) throw badRequest('http.400', 'start_time: not a valid time', 'start_time');
    if (to === null) throw badRequest('http.400', 'end_time: not a valid time', 'end_time');
    const { rows, total } = await repo.page(
      { tenantId, initiatorId, status: q.status, feedbackType: q.feedback_type, name: q.name, from, to },
      (q.current_page - 1) * q.page_size,
      q.page_size,
    );
    const images = await repo.imagesOf(rows.map((r) => r.id));
    return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map((r) => toWorkOrder(r, images)) };
  }

  type OrderMessage = ReturnType<typeof orderText>;

  /** To the order's initiator (who may have been deleted meanwhile: the change stands). */
  async function tellInitiator(row: WorkOrderRow, text: OrderMessage) {
    if (row.initiator_id) await deps.messages.send(row.tenant_id, row.initiator_id, text).catch(() => {});
  }

  /** To the order's handler, or every system manager before anyone took it. */
  async function tellHandler(row: WorkOrderRow, text: OrderMessage) {
    const handlerTenantId = row.handler_id ? await repo.userTenant(row.handler_id) : null;
    if (row.handler_id && handlerTenantId) await deps.messages.send(handlerTenantId, row.handler_id, text).catch(() => {});
    else await deps.messages.sendToSystemManagers(text);
  }

  async function transition(auth: Auth, actor: WorkOrderActor, row: WorkOrderRow, to: WorkOrderStatus, body: WorkOrderStatusBody) {
    const t = findTransition(row.status, to);
    if (!t) throw err(409, 'workorder.bad-transition', { from: row.status, to });
    if (t.by !== actor) throw err(403, 'workorder.not-allowed', { from: row.status, to, by: t.by });
    if (body.apply) {
      if (actor !== 'handler' || (to !== 'done' && to !== 'wait'))
        throw badRequest('http.400', 'apply: only a handler moving to wait or done applies', 'apply');
      if (row.feedback_type !== 'capacity' || !row.capacity_request || !deps.applyCapacity) throw err(400, 'workorder.not-capacity');
      if (row.applied) throw err(409, 'workorder.already-applied');
    }
    const name = (await repo.userName(auth.userId)) || auth.username;
    await deps.raw.transaction(async (tx) => {
      const moved = await repo.setStatus(tx, {
        id: row.id,
        from: row.status,
        to,
        remark: body.remark,
        handler: actor === 'handler' ? { id: auth.userId, name } : undefined,
      });
      // Someone else changed it since we read it.
      if (!moved) throw err(409, 'workorder.bad-transition', { from: row.status, to });
      await repo.addHistory(tx, {
        workOrderId: row.id,
        tenantId: row.tenant_id,
        from: row.status,
        to,
        byUserId: auth.userId,
        byName: name,
        remark: body.remark,
      });
      if (body.apply && row.capacity_request && deps.applyCapacity) {
        await deps.applyCapacity(tx, row.tenant_id, row.capacity_request);
        await repo.markApplied(tx, row.id);
      }
    });
    deps.events.emit('workorder.changed', { tenantId: row.tenant_id, workOrderId: row.id, from: row.status, to, byUserId: auth.userId });
    if (body.apply) deps.events.emit('package.changed', { tenantId: row.tenant_id });
    await tellInitiator(row, changedText(row.identifier, to, body.remark ? `${row.name}: ${body.remark}` : row.name));
    if (actor === 'initiator') await tellHandler(row, changedText(row.identifier, to, `${row.tenant_name}: ${row.name}`));
    return detail((await repo.get(null, row.id)) as WorkOrderRow);
  }

  /** A reply: a history entry that keeps the status, and a message to the other side. */
  async function reply(auth: Auth, actor: WorkOrderActor, row: WorkOrderRow, body: WorkOrderReply) {
    if (!WORK_ORDER_REPLY_STATUSES.includes(row.status)) throw err(409, 'workorder.not-open', { status: row.status });
    const name = (await repo.userName(auth.userId)) || auth.username;
    await deps.raw.transaction(async (tx) => {
      if (!(await repo.touch(tx, row.id, row.status))) throw err(409, 'workorder.not-open', { status: row.status });
      await repo.addHistory(tx, {
        workOrderId: row.id,
        tenantId: row.tenant_id,
        from: row.status,
        to: row.status,
        byUserId: auth.userId,
        byName: name,
        remark: body.remark,
      });
    });
    deps.events.emit('workorder.changed', {
      tenantId: row.tenant_id,
      workOrderId: row.id,
      from: row.status,
      to: row.status,
      byUserId: auth.userId,
    });
    const text = repliedText(row.identifier, name, `${row.name}: ${body.remark}`);
    await (actor === 'handler' ? tellInitiator(row, text) : tellHandler(row, text));
    return detail((await repo.get(null, row.id)) as WorkOrderRow);
  }

  /** Creates an order (any feedback type, capacity included) and tells the system managers. */
  async function createOrder(
    auth: Auth,
    v: Omit<WorkOrderCreate, 'feedback_type'> & { feedback_type: WorkOrder['feedback_type']; capacity_request?: Record<string, unknown> },
  ): Promise<WorkOrderDetail> {
    const name = (await repo.userName(auth.userId)) || auth.username;
    const images = [...new Set(v.images)];
    const id = await deps.raw.transaction(async (tx) => {
      const identifier = await repo.nextIdentifier(tx, new Date());
      const id = await repo.insert(tx, {
        tenantId: auth.tenantId,
        identifier,
        name: v.name,
        feedbackType: v.feedback_type,
        belongFunction: v.belong_function,
        phone: v.phone,
        description: v.description,
        initiatorId: auth.userId,
        initiatorName: name,
        capacityRequest: v.capacity_request ?? null,
      });
      if ((await repo.attachImages(tx, auth.tenantId, auth.userId, id, images)) !== images.length)
        throw err(400, 'workorder.image-unknown');
      await repo.addHistory(tx, {
        workOrderId: id,
        tenantId: auth.tenantId,
        from: null,
        to: 'pending',
        byUserId: auth.userId,
        byName: name,
        remark: '',
      });
      return id;
    });
    const row = (await repo.get(auth.tenantId, id)) as WorkOrderRow;
    deps.events.emit('workorder.changed', { tenantId: auth.tenantId, workOrderId: id, from: null, to: 'pending', byUserId: auth.userId });
    await deps.messages.sendToSystemManagers(
      orderText('workorder.new.title', () => ({ identifier: row.identifier }), `${row.tenant_name}: ${row.name}`),
    );
    return detail(row);
  }

  return {
    createOrder,

    create(auth: Auth, tenantId: string, body: WorkOrderCreate): Promise<WorkOrderDetail> {
      assertTenant(auth, tenantId);
      return createOrder(auth, body);
    },

    list(auth: Auth, tenantId: string, q: WorkOrderListQuery) {
      assertTenant(auth, tenantId);
      return page(q, tenantId, auth.isManager ? undefined : auth.userId);
    },

    async get(auth: Auth, tenantId: string, id: string): Promise<WorkOrderDetail> {
      return detail(await visible(auth, tenantId, id));
    },

    /** The initiator's side: abandon, reopen, confirm. */
    async changeAsInitiator(auth: Auth, tenantId: string, id: string, to: WorkOrderStatus, body: WorkOrderStatusBody) {
      const row = await visible(auth, tenantId, id);
      return transition(auth, 'initiator', row, to, body);
    },

    /** The initiator's side writes to the handler while the order is being handled. */
    async replyAsInitiator(auth: Auth, tenantId: string, id: string, body: WorkOrderReply) {
      return reply(auth, 'initiator', await visible(auth, tenantId, id), body);
    },

    uploadImage(auth: Auth, tenantId: string, file: { name: string; bytes: Buffer }) {
      return deps.images.save(auth, tenantId, file);
    },

    /** Tenant side: a manager sees every image of the tenant; a sub-user its uploads and its orders' images. */
    image(auth: Auth, tenantId: string, id: string) {
      assertTenant(auth, tenantId);
      return deps.images.read(tenantId, id, async (workOrderId, uploaderId) => {
        if (auth.isManager || uploaderId === auth.userId) return true;
        if (!workOrderId) return false;
        const row = await repo.get(tenantId, workOrderId);
        return row?.initiator_id === auth.userId;
      });
    },

    imageAny(_auth: Auth, id: string) {
      return deps.images.read(null, id, async () => true);
    },

    /** System side: every tenant's orders. */
    listAll(_auth: Auth, q: WorkOrderListQuery) {
      return page(q, q.tenant_id ?? null);
    },

    async getAny(_auth: Auth, id: string): Promise<WorkOrderDetail> {
      const row = await repo.get(null, id);
      if (!row) throw notFound('Work order not found');
      return detail(row);
    },

    async changeAsHandler(auth: Auth, id: string, to: WorkOrderStatus, body: WorkOrderStatusBody) {
      const row = await repo.get(null, id);
      if (!row) throw notFound('Work order not found');
      return transition(auth, 'handler', row, to, body);
    },

    async replyAsHandler(auth: Auth, id: string, body: WorkOrderReply) {
      const row = await repo.get(null, id);
      if (!row) throw notFound('Work order not found');
      return reply(auth, 'handler', row, body);
    },
  };
}
export type WorkOrderService = ReturnType<typeof workOrderService>;
