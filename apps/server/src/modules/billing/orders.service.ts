import { randomInt } from 'node:crypto';
import path from 'node:path';
import {
  type ErrorBody,
  ORDER_RECEIPT_MAX_BYTES,
  type Order,
  type OrderInput,
  OrderPattern,
  type OrderQuote,
  type OrderState,
  OrderType,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { sniffImage } from '../workorder/workorder.images.ts';
import type { CatalogueRepository } from './catalogue.repository.ts';
import type { OrderRow, OrdersRepository } from './orders.repository.ts';
import type { PackageRow } from './package.repository.ts';
import type { PackageService } from './package.service.ts';
import type { PaymentProvider } from './payment.ts';

/** The sweep that starts and ends paid orders (a pg-boss schedule: once a minute across all copies). */
export const ORDER_SWEEP = 'billing-order-sweep';

type Priced = OrderQuote & { to_package_id: string | null; to_platform: number | null; coupon_id: string | null };

function toOrder(r: OrderRow): Order {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    tenant_name: r.tenant_name,
    order_no: r.order_no,
    type: r.type,
    pattern: r.pattern,
    from_package_id: r.from_package_id,
    to_package_id: r.to_package_id,
    to_package_name: r.to_package_name,
    to_package_content: r.to_package_content,
    duration: r.duration,
    coupon_id: r.coupon_id,
    pay_type: r.pay_type,
    list_amount: Number(r.list_amount),
    discount_amount: Number(r.discount_amount),
    coupon_amount: Number(r.coupon_amount),
    pay_amount: Number(r.pay_amount),
    discount_percent: null,
    state: r.state,
    trade_no: r.trade_no,
    has_receipt: r.receipt_path !== null,
    remark: r.remark,
    start_time: ms(r.start_time),
    end_time: ms(r.end_time),
    paid_at: ms(r.paid_at),
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

/** `months` calendar months after `t` (UTC); the 31st of a shorter month becomes its last day. */
export function addMonths(t: Date, months: number): Date {
  const d = new Date(t.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** A receipt's type from its bytes: a raster image (as work-order images) or a PDF. */
function sniffReceipt(b: Uint8Array): { mime: string; ext: string } | null {
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d) return { mime: 'application/pdf', ext: 'pdf' };
  return sniffImage(b);
}

const PAYABLE: readonly OrderState[] = ['unpaid', 'paying', 'confirming'];

/** Package fields an order sets, plus the platform of a catalogue package. */
function orderFields(r: Pick<OrderRow, 'to_package_content' | 'to_platform'>): Record<string, number | null> {
  return r.to_platform === null ? { ...r.to_package_content } : { ...r.to_package_content, platform: r.to_platform };
}

/**
 * Orders (docs/billing.md): priced from the catalogue, paid through a payment provider (a bank
 * transfer whose receipt a system manager confirms), and applied to the tenant's package from their
 * start time to their end, when the package falls back to what it was before the order.
 */
export function ordersService(deps: {
  raw: RawSql;
  repo: OrdersRepository;
  catalogue: CatalogueRepository;
  packages: PackageService;
  files: FileStore;
  events: EventBus;
  providers: PaymentProvider[];
  now?: () => number;
  log?: { error: (o: object, msg: string) => void };
}) {
  const { repo, catalogue, packages } = deps;
  const now = deps.now ?? Date.now;
  const receipts = deps.files.under('billing');
  const provider = (payType: string) => {
    const p = deps.providers.find((x) => x.payType === payType);
    if (!p) throw ApiError.of('order.not-for-sale', `No payment provider for ${payType}`);
    return p;
  };

  async function price(tenantId: string, input: OrderInput, db: RawSql = deps.raw): Promise<Priced> {
    let list = 0;
    let content: Record<string, number | null> = {};
    let toPackage: string | null = null;
    let platform: number | null = null;
    if (input.type === OrderType.package) {
      if (!input.package_id || input.content) throw ApiError.of('order.bad-input', undefined, { field: 'package_id' });
      const pkg = await catalogue.package(input.package_id, db);
      if (pkg?.status !== 1) throw ApiError.of('order.not-for-sale', undefined, { field: 'package_id' });
      content = pkg.contents;
      list = Number(pkg.month_price) * input.duration;
      toPackage = pkg.id;
      platform = pkg.platform;
    } else {
      if (!input.content || input.package_id || input.pattern !== OrderPattern.new) {
        throw ApiError.of('order.bad-input', undefined, { field: 'content' });
      }
      const cur = await packages.load(tenantId, db);
      const items = new Map((await catalogue.items(db)).map((i) => [i.field, i]));
      const below: ErrorBody[] = [];
      for (const [f, v] of Object.entries(input.content) as [keyof PackageRow, number][]) {
        const have = cur[f] as number | null;
        if (have === null || v < have) {
          below.push({
            code: 'capacity.below-current',
            message: `${f}: at least ${have ?? 'unlimited'}`,
            field: f,
            details: { current: have },
          });
          continue;
        }
        if (v === have) continue;
        const item = items.get(f);
        if (!item) throw ApiError.of('order.not-for-sale', `${f} is not for sale`, { field: f });
        list += Math.ceil((v - have) / item.unit) * Number(item.unit_price) * input.duration;
        content[f] = v;
      }
      if (below.length) throw ApiError.many(400, below);
      if (!Object.keys(content).length) throw ApiError.of('capacity.unchanged');
    }
    const stage = (await catalogue.discounts(db)).filter((d) => d.min_months <= input.duration).sort((a, b) => a.percent - b.percent)[0];
    const afterDiscount = stage ? Math.floor((list * stage.percent) / 100) : list;
    let couponAmount = 0;
    let couponId: string | null = null;
    if (input.coupon_code) {
      const c = await catalogue.couponByCode(input.coupon_code, db);
      const t = now();
      const valid =
        c &&
        c.status === 1 &&
        (c.valid_from === null || new Date(c.valid_from).getTime() <= t) &&
        (c.valid_to === null || new Date(c.valid_to).getTime() > t) &&
        (c.max_uses === null || c.used < c.max_uses) &&
        afterDiscount >= Number(c.min_amount);
      if (!valid) throw ApiError.of('coupon.invalid', undefined, { field: 'coupon_code' });
      couponAmount = Math.min(Number(c.amount_off), afterDiscount);
      couponId = c.id;
    }
    return {
      to_package_content: content,
      list_amount: list,
      discount_amount: list - afterDiscount,
      coupon_amount: couponAmount,
      pay_amount: afterDiscount - couponAmount,
      discount_percent: stage ? stage.percent : null,
      to_package_id: toPackage,
      to_platform: platform,
      coupon_id: couponId,
    };
  }

  function own(auth: Auth, tenantId: string) {
    if (auth.tenantId !== tenantId) throw forbidden();
  }

  async function found(tenantId: string | null, id: string, db: RawSql = deps.raw, forUpdate = false): Promise<OrderRow> {
    const r = await repo.get(tenantId, id, db, forUpdate);
    if (!r) throw ApiError.of('order.not-found');
    return r;
  }

  async function moveOr409(
    id: string,
    from: readonly OrderState[],
    to: OrderState,
    patch: Parameters<OrdersRepository['move']>[3],
    db: RawSql,
  ) {
    if (!(await repo.move(id, from, to, patch, db))) throw ApiError.of('order.bad-state');
  }

  /** The order's values become the package's; what they replace is kept to fall back to. */
  async function start(tx: RawSql, r: OrderRow): Promise<void> {
    const cur = await packages.load(r.tenant_id, tx, true);
    const running = await repo.active(r.tenant_id, tx);
    const fields = orderFields(r);
    const fallback: Record<string, number | null> = {};
    for (const f of Object.keys(fields)) {
      // Under another running order, the value to fall back to is the one from before that order.
      const under = running.find((o) => f in orderFields(o));
      fallback[f] = under?.fallback && f in under.fallback ? under.fallback[f] : (cur[f as keyof PackageRow] as number | null);
    }
    await packages.write(tx, r.tenant_id, fields as Partial<PackageRow>);
    await repo.move(r.id, ['paid'], 'active', { fallback }, tx);
  }

  /**
   * The order's values leave the package: each field it set goes back to the value of another
   * running order that sets it (the latest started), else to the value from before the order — unless
   * the field no longer holds the order's value (a system manager changed it meanwhile), when it stays.
   */
  async function end(tx: RawSql, r: OrderRow, to: 'expired' | 'refunded'): Promise<void> {
    const cur = await packages.load(r.tenant_id, tx, true);
    const others = (await repo.active(r.tenant_id, tx)).filter((o) => o.id !== r.id);
    const patch: Record<string, number | null> = {};
    for (const [f, v] of Object.entries(orderFields(r))) {
      if (cur[f as keyof PackageRow] !== v) continue;
      const other = others.find((o) => f in orderFields(o));
      patch[f] = other ? orderFields(other)[f] : r.fallback && f in r.fallback ? r.fallback[f] : v;
    }
    await packages.write(tx, r.tenant_id, patch as Partial<PackageRow>);
    await repo.move(r.id, ['active'], to, {}, tx);
  }

  const svc = {
    quote: async (auth: Auth, tenantId: string, input: OrderInput): Promise<OrderQuote> => {
      own(auth, tenantId);
      const { to_package_id: _p, to_platform: _f, coupon_id: _c, ...q } = await price(tenantId, input);
      return q;
    },

    async create(auth: Auth, tenantId: string, input: OrderInput): Promise<Order> {
      own(auth, tenantId);
      provider(input.pay_type);
      const id = await deps.raw.transaction(async (tx) => {
        const p = await price(tenantId, input, tx);
        if (p.coupon_id && !(await catalogue.useCoupon(p.coupon_id, tx))) {
          throw ApiError.of('coupon.invalid', undefined, { field: 'coupon_code' });
        }
        const stamp = new Date(now()).toISOString().replace(/\D/g, '').slice(0, 14);
        return repo.insert(
          {
            tenant_id: tenantId,
            user_id: auth.userId,
            order_no: `LH${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`,
            type: input.type,
            pattern: input.pattern,
            from_package_id: (await repo.active(tenantId, tx)).find((o) => o.type === OrderType.package)?.to_package_id ?? null,
            to_package_id: p.to_package_id,
            to_package_content: p.to_package_content,
            to_platform: p.to_platform,
            duration: input.duration,
            coupon_id: p.coupon_id,
            pay_type: input.pay_type,
            list_amount: p.list_amount,
            discount_amount: p.discount_amount,
            coupon_amount: p.coupon_amount,
            pay_amount: p.pay_amount,
          },
          tx,
        );
      });
      return toOrder(await found(tenantId, id));
    },

    async list(auth: Auth, tenantId: string | null, q: { current_page: number; page_size: number; state?: string; tenant_name?: string }) {
      if (tenantId !== null) own(auth, tenantId);
      const { total, rows } = await repo.list(tenantId, {
        state: q.state,
        tenantName: tenantId === null ? q.tenant_name : undefined,
        limit: q.page_size,
        offset: (q.current_page - 1) * q.page_size,
      });
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toOrder) };
    },

    async get(auth: Auth, tenantId: string, id: string): Promise<Order> {
      own(auth, tenantId);
      return toOrder(await found(tenantId, id));
    },

    /** Starts paying: the provider's instructions. An order that costs nothing is paid at once. */
    async pay(auth: Auth, tenantId: string, id: string) {
      own(auth, tenantId);
      const r = await found(tenantId, id);
      const p = provider(r.pay_type);
      if (Number(r.pay_amount) === 0) {
        await svc.confirm(null, id, { trade_no: 'free', remark: '' }, tenantId);
      } else {
        await moveOr409(id, ['unpaid', 'paying'], 'paying', {}, deps.raw);
      }
      const order = toOrder(await found(tenantId, id));
      return { order, instructions: await p.start({ order_no: r.order_no, pay_amount: Number(r.pay_amount) }) };
    },

    async uploadReceipt(auth: Auth, tenantId: string, id: string, file: { name: string; bytes: Buffer }): Promise<Order> {
      own(auth, tenantId);
      const r = await found(tenantId, id);
      if (!provider(r.pay_type).takesReceipt || !PAYABLE.includes(r.state)) throw ApiError.of('order.bad-state');
      if (file.bytes.length > ORDER_RECEIPT_MAX_BYTES) throw ApiError.of('order.receipt-too-large');
      const kind = sniffReceipt(file.bytes);
      if (!kind) throw ApiError.of('order.receipt-invalid');
      const key = `${tenantId}/${id}-${Date.now()}.${kind.ext}`;
      await receipts.put(key, file.bytes);
      const name = path.basename(file.name || `receipt.${kind.ext}`).slice(0, 128);
      if (!(await repo.move(id, PAYABLE, 'confirming', { receipt_path: key, receipt_name: name, receipt_mime: kind.mime }))) {
        await receipts.remove(key);
        throw ApiError.of('order.bad-state');
      }
      if (r.receipt_path) await receipts.remove(r.receipt_path).catch(() => {});
      return toOrder(await found(tenantId, id));
    },

    /** The receipt of an order: of the caller's tenant, or (`tenantId` null) any, for a system manager. */
    async receipt(auth: Auth, tenantId: string | null, id: string) {
      if (tenantId !== null) own(auth, tenantId);
      const r = await found(tenantId, id);
      const bytes = r.receipt_path ? await receipts.get(r.receipt_path) : null;
      if (!bytes || !r.receipt_mime) throw ApiError.of('order.no-receipt');
      return { mime: r.receipt_mime, name: r.receipt_name ?? 'receipt', bytes };
    },

    async cancel(auth: Auth, tenantId: string, id: string): Promise<Order> {
      own(auth, tenantId);
      await deps.raw.transaction(async (tx) => {
        const r = await found(tenantId, id, tx, true);
        await moveOr409(id, PAYABLE, 'cancelled', {}, tx);
        if (r.coupon_id) await catalogue.releaseCoupon(r.coupon_id, tx);
      });
      return toOrder(await found(tenantId, id));
    },

    /**
     * The payment arrived: the order is paid and starts now, or a renewal when the tenant's last paid
     * package ends; it runs for its months. `tenantId` set: a provider's own confirmation for that tenant.
     */
    async confirm(
      _auth: Auth | null,
      id: string,
      body: { trade_no: string; remark: string },
      tenantId: string | null = null,
    ): Promise<Order> {
      const r = await deps.raw.transaction(async (tx) => {
        const r = await found(tenantId, id, tx, true);
        const t = new Date(now());
        const last = r.pattern === OrderPattern.renew ? await repo.lastPackageEnd(r.tenant_id, tx) : null;
        const from = last && last > t ? last : t;
        await moveOr409(
          id,
          PAYABLE,
          'paid',
          { trade_no: body.trade_no, remark: body.remark, paid_at: t, start_time: from, end_time: addMonths(from, r.duration) },
          tx,
        );
        return r;
      });
      await svc.settle(new Date(now()));
      return toOrder(await found(r.tenant_id, id));
    },

    /** The receipt does not show the payment: the order waits for another receipt. */
    async reject(_auth: Auth, id: string, remark: string): Promise<Order> {
      await moveOr409(id, ['confirming'], 'paying', { remark }, deps.raw);
      return toOrder(await found(null, id));
    },

    /** Money returned: a running order's package falls back at once; one not started yet never starts. */
    async refund(_auth: Auth, id: string, remark: string): Promise<Order> {
      const tenantId = await deps.raw.transaction(async (tx) => {
        const r = await found(null, id, tx, true);
        if (r.state === 'active') {
          await end(tx, r, 'refunded');
          await repo.move(id, ['refunded'], 'refunded', { remark, end_time: new Date(now()) }, tx);
        } else await moveOr409(id, ['paid'], 'refunded', { remark }, tx);
        return r.tenant_id;
      });
      deps.events.emit('package.changed', { tenantId });
      return toOrder(await found(null, id));
    },

    /** Ends the running orders past their end and starts the paid ones at their start, in time order. */
    async settle(at: Date): Promise<number> {
      const changed = new Set<string>();
      for (const d of await repo.due(at)) {
        try {
          await deps.raw.transaction(async (tx) => {
            const r = await repo.get(null, d.id, tx, true);
            if (!r) return;
            if (d.step === 'end' && r.state === 'active' && r.end_time && r.end_time <= at) await end(tx, r, 'expired');
            else if (d.step === 'start' && r.state === 'paid' && r.start_time && r.start_time <= at) await start(tx, r);
            else return;
            changed.add(r.tenant_id);
          });
        } catch (err) {
          deps.log?.error({ err, order: d.id }, 'billing order could not be settled');
        }
      }
      for (const tenantId of changed) deps.events.emit('package.changed', { tenantId });
      return changed.size;
    },
  };
  return svc;
}
export type OrdersService = ReturnType<typeof ordersService>;
