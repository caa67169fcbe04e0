-- DBC files, signal strategies and the binding of device CAN channels to them (spec §3, §4, §7 mapping-mgmt).

create table dbc_files (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  -- spec §9: DBC protocol defaults to 2
  protocol smallint not null default 2,
  file_name text not null,
  -- The file as uploaded (decoded to text): decoders are compiled from it, downloads return it.
  content text not null,
  size integer not null,
  message_count integer not null,
  signal_count integer not null,
  -- [{id, ext, name, length, fd, transmitter, cycle_time, comment, signals: [...]}]: the messages view
  -- without parsing the text again.
  summary jsonb not null,
  warnings jsonb not null default '[]',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index dbc_files_name_uq on dbc_files (tenant_id, name);
create index dbc_files_tenant_idx on dbc_files (tenant_id, created_at desc);

create table signal_strategies (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null check (name ~ '^[A-Za-z_][A-Za-z0-9_]*$'),
  nickname text,
  description text,
  -- A strategy lives and dies with its DBC file (deleting a bound file is refused first).
  dbc_id uuid not null references dbc_files(id) on delete cascade,
  -- [{message, signal}], 1-100
  signals jsonb not null,
  remark text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index signal_strategies_name_uq on signal_strategies (tenant_id, name);
create index signal_strategies_dbc_idx on signal_strategies (dbc_id);

-- One DBC (or strategy) per device CAN channel; state 1 started (decode and store), 0 paused.
create table channel_dbc_bindings (
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  channel smallint not null check (channel between 0 and 255),
  -- restrict: the service refuses with mapping.dbc-in-use before the database would
  dbc_id uuid not null references dbc_files(id) on delete restrict,
  strategy_id uuid references signal_strategies(id) on delete restrict,
  state smallint not null default 1 check (state in (0, 1)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (things_id, channel)
);
create index channel_dbc_bindings_dbc_idx on channel_dbc_bindings (dbc_id);
create index channel_dbc_bindings_strategy_idx on channel_dbc_bindings (strategy_id);
create index channel_dbc_bindings_tenant_idx on channel_dbc_bindings (tenant_id);
