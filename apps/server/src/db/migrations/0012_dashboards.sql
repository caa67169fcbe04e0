-- Dashboards (spec §3): business_type, name, owner, tenant. The manager's default dashboard
-- (business_type candtu_dashboard_default) is created at the manager's first login; every user
-- of the tenant uses it, so there is at most one per tenant.
create table dashboards (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  owner_id uuid not null references users(id) on delete cascade,
  business_type text not null,
  name text not null,
  created_at timestamptz not null default now()
);
create index dashboards_tenant_type_idx on dashboards (tenant_id, business_type, created_at);
create unique index dashboards_default_once_idx on dashboards (tenant_id) where business_type = 'candtu_dashboard_default';
