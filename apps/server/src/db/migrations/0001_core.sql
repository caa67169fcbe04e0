-- Core: tenants, users, sessions, server secrets, push log, operation log, settings.
create table tenants (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  tenant_type smallint not null default 0,
  organization_name text,
  mobile text,
  email text,
  address text,
  country text,
  province text,
  city text,
  industry text,
  description text,
  -- 0 pending review, 1 active, 2 rejected, 3 disabled
  status smallint not null default 1,
  audited boolean not null default true,
  platform smallint not null default 0,
  belong_platform text,
  priority smallint not null default 0,
  merchant_id uuid references tenants(id),
  is_system boolean not null default false,
  is_demo boolean not null default false,
  return_visit_time timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  username text not null,
  name text not null,
  nick_name text,
  mobile text,
  area_code text not null default '86',
  email text,
  password_hash text not null,
  is_manager boolean not null default false,
  system_manager boolean not null default false,
  parent_user_id uuid references users(id) on delete set null,
  description text,
  department text,
  gender text not null default 'male',
  job text,
  avatar text,
  status smallint not null default 1,
  failed_logins integer not null default 0,
  locked_until timestamptz,
  last_login_ip text,
  last_login_time timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, username)
);
create unique index users_mobile_uq on users (mobile) where mobile is not null and parent_user_id is null;
create unique index users_email_uq on users (lower(email)) where email is not null;

create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
create index sessions_user_idx on sessions (user_id);

create table server_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- Every message sent out (codes, alerts): the notification push log of spec §7.
create table push_logs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid references tenants(id) on delete cascade,
  channel text not null,            -- email | sms | voice
  destination text not null,
  purpose text not null,            -- register | modify | login | alert | ...
  subject text,
  text text not null,
  status text not null default 'sent', -- queued | sent | failed | logged
  attempts integer not null default 0,
  error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index push_logs_dest_idx on push_logs (destination, created_at desc);
create index push_logs_time_idx on push_logs (created_at desc);

-- Every change made through the API (UserManager/Log).
create table op_logs (
  id bigint generated always as identity primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid,
  username text,
  method text not null,
  path text not null,
  status integer not null,
  ip text,
  created_at timestamptz not null default now()
);
create index op_logs_tenant_idx on op_logs (tenant_id, created_at desc);

-- Tenant customisation (spec §3: key/value list).
create table tenant_customizations (
  tenant_id uuid not null references tenants(id) on delete cascade,
  key text not null,
  value text not null,
  primary key (tenant_id, key)
);

-- Per-user configuration (column choices etc.): key -> JSON value.
create table user_configs (
  user_id uuid not null references users(id) on delete cascade,
  key text not null,
  value text not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, key)
);

-- Sub-user grants (spec §6): permission keys, menu bindings and per-device access.
create table user_grants (
  user_id uuid not null references users(id) on delete cascade,
  key text not null,
  primary key (user_id, key)
);
create table user_menus (
  user_id uuid not null references users(id) on delete cascade,
  menu text not null,
  primary key (user_id, menu)
);
-- things_id refers to things(id); the devices migration adds the foreign key.
create table user_device_access (
  user_id uuid not null references users(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null,
  access text not null check (access in ('read', 'write')),
  primary key (user_id, things_id)
);
