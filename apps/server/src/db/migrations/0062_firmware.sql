-- Firmware management and device upgrades (spec §3 Firmware, §4 firmware upgrade, §7 firmware paths).
create table firmwares (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  -- xx.xx.xx, 1-2 digits each; version_num orders versions (xx*10000 + xx*100 + xx).
  version text not null check (version ~ '^[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}$'),
  version_num integer not null,
  model_id uuid not null references device_types(id) on delete cascade,
  description text,
  type text not null check (type in ('self','outer')),
  sub_dev_id text,
  file_name text not null,
  size bigint not null,
  sha256 text not null,
  to_public boolean not null default false,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  unique (tenant_id, model_id, type, version)
);
create index firmwares_model_idx on firmwares (model_id, version_num desc);

-- One upgrade of one device. States of spec §4 (idle, busy, invalid, flash success, flash failed)
-- plus 'scheduled' (waits for its time) and 'cancelled'.
create table firmware_upgrades (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  firmware_id uuid not null references firmwares(id) on delete cascade,
  version text not null,
  state text not null check (state in ('scheduled','idle','busy','invalid','flash success','flash failed','cancelled')),
  progress integer not null default 0,
  code text,
  message text,
  -- One-time download token in the URL the device fetches the image from.
  token text unique,
  correlation_id text,
  scheduled_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index firmware_upgrades_things_idx on firmware_upgrades (tenant_id, things_id, created_at desc);
create index firmware_upgrades_due_idx on firmware_upgrades (scheduled_at) where state = 'scheduled';
-- At most one running upgrade per device (spec: repeated operation blocked until it finishes).
create unique index firmware_upgrades_running_uq on firmware_upgrades (things_id) where state = 'busy';
