-- ECU management (spec §3 ECU, fault-code file) and ECU flashing over UDS.
-- Files of a tenant used by ECUs: fault-code (DTC) lists, firmware packages, unlock (seed/key) files.
create table candtu_files (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  type text not null check (type in ('dtc','firmware','unlock')),
  name text not null,
  file_name text not null,
  size bigint not null,
  md5 text not null,
  -- dtc: [{code, name}]; unlock: the parsed unlock file; firmware: null (bytes in the file store)
  content jsonb,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  unique (tenant_id, type, name)
);

create table ecus (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  -- CAN ids: physical request, response, functional request
  physical_address bigint not null,
  response_address bigint not null,
  function_address bigint,
  frame_type text not null default 'standard' check (frame_type in ('standard','extended')),
  dtc_file_id uuid references candtu_files(id),
  firmware_file_id uuid references candtu_files(id),
  unlock_file_id uuid references candtu_files(id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table ecu_flash_jobs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  ecu_id uuid not null references ecus(id) on delete cascade,
  firmware_file_id uuid not null references candtu_files(id),
  channel smallint not null,
  state text not null check (state in ('running','done','failed','cancelled')),
  step text,
  progress integer not null default 0,
  reason text,
  cancel_requested boolean not null default false,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index ecu_flash_jobs_things_idx on ecu_flash_jobs (tenant_id, things_id, created_at desc);
create unique index ecu_flash_jobs_running_uq on ecu_flash_jobs (things_id, channel) where state = 'running';
