-- User behaviour (spec §7 /out-wrapper): the console's header clicks, with the tenant and user of
-- the session that posted them, summarised for the system manager by module, action and tenant.
create table user_behaviours (
  id bigint generated always as identity primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  platform text not null,
  module text not null,
  action text not null,
  at timestamptz not null default now()
);
create index user_behaviours_at_idx on user_behaviours (at);
