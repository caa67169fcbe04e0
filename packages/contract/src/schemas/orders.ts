import { z } from 'zod';
import { CAPACITY_FIELDS, CAPACITY_MAX, PACKAGE_NUMBER_FIELDS, type PackageNumberField } from './billing.ts';
import { PageQuerySchema, pageOf, UuidSchema } from './common.ts';

/**
 * Billing (spec §3 package, content item, stage discount, coupon, order; §4 order actions):
 * docs/billing.md. Money is in cents, as integers.
 */

const money = z.number().int().min(0).max(1_000_000_000_00);
const PackageFieldSchema = z.enum(PACKAGE_NUMBER_FIELDS as [PackageNumberField, ...PackageNumberField[]]);

/** A package's contents: package fields and their values (null: no limit). */
export const PackageContentsSchema = z.partialRecord(PackageFieldSchema, z.number().int().min(0).max(2_147_483_647).nullable());
export type PackageContents = z.infer<typeof PackageContentsSchema>;

/** Spec §3 `platform`: 0 standard, 1 extension. */
export const BillingPlatform = { standard: 0, extension: 1 } as const;

export const CatalogueInputSchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    description: z.string().trim().max(1000).default(''),
    platform: z.union([z.literal(0), z.literal(1)]).default(0),
    contents: PackageContentsSchema.refine((c) => Object.keys(c).length > 0, 'at least one package field'),
    /** Price of one month, in cents. */
    month_price: money,
    /** 1 on sale, 0 withdrawn. */
    status: z.union([z.literal(0), z.literal(1)]).default(1),
    sort: z.number().int().min(0).max(10_000).default(0),
  })
  .strict();
export type CatalogueInput = z.infer<typeof CatalogueInputSchema>;

export const CataloguePackageSchema = CatalogueInputSchema.extend({
  id: UuidSchema,
  created_at: z.number(),
  updated_at: z.number(),
}).meta({ id: 'CataloguePackage' });
export type CataloguePackage = z.infer<typeof CataloguePackageSchema>;

export const ContentItemInputSchema = z
  .object({
    field: PackageFieldSchema,
    name: z.string().trim().min(1).max(64),
    /** How many of the field one unit adds (e.g. 1 device, 1 GB). */
    unit: z.number().int().min(1).max(100_000).default(1),
    /** Price of one unit for one month, in cents. */
    unit_price: money,
  })
  .strict();
export type ContentItemInput = z.infer<typeof ContentItemInputSchema>;
export const ContentItemSchema = ContentItemInputSchema.extend({ id: UuidSchema });
export type ContentItem = z.infer<typeof ContentItemSchema>;

export const StageDiscountInputSchema = z
  .object({
    /** From this many months bought at once … */
    min_months: z.number().int().min(1).max(120),
    /** … the price is this percent of the list price. */
    percent: z.number().int().min(1).max(100),
  })
  .strict();
export const StageDiscountSchema = StageDiscountInputSchema.extend({ id: UuidSchema });
export type StageDiscount = z.infer<typeof StageDiscountSchema>;

export const CouponInputSchema = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{4,32}$/, '4-32 letters, digits, _ or -'),
    name: z.string().trim().max(64).default(''),
    amount_off: money.min(1),
    min_amount: money.default(0),
    valid_from: z.number().int().min(0).nullable().default(null),
    valid_to: z.number().int().min(0).nullable().default(null),
    max_uses: z.number().int().min(1).max(1_000_000).nullable().default(null),
    status: z.union([z.literal(0), z.literal(1)]).default(1),
  })
  .strict();
export type CouponInput = z.infer<typeof CouponInputSchema>;
export const CouponSchema = CouponInputSchema.extend({ id: UuidSchema, used: z.number().int() });
export type Coupon = z.infer<typeof CouponSchema>;

