-- Info models with function blocks and categories (spec §3, §7 /mapping-mgmt; decision 0123).
-- A device type is an info model: device_types keeps its rows and ids, and gains a category.

create table function_blocks (
  id uuid primary key default gen_random_uuid(),
  -- null = public (platform) block, offered to every tenant read-only
  tenant_id uuid references tenants(id) on delete cascade,
  name text not null check (name ~ '^[A-Za-z_][A-Za-z0-9_]{0,63}$'),
  display_name text not null,
  description text not null default '',
  json_schema jsonb not null default '{"events": [], "status": [], "operations": [], "configuration": []}',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index function_blocks_name_uq on function_blocks (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid), name);

create table model_categories (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  -- {"fn_block_ids": [...]}: the blocks a new model of the category starts with
  template jsonb not null default '{"fn_block_ids": []}',
  created_at timestamptz not null default now()
);
create unique index model_categories_name_uq on model_categories (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid), name);

alter table device_types
  add column category_id uuid references model_categories(id) on delete set null,
  add column updated_at timestamptz not null default now();

create table info_model_fn_blocks (
  info_model_id uuid not null references device_types(id) on delete cascade,
  fn_block_id uuid not null references function_blocks(id) on delete restrict,
  sort integer not null default 0,
  primary key (info_model_id, fn_block_id)
);
create index info_model_fn_blocks_block_idx on info_model_fn_blocks (fn_block_id);

-- Every existing device type is now an info model under its old id; the public ones get a category.
insert into model_categories (name, description) values
  ('CAN logger', 'CAN / CAN FD data loggers'),
  ('IoT device', 'Plain IoT devices sending JSON telemetry');
update device_types set category_id = (select id from model_categories where tenant_id is null and name = 'CAN logger')
  where tenant_id is null and thing_type = 0;
update device_types set category_id = (select id from model_categories where tenant_id is null and name = 'IoT device')
  where tenant_id is null and thing_type = 1;
