-- Remote operations: device commands (spec §7 async message envelope) and their responses.

-- One row per command sent (or to be sent) to a device. `state` tells honestly where it is:
--   queued     the device was offline; the server sends it when the device comes back
--   sent       published to the device's live session, no acknowledgement yet
--   delivered  the device acknowledged it (MQTT PUBACK seen by the embedded broker, or a partial response)
--   answered   final response with code 0
--   failed     final response with a non-zero code, or the send failed
--   timeout    no final response within timeout_ms of the last sign of life
--   expired    still queued at expires_at: never sent
--   cancelled  cancelled by a user while queued
create table device_commands (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  correlation_id text not null unique,
  operation_name text not null,
  operation_params jsonb not null default '{}',
  description text,
  headers jsonb not null default '{}',
  -- The full spec §7 envelope as it goes on the wire.
  envelope jsonb not null,
  state text not null check (state in ('queued','sent','delivered','answered','failed','timeout','expired','cancelled')),
  code integer,
  message text,
  -- Last response payload (final or partial).
  result jsonb,
  progress integer,
  timeout_ms integer not null,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  delivered_at timestamptz,
  answered_at timestamptz,
  -- Deadline of the current state: sent/delivered time out at it, queued expires at it.
  deadline_at timestamptz not null,
  updated_at timestamptz not null default now()
);
create index device_commands_things_idx on device_commands (tenant_id, things_id, created_at desc);
create index device_commands_open_idx on device_commands (state, deadline_at) where state in ('queued','sent','delivered');

-- Every response a device sent (partial progress reports and final answers), spec §7 "message responses".
create table device_command_responses (
  id bigint generated always as identity primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  correlation_id text not null,
  code integer not null,
  message text,
  payload jsonb,
  partial boolean not null default false,
  received_at timestamptz not null default now()
);
create index device_command_responses_corr_idx on device_command_responses (tenant_id, correlation_id, id);

-- Last configuration read from or written to a device (spec §9 ranges), for export and display.
create table device_configs (
  things_id uuid primary key references things(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  config jsonb not null,
  source text not null check (source in ('read','write')),
  updated_at timestamptz not null default now()
);
