-- Edge-computing rules (spec §7 /alert-mgmt): run on the device before upload, issued to devices as
-- `edge.set_rule` commands; each issuance keeps the command it went in, whose state is the device's answer.

create table edge_rules (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  info_model_id uuid not null references device_types(id) on delete cascade,
  kind text not null check (kind in ('filter', 'aggregate')),
  -- block.identifier of a numeric status property of the model
  field text not null,
  -- filter: upload only when the value moved by more than this
  threshold double precision,
  -- aggregate: mean, min or max over window_s seconds
  fn text check (fn in ('mean', 'min', 'max')),
  window_s integer,
  version integer not null default 1,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table edge_rule_issuances (
  id bigserial primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  rule_id uuid not null references edge_rules(id) on delete cascade,
  rule_version integer not null,
  things_id uuid not null references things(id) on delete cascade,
  group_id uuid references device_groups(id) on delete set null,
  -- the device_commands row the rule went in: its state is the device's acceptance
  correlation_id text not null,
  issued_by uuid references users(id) on delete set null,
  issued_at timestamptz not null default now()
);
create index edge_rule_issuances_tenant_idx on edge_rule_issuances (tenant_id, issued_at desc);
create index edge_rule_issuances_rule_idx on edge_rule_issuances (rule_id, issued_at desc);
create index edge_rule_issuances_thing_idx on edge_rule_issuances (things_id, issued_at desc);