/** Order type (spec §3 order `type`): 1 a catalogue package, 2 more capacity (the capacity form). */
export const OrderType = { package: 1, capacity: 2 } as const;
/** Order pattern (spec §3 order `pattern`): 1 starts when paid, 2 a renewal, starting when the last paid package ends. */
export const OrderPattern = { new: 1, renew: 2 } as const;
/** The ways to pay; a provider plugs in under its own name. */
export const PAY_TYPES = ['bank-transfer'] as const;
export const ORDER_STATES = ['unpaid', 'paying', 'confirming', 'paid', 'active', 'expired', 'cancelled', 'refunded'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const ORDER_MAX_MONTHS = 36;
/** A receipt: a PNG, JPEG or WebP image or a PDF, at most this big. */
export const ORDER_RECEIPT_MAX_BYTES = 5 * 1024 * 1024;

/** The capacity form's numbers (spec §5 limits: at least current, at most 100000). */
const CapacityContentsSchema = z.partialRecord(z.enum(CAPACITY_FIELDS), z.number().int().min(0).max(CAPACITY_MAX));

export const OrderInputSchema = z
  .object({
    type: z.union([z.literal(OrderType.package), z.literal(OrderType.capacity)]),
    pattern: z.union([z.literal(OrderPattern.new), z.literal(OrderPattern.renew)]).default(OrderPattern.new),
    /** type 1: the catalogue package bought. */
    package_id: UuidSchema.optional(),
    /** type 2: the package values wanted. */
    content: CapacityContentsSchema.optional(),
    /** Months. */
    duration: z.number().int().min(1).max(ORDER_MAX_MONTHS),
    coupon_code: z.string().trim().max(32).optional(),
    pay_type: z.enum(PAY_TYPES).default('bank-transfer'),
  })
  .strict();
export type OrderInput = z.infer<typeof OrderInputSchema>;

export const OrderQuoteSchema = z.object({
  to_package_content: PackageContentsSchema,
  list_amount: z.number().int(),
  discount_amount: z.number().int(),
  coupon_amount: z.number().int(),
  pay_amount: z.number().int(),
  /** The stage discount that applied, in percent of the list price. */
  discount_percent: z.number().int().nullable(),
});
export type OrderQuote = z.infer<typeof OrderQuoteSchema>;

export const OrderSchema = OrderQuoteSchema.extend({
  id: UuidSchema,
  tenant_id: UuidSchema,
  tenant_name: z.string().optional(),
  order_no: z.string(),
  type: z.number().int(),
  pattern: z.number().int(),
  from_package_id: z.string().nullable(),
  to_package_id: z.string().nullable(),
  to_package_name: z.string().nullable(),
  duration: z.number().int(),
  coupon_id: z.string().nullable(),
  pay_type: z.string(),
  state: z.enum(ORDER_STATES),
  trade_no: z.string().nullable(),
  has_receipt: z.boolean(),
  remark: z.string(),
  start_time: z.number().nullable(),
  end_time: z.number().nullable(),
  paid_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
}).meta({ id: 'Order' });
export type Order = z.infer<typeof OrderSchema>;

/** What the payer is told after `pay`: where to send the money, and the reference to quote. */
export const PaymentInstructionsSchema = z.object({
  pay_type: z.string(),
  amount: z.number().int(),
  reference: z.string(),
  /** The account to transfer to (null: the platform gives it on request). */
  account: z.string().nullable(),
  /** Whether the payer uploads a receipt that a system manager confirms. */
  receipt: z.boolean(),
});
export const OrderPaySchema = z.object({ order: OrderSchema, instructions: PaymentInstructionsSchema });

export const OrderQuerySchema = PageQuerySchema.extend({
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  state: z.enum(ORDER_STATES).optional(),
});
export const OrderAllQuerySchema = OrderQuerySchema.extend({ tenant_name: z.string().max(64).optional() });
export const OrderPageSchema = pageOf(OrderSchema);

/** A system manager confirming a transfer: the bank's transaction number. */
export const OrderConfirmSchema = z
  .object({ trade_no: z.string().trim().min(1).max(64), remark: z.string().trim().max(500).default('') })
  .strict();
export const OrderRemarkSchema = z.object({ remark: z.string().trim().max(500).default('') }).strict();

export const CatalogueQuerySchema = z.object({ all: z.coerce.number().int().min(0).max(1).default(0) });
