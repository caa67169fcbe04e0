-- Download templates (a saved export run again on demand) and clean tasks (a device's data older
-- than N days deleted daily, at most 1 million rows a run) of spec §7 /data-mgmt
-- (docs/decisions/0161-templates-and-clean-tasks.md).
create table download_templates (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  things_ids uuid[] not null,
  format text not null,
  channels jsonb not null default '[]',
  ids jsonb not null default '[]',
  plugin_id uuid references data_plugins(id) on delete set null,
  begin_time bigint,
  end_time bigint,
  last_hours integer,
  last_run_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table clean_tasks (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  things_id uuid not null references things(id) on delete cascade,
  keep_days integer not null,
  status smallint not null default 1,
  last_run_at timestamptz,
  last_deleted bigint,
  last_limited boolean not null default false,
  last_error text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index clean_tasks_due on clean_tasks (last_run_at) where status = 1;
