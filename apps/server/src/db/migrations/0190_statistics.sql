-- Statistics (spec §7 /data-mgmt): tasks running a method over devices × signals × hourly or daily
-- windows, their results (one row per task, device, signal and window) and the history of runs.
create table statistics_tasks (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  method text not null,
  params jsonb not null default '{}',
  things_ids uuid[] not null,
  -- [{message, signal, channel?}]; empty for distance (GPS fixes)
  signals jsonb not null default '[]',
  period text not null check (period in ('hour', 'day')),
  utc_offset int not null default 0,
  status smallint not null default 1,
  -- ms: the windows before this have been computed on schedule
  computed_until bigint not null,
  last_run_at timestamptz,
  last_error text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index statistics_tasks_enabled on statistics_tasks (computed_until) where status = 1;

create table statistics_results (
  tenant_id uuid not null references tenants(id) on delete cascade,
  task_id uuid not null references statistics_tasks(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  signal text not null,
  window_start bigint not null,
  window_end bigint not null,
  value float8,
  samples bigint not null,
  unit text not null default '',
  computed_at timestamptz not null default now(),
  primary key (task_id, things_id, signal, window_start)
);
create index statistics_results_window on statistics_results (task_id, window_start);

create table statistics_runs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  task_id uuid not null references statistics_tasks(id) on delete cascade,
  trigger text not null,
  range_start bigint not null,
  range_end bigint not null,
  windows int not null default 0,
  results int not null default 0,
  error text,
  started_at timestamptz not null default now(),
  finished_at timestamptz
);
create index statistics_runs_tenant on statistics_runs (tenant_id, started_at desc);
