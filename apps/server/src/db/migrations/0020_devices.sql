-- Devices (spec §3 Device, Thing, CAN channel), device types, vehicles, device event log.

-- Device types (info models of CAN loggers and plain IoT devices) with their CAN channel count.
-- tenant_id null = public type offered to every tenant.
create table device_types (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid references tenants(id) on delete cascade,
  name text not null,
  display_name text,
  description text,
  can_channels smallint not null default 2 check (can_channels between 0 and 16),
  -- 0 CAN logger, 1 plain IoT device (JSON telemetry)
  thing_type smallint not null default 0,
  created_at timestamptz not null default now()
);
create unique index device_types_name_uq on device_types (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid), name);

insert into device_types (name, display_name, description, can_channels, thing_type) values
  ('CANDTU-100', 'CANDTU-100', 'CAN logger, 1 channel', 1, 0),
  ('CANDTU-200', 'CANDTU-200', 'CAN/CAN FD logger, 2 channels', 2, 0),
  ('CANDTU-400', 'CANDTU-400', 'CAN/CAN FD logger, 4 channels', 4, 0),
  ('CANDTU-800', 'CANDTU-800', 'CAN/CAN FD logger, 8 channels', 8, 0),
  ('IOT-DEVICE', 'IoT device', 'Plain IoT device sending JSON telemetry', 0, 1);

create table things (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  -- The device ID the logger authenticates with: 20 upper-case hex digits, unique platform-wide.
  third_things_id text not null unique check (third_things_id ~ '^[0-9A-F]{20}$'),
  name text not null,
  description text,
  info_model_id uuid not null references device_types(id),
  thing_type smallint not null default 0,
  parent_things_id uuid references things(id) on delete set null,
  things_key text not null,
  collected boolean not null default false,
  labels jsonb not null default '[]',
  -- {"channels": [{"index", "typeId", "status", "signalStrategy"}]}
  attributes jsonb not null default '{}',
  is_online boolean not null default false,
  -- 0 never connected, 1 online, 2 offline
  connection_status smallint not null default 0,
  digital_twin_things_status smallint not null default 0,
  sd_card_status text,
  firmware text,
  server text,
  -- bit n = CAN channel n enabled, as last reported by the device
  channel_enable integer not null default 0,
  malformed_count bigint not null default 0,
  last_seen_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index things_tenant_idx on things (tenant_id, created_at desc);

alter table user_device_access
  add constraint user_device_access_things_fk foreign key (things_id) references things(id) on delete cascade;
create index user_device_access_things_idx on user_device_access (things_id);

-- Vehicles (CarManager): channels bind vehicle buses to device CAN channels.
create table vehicles (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  vin text check (vin is null or vin ~ '^[A-HJ-NPR-Z0-9]{17}$'),
  description text,
  -- [{"name", "things_id", "channel"}]
  channels jsonb not null default '[]',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index vehicles_tenant_idx on vehicles (tenant_id, created_at desc);
create unique index vehicles_vin_uq on vehicles (tenant_id, vin) where vin is not null;

-- Per-device event log: connect, disconnect, errors, malformed uplinks, status changes.
create table device_events (
  id bigint generated always as identity primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  at timestamptz not null default now(),
  kind text not null,
  message text not null,
  detail jsonb
);
create index device_events_things_idx on device_events (things_id, at desc);
