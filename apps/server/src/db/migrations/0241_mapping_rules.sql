-- Mapping rules (spec §7 /mapping-mgmt mapping-rule-infos): a device's raw uplink keys (free-form JSON
-- telemetry) or decoded CAN signal names onto the status properties of its info model, at ingest.

create table mapping_rules (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  info_model_id uuid not null references device_types(id) on delete cascade,
  source text not null check (source in ('json', 'can')),
  -- 1 applied at ingest, 0 kept only
  status smallint not null default 1,
  -- [{"source_key": "t1", "target": "env.temperature", "scale": 0.01, "offset": 0, "unit": "0.01 °C"}]
  mappings jsonb not null default '[]',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index mapping_rules_model_idx on mapping_rules (tenant_id, info_model_id) where status = 1;
