-- Console versions (spec §7 /out-web deploy/web): built console bundles kept in the file store
-- (web/<id>/…), one of them released and served by every server copy; the deploy log.
create table web_versions (
  id uuid primary key default gen_random_uuid(),
  version text not null unique,
  description text not null default '',
  file_count int not null,
  bytes bigint not null,
  released_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now()
);

-- The release history: the newest row is what is served (none: the console built with the server).
create table web_releases (
  id bigserial primary key,
  version_id uuid references web_versions(id) on delete cascade,
  created_at timestamptz not null default now()
);

create table web_deploy_logs (
  id uuid primary key default gen_random_uuid(),
  action text not null,
  version text not null,
  user_id uuid references users(id) on delete set null,
  username text not null,
  created_at timestamptz not null default now()
);
