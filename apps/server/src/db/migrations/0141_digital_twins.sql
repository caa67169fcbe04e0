-- Digital twins of devices (spec §3 digital_twin_things_status, §7 digital-twin-things), the event log
-- of their models, and twin rules evaluated on reported changes (spec §3 twins rule).

create table thing_twins (
  things_id uuid primary key references things(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  -- {"block.identifier": {"value": v, "ts": ms}}: the last value the device reported of each property
  reported jsonb not null default '{}',
  -- {"block.identifier": v}: what the console or the API wants the device to hold
  desired jsonb not null default '{}',
  desired_version integer not null default 0,
  desired_at timestamptz,
  acked_version integer not null default 0,
  ack_code integer,
  ack_message text,
  acked_at timestamptz,
  reported_at timestamptz
);
create index thing_twins_tenant_idx on thing_twins (tenant_id);

create table thing_model_events (
  id bigserial primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  block text not null,
  event text not null,
  -- the event's type in the model: data, log or status (null when the model does not name it)
  event_type text,
  data jsonb not null default '{}',
  ts timestamptz not null,
  created_at timestamptz not null default now()
);
create index thing_model_events_thing_idx on thing_model_events (things_id, ts desc);

create table twin_rules (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  -- 1 enabled, 0 disabled
  status smallint not null default 1,
  shadow_type text not null default 'reported' check (shadow_type in ('reported')),
  -- [{"field": "block.identifier", "op": ">", "value": "30", "value_type": 1, "join": "and"}]
  trigger_condition jsonb not null default '[]',
  -- {"info_model_id": …, "things_ids": […]}: which devices the rule watches (all of the tenant when empty)
  trigger_filter jsonb not null default '{}',
  -- [{"id": …, "type": "desired", "values": {"block.identifier": v}} | {"id": …, "type": "event"}]
  actions jsonb not null default '[]',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table twin_rule_fires (
  id bigserial primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  rule_id uuid not null references twin_rules(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  -- the reported values of the rule's fields when it fired
  values jsonb not null default '{}',
  actions jsonb not null default '[]',
  fired_at timestamptz not null default now()
);
create index twin_rule_fires_rule_idx on twin_rule_fires (rule_id, fired_at desc);
create index twin_rule_fires_thing_idx on twin_rule_fires (things_id, fired_at desc);
