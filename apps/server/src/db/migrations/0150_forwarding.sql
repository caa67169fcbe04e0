-- Things-forward rules (spec §7 /alert-mgmt): which devices and data of a tenant go to which
-- destination, with their delivery counters; the durable outbox each rule delivers from, in order
-- per device; and the dead letters a user inspects and replays (docs/decisions/0126).

create table forward_rules (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text,
  -- 1 enabled, 0 disabled (nothing captured), 2 paused (captured, not delivered).
  status smallint not null default 1,
  -- 'all' | 'group' | 'labels'
  device_scope text not null default 'all',
  group_id uuid references device_groups(id) on delete set null,
  label_ids jsonb not null default '[]'::jsonb,
  -- subset of 'frames', 'signals', 'alerts', 'status'
  data_kinds jsonb not null,
  filter jsonb not null default '{}'::jsonb,
  destination_kind text not null,
  destination jsonb not null,
  delivered bigint not null default 0,
  failed bigint not null default 0,
  dead_lettered bigint not null default 0,
  dropped bigint not null default 0,
  latency_sum_ms bigint not null default 0,
  last_latency_ms integer,
  last_error text,
  last_error_at timestamptz,
  last_delivered_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index forward_rules_tenant_idx on forward_rules (tenant_id);

create table forward_outbox (
  id bigserial primary key,
  rule_id uuid not null references forward_rules(id) on delete cascade,
  tenant_id uuid not null,
  things_id uuid,
  kind text not null,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_at timestamptz not null default now(),
  last_error text
);
create index forward_outbox_rule_idx on forward_outbox (rule_id, id);

create table forward_dead_letters (
  id bigserial primary key,
  rule_id uuid not null references forward_rules(id) on delete cascade,
  tenant_id uuid not null,
  things_id uuid,
  kind text not null,
  payload jsonb not null,
  created_at timestamptz not null,
  failed_at timestamptz not null default now(),
  attempts integer not null,
  error text
);
create index forward_dead_letters_rule_idx on forward_dead_letters (rule_id, id);
