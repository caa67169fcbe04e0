-- Data transform and export plugins (spec §7 /data-mgmt): a JSONata expression kept as data, never
-- code (docs/decisions/0160-plugins-as-jsonata.md). A forwarding rule may name a transform plugin;
-- an export may name an export plugin.
create table data_plugins (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  -- 'transform' | 'export'
  type text not null check (type in ('transform', 'export')),
  expression text not null,
  description text,
  -- export plugins: the first line of the file and its extension
  header text,
  file_extension text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index data_plugins_tenant_idx on data_plugins (tenant_id, type);

alter table forward_rules add column transform_plugin_id uuid references data_plugins(id) on delete restrict;
alter table forward_rules add column filtered bigint not null default 0;
