-- Scheduled jobs of a tenant (spec §3 job, §7 /job-mgmt) and the log of each run. The queue that
-- runs them (pg-boss, schema pgboss) creates its own tables at start.
create table jobs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  cron_expression text not null,
  execution_method smallint not null default 0,
  handler_action_id text not null,
  handler_custom_param jsonb not null default '{}',
  start_time timestamptz,
  end_time timestamptz,
  retry_times int not null default 0,
  retry_period int not null default 60,
  status smallint not null default 1,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index jobs_enabled on jobs (status) where status = 1;

create table job_logs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  job_id uuid not null references jobs(id) on delete cascade,
  scheduled_at timestamptz not null,
  attempt int not null,
  state text not null,
  message text,
  result jsonb,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  -- One log per try of a due minute, whichever server copy ran it.
  unique (job_id, scheduled_at, attempt)
);
create index job_logs_tenant on job_logs (tenant_id, started_at desc);
