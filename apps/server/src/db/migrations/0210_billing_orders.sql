-- Billing (spec §3 packages and their contents, content items, stage discounts, coupons, orders;
-- §4 order actions). Money is in cents (integers). Decision 0143.

-- The package catalogue: what a tenant can buy. `contents` holds package fields (spec §3 user
-- package: things_num, database_storage_space, …) and their values; platform 0 standard, 1 extension.
create table billing_packages (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  description text not null default '',
  platform smallint not null default 0 check (platform in (0, 1)),
  contents jsonb not null default '{}',
  month_price bigint not null check (month_price >= 0),
  -- 1 on sale, 0 withdrawn (kept for the orders that name it)
  status smallint not null default 1 check (status in (0, 1)),
  sort int not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Content items: the price of one more unit of a package field, per month (what a capacity order costs).
create table billing_content_items (
  id uuid primary key default gen_random_uuid(),
  field text not null unique,
  name text not null,
  unit int not null default 1 check (unit > 0),
  unit_price bigint not null check (unit_price >= 0),
  created_at timestamptz not null default now()
);

-- Stage discounts: from `min_months` bought at once, the price is `percent` of the list price.
create table billing_stage_discounts (
  id uuid primary key default gen_random_uuid(),
  min_months int not null unique check (min_months between 1 and 120),
  percent int not null check (percent between 1 and 100),
  created_at timestamptz not null default now()
);

create table billing_coupons (
  id uuid primary key default gen_random_uuid(),
  code text not null unique,
  name text not null default '',
  amount_off bigint not null check (amount_off > 0),
  min_amount bigint not null default 0 check (min_amount >= 0),
  valid_from timestamptz,
  valid_to timestamptz,
  -- null: any number of orders
  max_uses int check (max_uses is null or max_uses > 0),
  used int not null default 0,
  status smallint not null default 1 check (status in (0, 1)),
  created_at timestamptz not null default now()
);

create table billing_orders (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  order_no text not null unique,
  -- 1 package (the buy-package prompt), 2 capacity (the capacity form)
  type smallint not null check (type in (1, 2)),
  -- 1 new purchase, 2 renewal (starts when the tenant's last paid order ends)
  pattern smallint not null default 1 check (pattern in (1, 2)),
  from_package_id uuid references billing_packages(id) on delete set null,
  to_package_id uuid references billing_packages(id) on delete set null,
  to_package_content jsonb not null,
  -- the package's platform (0 standard, 1 extension); null for a capacity order
  to_platform smallint,
  duration int not null check (duration between 1 and 120),
  coupon_id uuid references billing_coupons(id) on delete set null,
  pay_type text not null default 'bank-transfer',
  list_amount bigint not null,
  discount_amount bigint not null default 0,
  coupon_amount bigint not null default 0,
  pay_amount bigint not null check (pay_amount >= 0),
  -- unpaid, paying, confirming (receipt uploaded), paid, active, expired, cancelled, refunded
  state text not null default 'unpaid',
  trade_no text,
  receipt_path text,
  receipt_name text,
  receipt_mime text,
  remark text not null default '',
  start_time timestamptz,
  end_time timestamptz,
  -- the package values before this order applied, per field it sets (what its end restores)
  fallback jsonb,
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index billing_orders_tenant on billing_orders (tenant_id, created_at desc);
create index billing_orders_due on billing_orders (state, start_time) where state in ('paid', 'active');
