-- Trigger rules, e-fences, alert events, rule states and the notification outbox
-- (spec §3 trigger rule / alert event / e-fence, §9 limits).

create table fences (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  type text not null check (type in ('region', 'border')),
  -- {"shape": "polygon", "points": [{lat, lon}]} | {"shape": "circle", "center": {lat, lon}, "radius": m}
  region jsonb,
  -- {"points": [{lat, lon}], "tolerance": m}
  border jsonb,
  description text not null default '',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index fences_name_uq on fences (tenant_id, name);

create table fence_things (
  fence_id uuid not null references fences(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  primary key (fence_id, things_id)
);
create index fence_things_things_idx on fence_things (things_id);

create table trigger_rules (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  -- The user who made it: counts against that user's 20 rules, gets its in-app messages.
  owner_id uuid not null references users(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  name text not null,
  data_type text not null check (data_type in ('raw', 'signal', 'fence')),
  channel smallint,
  frame_format text not null default 'standard' check (frame_format in ('standard', 'extended')),
  frame_type text not null default 'data' check (frame_type in ('data', 'remote')),
  frame_id integer,
  conditions jsonb not null default '[]',
  condition_join text not null default 'and' check (condition_join in ('and', 'or')),
  status smallint not null default 1 check (status in (0, 1)),
  level text not null default 'ordinary' check (level in ('ordinary', 'urgent')),
  share boolean not null default false,
  description text not null default '',
  alert_description text not null default '',
  actions jsonb not null default '{}',
  frequency jsonb not null default '{}',
  recover_action jsonb not null default '{}',
  -- restrict: deleting a fence in use is refused by the service first
  fence_id uuid references fences(id) on delete restrict,
  fence_rule text check (fence_rule in ('in', 'out')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index trigger_rules_name_uq on trigger_rules (tenant_id, name);
create index trigger_rules_things_idx on trigger_rules (things_id);
create index trigger_rules_owner_idx on trigger_rules (owner_id);
create index trigger_rules_fence_idx on trigger_rules (fence_id);

-- Evaluation state per rule and device, written only on edges (fire / recover) so that a restart
-- neither fires again for a condition that is still true nor forgets when actions last went out.
create table alert_rule_states (
  rule_id uuid not null references trigger_rules(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  active boolean not null,
  last_event_id uuid,
  -- {"email": ms, "sms": ms, "voice": ms, "command": ms, "recover:email": ms, …}: last time each action went out
  marks jsonb not null default '{}',
  updated_at timestamptz not null default now(),
  primary key (rule_id, things_id)
);

create table alert_events (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  rule_id uuid references trigger_rules(id) on delete set null,
  rule_name text not null,
  owner_id uuid,
  share boolean not null default false,
  things_id uuid not null references things(id) on delete cascade,
  level text not null,
  source_type text not null check (source_type in ('trigger', 'fence')),
  event_data jsonb not null default '{}',
  handler text,
  -- 0 unhandled, 1 being handled, 2 handled, 3 ignored
  handler_status smallint not null default 0,
  handler_description text,
  handled_at timestamptz,
  created_at timestamptz not null default now(),
  recovered_at timestamptz
);
create index alert_events_tenant_idx on alert_events (tenant_id, created_at desc);
create index alert_events_things_idx on alert_events (things_id, created_at desc);
create index alert_events_rule_idx on alert_events (rule_id);

-- Alert notifications not yet delivered: the push log row holds status (queued / sent / failed),
-- attempts and the last error; this row says when to try again.
create table alert_outbox (
  push_log_id uuid primary key references push_logs(id) on delete cascade,
  next_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index alert_outbox_next_idx on alert_outbox (next_at);
