-- Work orders (spec §3) with every status change recorded; images live in DATA_DIR.
create sequence work_order_seq;

create table work_orders (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  -- Human-facing number, e.g. WO20240501000042
  identifier text not null unique,
  name text not null,
  feedback_type text not null check (feedback_type in ('question', 'fault', 'suggestion', 'capacity', 'other')),
  belong_function text not null default '',
  phone text not null default '',
  description text not null,
  status text not null default 'pending'
    check (status in ('pending', 'process', 'wait', 'done', 'abandon', 'refuse')),
  initiator_id uuid references users(id) on delete set null,
  initiator_name text not null,
  handler_id uuid references users(id) on delete set null,
  handler_name text,
  remark text not null default '',
  -- Capacity requests: the package values asked for, applied when the handler says so.
  capacity_request jsonb,
  applied boolean not null default false,
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default clock_timestamp()
);
create index work_orders_tenant_idx on work_orders (tenant_id, created_at desc);
create index work_orders_status_idx on work_orders (status, created_at desc);

create table work_order_history (
  id bigint generated always as identity primary key,
  work_order_id uuid not null references work_orders(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  from_status text,
  to_status text not null,
  by_user_id uuid references users(id) on delete set null,
  by_name text not null,
  remark text not null default '',
  at timestamptz not null default clock_timestamp()
);
create index work_order_history_order_idx on work_order_history (work_order_id, id);

create table work_order_images (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  uploader_id uuid references users(id) on delete set null,
  work_order_id uuid references work_orders(id) on delete cascade,
  -- original file name, shown only
  name text not null,
  mime text not null,
  size integer not null,
  -- path under DATA_DIR
  path text not null,
  position smallint not null default 0,
  created_at timestamptz not null default now()
);
create index work_order_images_order_idx on work_order_images (work_order_id, position);
