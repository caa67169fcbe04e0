-- Entities (spec §7 /mapping-mgmt): the raw uplink shapes (JSON keys or CAN signal names) that mapping
-- rules take their source keys from.

create table mapping_entities (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  source text not null check (source in ('json', 'can')),
  -- [{"key": "t_raw", "name": "Probe", "data_type": 1, "unit": "0.1 °C"}]
  fields jsonb not null default '[]',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

alter table mapping_rules add column entity_id uuid references mapping_entities(id) on delete set null;
