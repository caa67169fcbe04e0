import type { CatalogueInput, ContentItemInput, CouponInput } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export interface CatalogueRow {
  id: string;
  name: string;
  description: string;
  platform: number;
  contents: Record<string, number | null>;
  month_price: string | number;
  status: number;
  sort: number;
  created_at: Date;
  updated_at: Date;
}
export interface ItemRow {
  id: string;
  field: string;
  name: string;
  unit: number;
  unit_price: string | number;
}
export interface DiscountRow {
  id: string;
  min_months: number;
  percent: number;
}
export interface CouponRow {
  id: string;
  code: string;
  name: string;
  amount_off: string | number;
  min_amount: string | number;
  valid_from: Date | null;
  valid_to: Date | null;
  max_uses: number | null;
  used: number;
  status: number;
}

const ts = (ms: number | null) => (ms === null ? null : new Date(ms));

/**
 * SQL only: the billing catalogue. It is the platform's, not a tenant's: every tenant reads the same
 * packages, items and discounts; only system managers write them.
 */
export function catalogueRepository(raw: RawSql) {
  return {
    async packages(all: boolean): Promise<CatalogueRow[]> {
      const { rows } = await raw.query<CatalogueRow>(
        `select * from billing_packages ${all ? '' : 'where status = 1'} order by sort, month_price, name`,
      );
      return rows;
    },
    async package(id: string, db: RawSql = raw): Promise<CatalogueRow | null> {
      const { rows } = await db.query<CatalogueRow>('select * from billing_packages where id = $1', [id]);
      return rows[0] ?? null;
    },
    async insertPackage(p: CatalogueInput): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into billing_packages (name, description, platform, contents, month_price, status, sort)
         values ($1, $2, $3, $4::jsonb, $5, $6, $7) returning id`,
        [p.name, p.description, p.platform, JSON.stringify(p.contents), p.month_price, p.status, p.sort],
      );
      return rows[0].id;
    },
    async updatePackage(id: string, p: CatalogueInput): Promise<boolean> {
      const r = await raw.query(
        `update billing_packages set name = $2, description = $3, platform = $4, contents = $5::jsonb, month_price = $6,
                status = $7, sort = $8, updated_at = now() where id = $1 returning 1`,
        [id, p.name, p.description, p.platform, JSON.stringify(p.contents), p.month_price, p.status, p.sort],
      );
      return r.rows.length > 0;
    },
    async packageOrdered(id: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from billing_orders where to_package_id = $1 or from_package_id = $1 limit 1', [id]);
      return rows.length > 0;
    },
    async removePackage(id: string): Promise<boolean> {
      const r = await raw.query('delete from billing_packages where id = $1 returning 1', [id]);
      return r.rows.length > 0;
    },

    async items(db: RawSql = raw): Promise<ItemRow[]> {
      const { rows } = await db.query<ItemRow>('select id, field, name, unit, unit_price from billing_content_items order by field');
      return rows;
    },
    async saveItem(i: ContentItemInput): Promise<ItemRow> {
      const { rows } = await raw.query<ItemRow>(
        `insert into billing_content_items (field, name, unit, unit_price) values ($1, $2, $3, $4)
         on conflict (field) do update set name = excluded.name, unit = excluded.unit, unit_price = excluded.unit_price
         returning id, field, name, unit, unit_price`,
        [i.field, i.name, i.unit, i.unit_price],
      );
      return rows[0];
    },
    async removeItem(id: string): Promise<boolean> {
      const r = await raw.query('delete from billing_content_items where id = $1 returning 1', [id]);
      return r.rows.length > 0;
    },

    async discounts(db: RawSql = raw): Promise<DiscountRow[]> {
      const { rows } = await db.query<DiscountRow>('select id, min_months, percent from billing_stage_discounts order by min_months');
      return rows;
    },
    async insertDiscount(d: { min_months: number; percent: number }): Promise<DiscountRow> {
      const { rows } = await raw.query<DiscountRow>(
        'insert into billing_stage_discounts (min_months, percent) values ($1, $2) returning id, min_months, percent',
        [d.min_months, d.percent],
      );
      return rows[0];
    },
    async removeDiscount(id: string): Promise<boolean> {
      const r = await raw.query('delete from billing_stage_discounts where id = $1 returning 1', [id]);
      return r.rows.length > 0;
    },

    async coupons(): Promise<CouponRow[]> {
      const { rows } = await raw.query<CouponRow>('select * from billing_coupons order by created_at desc');
      return rows;
    },
    async couponByCode(code: string, db: RawSql = raw): Promise<CouponRow | null> {
      const { rows } = await db.query<CouponRow>('select * from billing_coupons where lower(code) = lower($1)', [code]);
      return rows[0] ?? null;
    },
    async insertCoupon(c: CouponInput): Promise<CouponRow> {
      const { rows } = await raw.query<CouponRow>(
        `insert into billing_coupons (code, name, amount_off, min_amount, valid_from, valid_to, max_uses, status)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
        [c.code, c.name, c.amount_off, c.min_amount, ts(c.valid_from), ts(c.valid_to), c.max_uses, c.status],
      );
      return rows[0];
    },
    async removeCoupon(id: string): Promise<boolean> {
      const r = await raw.query('delete from billing_coupons where id = $1 returning 1', [id]);
      return r.rows.length > 0;
    },
    /** Takes one use of a coupon, if one is left. */
    async useCoupon(id: string, db: RawSql): Promise<boolean> {
      const r = await db.query(
        'update billing_coupons set used = used + 1 where id = $1 and (max_uses is null or used < max_uses) returning 1',
        [id],
      );
      return r.rows.length > 0;
    },
    async releaseCoupon(id: string, db: RawSql): Promise<void> {
      await db.query('update billing_coupons set used = greatest(used - 1, 0) where id = $1', [id]);
    },
  };
}
export type CatalogueRepository = ReturnType<typeof catalogueRepository>;
