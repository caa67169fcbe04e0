-- HMI screens (spec /out-hmi, package quota `hmi`): a tenant's operator screens, a canvas of widgets
-- bound to device signals and properties, and the HMI users (sub-users) each published screen is
-- given to.
create table hmi_screens (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  canvas jsonb not null default '{"row_height":40,"widgets":[]}',
  status smallint not null default 0,
  published_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table hmi_user_screens (
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  screen_id uuid not null references hmi_screens(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, screen_id)
);
create index hmi_user_screens_screen on hmi_user_screens (screen_id);
