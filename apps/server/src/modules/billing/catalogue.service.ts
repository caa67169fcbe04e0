import type {
  CatalogueInput,
  CataloguePackage,
  ContentItem,
  ContentItemInput,
  Coupon,
  CouponInput,
  StageDiscount,
} from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import type { CatalogueRepository, CatalogueRow, CouponRow, ItemRow } from './catalogue.repository.ts';

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

async function unique<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (isUniqueViolation(e)) throw ApiError.of('billing.duplicate');
    throw e;
  }
}

export const toCataloguePackage = (r: CatalogueRow): CataloguePackage => ({
  id: r.id,
  name: r.name,
  description: r.description,
  platform: r.platform as 0 | 1,
  contents: r.contents,
  month_price: Number(r.month_price),
  status: r.status as 0 | 1,
  sort: r.sort,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});
const toItem = (r: ItemRow): ContentItem => ({
  id: r.id,
  field: r.field as ContentItem['field'],
  name: r.name,
  unit: r.unit,
  unit_price: Number(r.unit_price),
});
export const toCoupon = (r: CouponRow): Coupon => ({
  id: r.id,
  code: r.code,
  name: r.name,
  amount_off: Number(r.amount_off),
  min_amount: Number(r.min_amount),
  valid_from: ms(r.valid_from),
  valid_to: ms(r.valid_to),
  max_uses: r.max_uses,
  used: r.used,
  status: r.status as 0 | 1,
});

/** The billing catalogue: packages for sale, content items, stage discounts, coupons (docs/billing.md). */
export function catalogueService(repo: CatalogueRepository) {
  return {
    async packages(auth: Auth, all: boolean): Promise<CataloguePackage[]> {
      return (await repo.packages(all && auth.systemManager)).map(toCataloguePackage);
    },
    async createPackage(_auth: Auth, p: CatalogueInput): Promise<CataloguePackage> {
      const id = await unique(repo.insertPackage(p));
      return toCataloguePackage((await repo.package(id)) as CatalogueRow);
    },
    async updatePackage(_auth: Auth, id: string, p: CatalogueInput): Promise<CataloguePackage> {
      if (!(await unique(repo.updatePackage(id, p)))) throw ApiError.of('billing.not-found');
      return toCataloguePackage((await repo.package(id)) as CatalogueRow);
    },
    /** A package some order names is withdrawn (status 0) rather than deleted. */
    async removePackage(_auth: Auth, id: string): Promise<void> {
      if (!(await repo.package(id))) throw ApiError.of('billing.not-found');
      if (await repo.packageOrdered(id)) throw ApiError.of('billing.in-use');
      await repo.removePackage(id);
    },

    items: async (): Promise<ContentItem[]> => (await repo.items()).map(toItem),
    saveItem: async (_auth: Auth, i: ContentItemInput): Promise<ContentItem> => toItem(await repo.saveItem(i)),
    async removeItem(_auth: Auth, id: string): Promise<void> {
      if (!(await repo.removeItem(id))) throw ApiError.of('billing.not-found');
    },

    discounts: async (): Promise<StageDiscount[]> => repo.discounts(),
    createDiscount: async (_auth: Auth, d: { min_months: number; percent: number }): Promise<StageDiscount> =>
      unique(repo.insertDiscount(d)),
    async removeDiscount(_auth: Auth, id: string): Promise<void> {
      if (!(await repo.removeDiscount(id))) throw ApiError.of('billing.not-found');
    },

    coupons: async (): Promise<Coupon[]> => (await repo.coupons()).map(toCoupon),
    async createCoupon(_auth: Auth, c: CouponInput): Promise<Coupon> {
      if (c.valid_from !== null && c.valid_to !== null && c.valid_to <= c.valid_from) {
        throw badRequest('http.400', 'valid_to: must be after valid_from', 'valid_to');
      }
      return toCoupon(await unique(repo.insertCoupon(c)));
    },
    async removeCoupon(_auth: Auth, id: string): Promise<void> {
      if (!(await repo.removeCoupon(id))) throw ApiError.of('billing.not-found');
    },
  };
}
export type CatalogueService = ReturnType<typeof catalogueService>;
