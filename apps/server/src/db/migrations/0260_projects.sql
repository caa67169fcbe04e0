-- Projects (spec §1, §7): a project holds devices, groups, vehicles and sub-users. A sub-user who
-- is a member of a project sees only the devices of its projects (those held directly, those of
-- its groups and those bound to its vehicles), at the access its membership gives.
--
-- Every device check reads user_device_access. It becomes a view over what applies: the devices a
-- manager granted one by one (now the table user_device_grants) for a sub-user in no project, the
-- projects' devices for a member. The checks themselves do not change.

alter table user_device_access rename to user_device_grants;
alter table user_device_grants rename constraint user_device_access_things_fk to user_device_grants_things_fk;
alter index user_device_access_things_idx rename to user_device_grants_things_idx;

create table projects (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table project_things (
  tenant_id uuid not null references tenants(id) on delete cascade,
  project_id uuid not null references projects(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (project_id, things_id)
);
create index project_things_things_idx on project_things (things_id);

create table project_groups (
  tenant_id uuid not null references tenants(id) on delete cascade,
  project_id uuid not null references projects(id) on delete cascade,
  group_id uuid not null references device_groups(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (project_id, group_id)
);

create table project_vehicles (
  tenant_id uuid not null references tenants(id) on delete cascade,
  project_id uuid not null references projects(id) on delete cascade,
  vehicle_id uuid not null references vehicles(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (project_id, vehicle_id)
);

create table project_users (
  tenant_id uuid not null references tenants(id) on delete cascade,
  project_id uuid not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  access text not null check (access in ('read', 'write')),
  created_at timestamptz not null default now(),
  primary key (project_id, user_id)
);
create index project_users_user_idx on project_users (user_id);

-- A project's devices: held directly, through its groups, through its vehicles' channels.
create view project_devices as
  select p.project_id, p.tenant_id, p.things_id from project_things p
  union
  select pg.project_id, pg.tenant_id, m.things_id
    from project_groups pg join device_group_things m on m.group_id = pg.group_id
  union
  select pv.project_id, pv.tenant_id, (c.value ->> 'things_id')::uuid
    from project_vehicles pv
    join vehicles v on v.id = pv.vehicle_id
    cross join lateral jsonb_array_elements(case when jsonb_typeof(v.channels) = 'array' then v.channels else '[]'::jsonb end) as c(value)
   where coalesce(c.value ->> 'things_id', '') ~* '^[0-9a-f-]{36}$';

create view user_device_access as
  select g.user_id, g.tenant_id, g.things_id, g.access
    from user_device_grants g
   where not exists (select 1 from project_users pu where pu.user_id = g.user_id)
  union all
  select pu.user_id, pu.tenant_id, d.things_id, max(pu.access) as access -- 'write' > 'read'
    from project_users pu
    join project_devices d on d.project_id = pu.project_id
    join things t on t.id = d.things_id and t.tenant_id = pu.tenant_id
   group by pu.user_id, pu.tenant_id, d.things_id;
