import type { OrderState } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface OrderRow {
  id: string;
  tenant_id: string;
  tenant_name?: string;
  user_id: string | null;
  order_no: string;
  type: number;
  pattern: number;
  from_package_id: string | null;
  to_package_id: string | null;
  to_package_name: string | null;
  to_package_content: Record<string, number | null>;
  to_platform: number | null;
  duration: number;
  coupon_id: string | null;
  pay_type: string;
  list_amount: string | number;
  discount_amount: string | number;
  coupon_amount: string | number;
  pay_amount: string | number;
  state: OrderState;
  trade_no: string | null;
  receipt_path: string | null;
  receipt_name: string | null;
  receipt_mime: string | null;
  remark: string;
  start_time: Date | null;
  end_time: Date | null;
  fallback: Record<string, number | null> | null;
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewOrder = Pick<
  OrderRow,
  | 'tenant_id'
  | 'user_id'
  | 'order_no'
  | 'type'
  | 'pattern'
  | 'from_package_id'
  | 'to_package_id'
  | 'to_package_content'
  | 'to_platform'
  | 'duration'
  | 'coupon_id'
  | 'pay_type'
  | 'list_amount'
  | 'discount_amount'
  | 'coupon_amount'
  | 'pay_amount'
>;

const SELECT = `select o.*, p.name as to_package_name, t.name as tenant_name
  from billing_orders o left join billing_packages p on p.id = o.to_package_id join tenants t on t.id = o.tenant_id`;

/** Columns a state change may write besides `state`. */
type Patch = Partial<
  Pick<
    OrderRow,
    'trade_no' | 'receipt_path' | 'receipt_name' | 'receipt_mime' | 'remark' | 'start_time' | 'end_time' | 'fallback' | 'paid_at'
  >
>;

/**
 * SQL only: a tenant's orders, always scoped by `tenantId`; `null` is the system manager's view of
 * every tenant. The sweep reads the due orders of every tenant.
 */
export function ordersRepository(raw: RawSql) {
  return {
    async insert(o: NewOrder, db: RawSql = raw): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        `insert into billing_orders (tenant_id, user_id, order_no, type, pattern, from_package_id, to_package_id, to_package_content,
           to_platform, duration, coupon_id, pay_type, list_amount, discount_amount, coupon_amount, pay_amount)
         values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16) returning id`,
        [
          o.tenant_id,
          o.user_id,
          o.order_no,
          o.type,
          o.pattern,
          o.from_package_id,
          o.to_package_id,
          JSON.stringify(o.to_package_content),
          o.to_platform,
          o.duration,
          o.coupon_id,
          o.pay_type,
          o.list_amount,
          o.discount_amount,
          o.coupon_amount,
          o.pay_amount,
        ],
      );
      return rows[0].id;
    },

    async get(tenantId: string | null, id: string, db: RawSql = raw, forUpdate = false): Promise<OrderRow | null> {
      const { rows } = await db.query<OrderRow>(
        `${SELECT} where o.id = $1 and ($2::uuid is null or o.tenant_id = $2)${forUpdate ? ' for update of o' : ''}`,
        [id, tenantId],
      );
      return rows[0] ?? null;
    },

    async list(tenantId: string | null, q: { state?: string; tenantName?: string; limit: number; offset: number }) {
      const where = ['($1::uuid is null or o.tenant_id = $1)'];
      const args: unknown[] = [tenantId];
      if (q.state) {
        args.push(q.state);
        where.push(`o.state = $${args.length}`);
      }
      if (q.tenantName) {
        args.push(`%${q.tenantName.replace(/[\\%_]/g, '\\$&')}%`);
        where.push(`t.name ilike $${args.length}`);
      }
      const cond = where.join(' and ');
      const count = await raw.query<{ n: number }>(
        `select count(*)::int as n from billing_orders o join tenants t on t.id = o.tenant_id where ${cond}`,
        args,
      );
      const { rows } = await raw.query<OrderRow>(
        `${SELECT} where ${cond} order by o.created_at desc, o.id offset $${args.length + 1} limit $${args.length + 2}`,
        [...args, q.offset, q.limit],
      );
      return { total: count.rows[0].n, rows };
    },

    /** Moves an order from one of `from` to `to`, writing `patch`; null when it was in none of them. */
    async move(id: string, from: readonly OrderState[], to: OrderState, patch: Patch, db: RawSql = raw): Promise<boolean> {
      const keys = Object.keys(patch) as (keyof Patch)[];
      const sets = keys.map((k, i) => `${k} = $${i + 4}${k === 'fallback' ? '::jsonb' : ''}`);
      const values = keys.map((k) => (k === 'fallback' ? JSON.stringify(patch[k]) : patch[k]));
      const { rows } = await db.query(
        `update billing_orders set state = $3, ${[...sets, 'updated_at = now()'].join(', ')}
          where id = $1 and state = any($2::text[]) returning 1`,
        [id, from, to, ...values],
      );
      return rows.length > 0;
    },

    /** When the tenant's paid package orders end at the latest (a renewal starts there). */
    async lastPackageEnd(tenantId: string, db: RawSql = raw): Promise<Date | null> {
      const { rows } = await db.query<{ e: Date | null }>(
        `select max(end_time) as e from billing_orders where tenant_id = $1 and type = 1 and state in ('paid', 'active')`,
        [tenantId],
      );
      return rows[0].e ? new Date(rows[0].e) : null;
    },

    /** The tenant's running orders, latest started first. */
    async active(tenantId: string, db: RawSql = raw): Promise<OrderRow[]> {
      const { rows } = await db.query<OrderRow>(
        `${SELECT} where o.tenant_id = $1 and o.state = 'active' order by o.start_time desc, o.paid_at desc`,
        [tenantId],
      );
      return rows;
    },

    /** Orders to end (running, past their end) and to start (paid, at their start), in time order. */
    async due(at: Date): Promise<{ id: string; tenant_id: string; step: 'end' | 'start' }[]> {
      const { rows } = await raw.query<{ id: string; tenant_id: string; step: 'end' | 'start' }>(
        `select id, tenant_id, step from (
           select id, tenant_id, 'end' as step, end_time as t from billing_orders where state = 'active' and end_time <= $1
           union all
           select id, tenant_id, 'start' as step, start_time as t from billing_orders where state = 'paid' and start_time <= $1
         ) d order by t, step, id`,
        [at],
      );
      return rows;
    },
  };
}
export type OrdersRepository = ReturnType<typeof ordersRepository>;
