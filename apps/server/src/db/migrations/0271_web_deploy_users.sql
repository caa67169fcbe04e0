-- Web deployment (spec §7 /out-web): the saved deploy configuration, the server configuration, and
-- the web-deploy users, a role of their own whose sessions reach only /out-web (decision 0171).
create table web_deploy_config (
  id boolean primary key default true check (id),
  resource_path text not null default '/can',
  is_debug smallint not null default 0,
  server_config jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now()
);
insert into web_deploy_config (id) values (true);

create table web_deploy_users (
  id uuid primary key default gen_random_uuid(),
  username text not null unique,
  password_hash text not null,
  failed_logins int not null default 0,
  locked_until timestamptz,
  last_login_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);

-- A session is a random token kept as its SHA-256 digest.
create table web_deploy_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references web_deploy_users(id) on delete cascade,
  token_hash text not null unique,
  ip text,
  expires_at timestamptz not null,
  ended_at timestamptz,
  created_at timestamptz not null default now()
);
create index web_deploy_sessions_user on web_deploy_sessions (user_id);

-- Who did it: a person (user_id) or a web-deploy user (deploy_user_id; a refused login names none).
alter table web_deploy_logs add column deploy_user_id uuid references web_deploy_users(id) on delete set null;
alter table web_deploy_logs add column by_deploy_user boolean not null default false;
alter table web_versions add column created_by_deploy_user uuid references web_deploy_users(id) on delete set null;
