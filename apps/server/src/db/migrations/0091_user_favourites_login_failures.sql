-- Favourites (spec §3 device "collected" flag) belong to the user who starred the device, not to
-- the device: a read-only sub-user's star must not change what anybody else sees.
create table user_favourite_things (
  user_id uuid not null references users(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  -- Set for a read-only session (the experience account, one user shared by every visitor):
  -- its stars are its own and go with it.
  session_id uuid references sessions(id) on delete cascade,
  created_at timestamptz not null default now()
);
create unique index user_favourite_things_uq
  on user_favourite_things (user_id, things_id, coalesce(session_id, '00000000-0000-0000-0000-000000000000'::uuid));
create index user_favourite_things_things_idx on user_favourite_things (things_id);
create index user_favourite_things_session_idx on user_favourite_things (session_id) where session_id is not null;

-- The old device-wide flags become favourites of their tenant's manager, who set most of them
-- (sub-users could only since they could reach the route); the demo tenant's are dropped.
insert into user_favourite_things (user_id, tenant_id, things_id)
  select u.id, t.tenant_id, t.id
    from things t
    join tenants tn on tn.id = t.tenant_id and not tn.is_demo
    join users u on u.tenant_id = t.tenant_id and u.is_manager and u.parent_user_id is null
   where t.collected;
alter table things drop column collected;

-- An export started by a read-only session belongs to that session alone.
alter table download_tasks add column session_id uuid;
create index download_tasks_session_idx on download_tasks (tenant_id, session_id) where session_id is not null;

-- Failed password logins per login name as typed, known or not: the lock-out answer is the same
-- for a real account and for a name nobody has, so it cannot tell which names exist.
create table login_failures (
  login text primary key,
  failures integer not null default 0,
  locked_until timestamptz,
  updated_at timestamptz not null default now()
);
create index login_failures_updated_idx on login_failures (updated_at);
