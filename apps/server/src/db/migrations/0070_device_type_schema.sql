-- Data schema of device types (spec §3 "Device type: data groups and fields"): how the console
-- shows the telemetry of plain IoT devices. Each tenant keeps its own schema, for its own types
-- and for the public ones (tenant_id null in device_types), so one tenant's edits never show
-- in another's console.

create table device_type_groups (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  device_type_id uuid not null references device_types(id) on delete cascade,
  name text not null,
  display_name text not null default '',
  description text not null default '',
  sort integer not null default 0,
  created_at timestamptz not null default now()
);
create unique index device_type_groups_name_uq on device_type_groups (tenant_id, device_type_id, name);

create table device_type_fields (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  group_id uuid not null references device_type_groups(id) on delete cascade,
  name text not null check (name ~ '^[A-Za-z_][A-Za-z0-9_]*$'),
  display_name text not null default '',
  is_array boolean not null default false,
  is_display boolean not null default true,
  notes text not null default '',
  display_format text not null default 'original_string' check (display_format in (
    'decimal', 'hex', 'hex_bytes', 'original_long', 'time', 'accuracy', 'original_string', 'hexstr_to_hex', 'hexstr_to_ascii')),
  accuracy smallint not null default 2 check (accuracy between 0 and 10),
  time_format text not null default 'YYYY-MM-DD HH:mm:ss',
  time_unit text not null default 'ms' check (time_unit in ('ms', 's')),
  sort integer not null default 0,
  created_at timestamptz not null default now()
);
create unique index device_type_fields_name_uq on device_type_fields (group_id, name);
create index device_type_fields_tenant_idx on device_type_fields (tenant_id);
