-- The organisation of a tenant's devices (spec §1, §3, §7): the label registry that device labels
-- refer to, device groups, and group commands (one device command per member).

create table tenant_labels (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  label text not null,
  description text,
  label_value text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, label)
);

-- Device labels so far named their label freely ({tenantLabelId: 'fleet', labelValue}). Each name a
-- tenant used becomes a registry label, and the devices' labels then refer to it by its id: no
-- device loses a label or its value.
insert into tenant_labels (tenant_id, label)
select distinct t.tenant_id, e.l ->> 'tenantLabelId'
from things t, jsonb_array_elements(case when jsonb_typeof(t.labels) = 'array' then t.labels else '[]'::jsonb end) as e(l)
where coalesce(e.l ->> 'tenantLabelId', '') <> ''
on conflict (tenant_id, label) do nothing;

update things t
set labels = coalesce(
  (
    select jsonb_agg(jsonb_set(e.l, '{tenantLabelId}', to_jsonb(tl.id::text)) order by e.ord)
    from jsonb_array_elements(t.labels) with ordinality as e(l, ord)
    join tenant_labels tl on tl.tenant_id = t.tenant_id and tl.label = e.l ->> 'tenantLabelId'
  ),
  '[]'::jsonb
)
where jsonb_typeof(t.labels) = 'array' and jsonb_array_length(t.labels) > 0;

create table device_groups (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table device_group_things (
  tenant_id uuid not null references tenants(id) on delete cascade,
  group_id uuid not null references device_groups(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (group_id, things_id)
);
create index device_group_things_things_idx on device_group_things (things_id);

-- A group command is the members' device commands sent together; each member's state is its
-- device command's (device_commands, by correlation id), so it moves as a single command does.
create table group_commands (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  group_id uuid not null references device_groups(id) on delete cascade,
  description text,
  operation_name text not null,
  operation_params jsonb not null default '{}',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index group_commands_group_idx on group_commands (group_id, created_at desc);

create table group_command_items (
  group_command_id uuid not null references group_commands(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  correlation_id text not null,
  primary key (group_command_id, things_id)
);
