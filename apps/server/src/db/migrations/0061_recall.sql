-- File recall (device storage data, spec §4): one task per file fetched from a logger's SD card,
-- and the recalled files kept per device.
create table recall_tasks (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  batch_id uuid,
  filename text not null,
  -- Size the device listed / reported; null until known.
  size bigint,
  -- sending: command out; device: the device is on it; fetching: parts arriving; done; failed; cancelled; timeout
  state text not null check (state in ('sending','device','fetching','done','failed','cancelled','timeout')),
  code text,
  message text,
  received bigint not null default 0,
  -- One-time upload token in the URL the device uploads to; cleared when the task ends.
  token text unique,
  correlation_id text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index recall_tasks_things_idx on recall_tasks (tenant_id, things_id, created_at desc);
create index recall_tasks_batch_idx on recall_tasks (batch_id) where batch_id is not null;

create table recall_files (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  -- things id + '_' + file name (spec §7), unique per tenant: the download name.
  name text not null,
  filename text not null,
  size bigint not null,
  sha256 text not null,
  -- File time as the device listed it (ms), else the recall time.
  file_time bigint,
  stored_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index recall_files_things_idx on recall_files (tenant_id, things_id, stored_at desc);
