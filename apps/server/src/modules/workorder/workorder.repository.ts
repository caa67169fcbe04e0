import type { WorkOrderStatus } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface WorkOrderRow {
  id: string;
  tenant_id: string;
  tenant_name: string;
  identifier: string;
  name: string;
  feedback_type: string;
  belong_function: string;
  phone: string;
  description: string;
  status: WorkOrderStatus;
  initiator_id: string | null;
  initiator_name: string;
  handler_id: string | null;
  handler_name: string | null;
  remark: string;
  capacity_request: Record<string, unknown> | null;
  applied: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ImageRow {
  id: string;
  tenant_id: string;
  work_order_id: string | null;
  uploader_id: string | null;
  name: string;
  mime: string;
  size: number;
  path: string;
}

export interface HistoryRow {
  from_status: WorkOrderStatus | null;
  to_status: WorkOrderStatus;
  by_user_id: string | null;
  by_name: string;
  remark: string;
  at: Date;
}

export interface WorkOrderFilter {
  /** null: every tenant (system side only). */
  tenantId: string | null;
  /** Only orders this user started (a sub-user's view). */
  initiatorId?: string;
  status?: string;
  feedbackType?: string;
  name?: string;
  from?: Date;
  to?: Date;
}

const SELECT = `select w.id, w.tenant_id, t.name as tenant_name, w.identifier, w.name, w.feedback_type, w.belong_function,
  w.phone, w.description, w.status, w.initiator_id, w.initiator_name, w.handler_id, w.handler_name, w.remark,
  w.capacity_request, w.applied, w.created_at, w.updated_at
  from work_orders w join tenants t on t.id = w.tenant_id`;

/** SQL only. Every query takes the tenant it is scoped to; `null` is the system side's "all tenants". */
export function workOrderRepository(raw: RawSql) {
  return {
    async nextIdentifier(tx: RawSql, now: Date): Promise<string> {
      const { rows } = await tx.query<{ n: string | number }>("select nextval('work_order_seq')::text as n");
      const day = now.toISOString().slice(0, 10).replaceAll('-', '');
      return `WO${day}${String(rows[0].n).padStart(6, '0')}`;
    },

    async insert(
      tx: RawSql,
      v: {
        tenantId: string;
        identifier: string;
        name: string;
        feedbackType: string;
        belongFunction: string;
        phone: string;
        description: string;
        initiatorId: string;
        initiatorName: string;
        capacityRequest: Record<string, unknown> | null;
      },
    ): Promise<string> {
      const { rows } = await tx.query<{ id: string }>(
        `insert into work_orders (tenant_id, identifier, name, feedback_type, belong_function, phone, description,
           initiator_id, initiator_name, capacity_request)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) returning id`,
        [
          v.tenantId,
          v.identifier,
          v.name,
          v.feedbackType,
          v.belongFunction,
          v.phone,
          v.description,
          v.initiatorId,
          v.initiatorName,
          v.capacityRequest === null ? null : JSON.stringify(v.capacityRequest),
        ],
      );
      return rows[0].id;
    },

    async addHistory(
      tx: RawSql,
      v: {
        workOrderId: string;
        tenantId: string;
        from: WorkOrderStatus | null;
        to: WorkOrderStatus;
        byUserId: string;
        byName: string;
        remark: string;
      },
    ): Promise<void> {
      await tx.query(
        `insert into work_order_history (work_order_id, tenant_id, from_status, to_status, by_user_id, by_name, remark)
         values ($1,$2,$3,$4,$5,$6,$7)`,
        [v.workOrderId, v.tenantId, v.from, v.to, v.byUserId, v.byName, v.remark],
      );
    },

    /** Attaches the caller's unattached images, in the given order; returns how many were attached. */
    async attachImages(tx: RawSql, tenantId: string, uploaderId: string, workOrderId: string, ids: string[]): Promise<number> {
      let n = 0;
      for (const [i, id] of ids.entries()) {
        const { rows } = await tx.query(
          `update work_order_images set work_order_id = $1, position = $2
            where id = $3 and tenant_id = $4 and uploader_id = $5 and work_order_id is null returning id`,
          [workOrderId, i, id, tenantId, uploaderId],
        );
        n += rows.length;
      }
      return n;
    },

    async get(tenantId: string | null, id: string, db: RawSql = raw): Promise<WorkOrderRow | null> {
      const { rows } = await db.query<WorkOrderRow>(`${SELECT} where w.id = $1 and ($2::uuid is null or w.tenant_id = $2::uuid)`, [
        id,
        tenantId,
      ]);
      return rows[0] ?? null;
    },

    async page(f: WorkOrderFilter, offset: number, limit: number): Promise<{ rows: WorkOrderRow[]; total: number }> {
      const params: unknown[] = [];
      const where: string[] = [];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      if (f.tenantId) where.push(`w.tenant_id = ${p(f.tenantId)}`);
      if (f.initiatorId) where.push(`w.initiator_id = ${p(f.initiatorId)}`);
      if (f.status) where.push(`w.status = ${p(f.status)}`);
      if (f.feedbackType) where.push(`w.feedback_type = ${p(f.feedbackType)}`);
      if (f.name) where.push(`w.name ilike ${p(`%${f.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
      if (f.from) where.push(`w.created_at >= ${p(f.from)}`);
      if (f.to) where.push(`w.created_at <= ${p(f.to)}`);
      const cond = where.length ? `where ${where.join(' and ')}` : '';
      const count = await raw.query<{ n: number }>(`select count(*)::int as n from work_orders w ${cond}`, params);
      const { rows } = await raw.query<WorkOrderRow>(
        `${SELECT} ${cond} order by w.created_at desc, w.id desc offset ${p(offset)} limit ${p(limit)}`,
        params,
      );
      return { rows, total: count.rows[0].n };
    },

    /** Moves the order only if it is still in `from` (two handlers at once: one wins). */
    async setStatus(
      tx: RawSql,
      v: { id: string; from: WorkOrderStatus; to: WorkOrderStatus; remark: string; handler?: { id: string; name: string } },
    ): Promise<boolean> {
      const { rows } = await tx.query(
        `update work_orders set status = $3, updated_at = clock_timestamp(),
            remark = case when $4 = '' then remark else $4 end,
            handler_id = coalesce($5, handler_id), handler_name = coalesce($6, handler_name)
          where id = $1 and status = $2 returning id`,
        [v.id, v.from, v.to, v.remark, v.handler?.id ?? null, v.handler?.name ?? null],
      );
      return rows.length > 0;
    },

    /** Marks the order as changed if it still has this status (a reply keeps the status); false when it has moved on. */
    async touch(tx: RawSql, id: string, status: WorkOrderStatus): Promise<boolean> {
      const { rows } = await tx.query('update work_orders set updated_at = clock_timestamp() where id = $1 and status = $2 returning id', [
        id,
        status,
      ]);
      return rows.length > 0;
    },

    async markApplied(tx: RawSql, id: string): Promise<void> {
      await tx.query('update work_orders set applied = true where id = $1', [id]);
    },

    async history(id: string): Promise<HistoryRow[]> {
      const { rows } = await raw.query<HistoryRow>(
        'select from_status, to_status, by_user_id, by_name, remark, at from work_order_history where work_order_id = $1 order by id',
        [id],
      );
      return rows;
    },

    async imagesOf(ids: string[]): Promise<ImageRow[]> {
      if (!ids.length) return [];
      const { rows } = await raw.query<ImageRow>(
        `select id, tenant_id, work_order_id, uploader_id, name, mime, size, path from work_order_images
          where work_order_id = any($1::uuid[]) order by work_order_id, position`,
        [ids],
      );
      return rows;
    },

    async insertImage(v: { id: string; tenantId: string; uploaderId: string; name: string; mime: string; size: number; path: string }) {
      await raw.query('insert into work_order_images (id, tenant_id, uploader_id, name, mime, size, path) values ($1,$2,$3,$4,$5,$6,$7)', [
        v.id,
        v.tenantId,
        v.uploaderId,
        v.name,
        v.mime,
        v.size,
        v.path,
      ]);
    },

    async image(tenantId: string | null, id: string): Promise<ImageRow | null> {
      const { rows } = await raw.query<ImageRow>(
        `select i.id, i.tenant_id, i.work_order_id, i.uploader_id, i.name, i.mime, i.size, i.path
           from work_order_images i where i.id = $1 and ($2::uuid is null or i.tenant_id = $2::uuid)`,
        [id, tenantId],
      );
      return rows[0] ?? null;
    },

    async userName(userId: string): Promise<string> {
      const { rows } = await raw.query<{ name: string }>('select coalesce(nick_name, name) as name from users where id = $1', [userId]);
      return rows[0]?.name ?? '';
    },

    /** The tenant of a user (a handler may answer from the system tenant). */
    async userTenant(userId: string): Promise<string | null> {
      const { rows } = await raw.query<{ tenant_id: string }>('select tenant_id from users where id = $1', [userId]);
      return rows[0]?.tenant_id ?? null;
    },
  };
}
export type WorkOrderRepository = ReturnType<typeof workOrderRepository>;
