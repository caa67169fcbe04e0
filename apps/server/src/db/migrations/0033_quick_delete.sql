-- Quick-delete tasks (spec §4 storage mode "device quick delete", §7 data service quick-delete
-- task): a device's stored data within an optional time range, deleted step by step in the
-- background; progress is the share of steps done (one per partition-day of frames, then
-- decoded signals, GPS fixes and recalled files per device).
create table quick_delete_tasks (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  things_ids uuid[] not null,
  -- ms since the Unix epoch, [start_time, end_time); null = unbounded
  start_time bigint,
  end_time bigint,
  -- 1 waiting, 2 deleting, 3 done, 4 failed
  status smallint not null default 1 check (status in (1, 2, 3, 4)),
  steps_done integer not null default 0,
  steps_total integer not null default 0,
  deleted_frames bigint not null default 0,
  deleted_bytes bigint not null default 0,
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index quick_delete_tasks_tenant_idx on quick_delete_tasks (tenant_id, created_at desc);
