-- Panels of a dashboard (spec §3 Panel: chart_type, dashboard_id, name, description, panel_order,
-- x_axis_type). A panel shows decoded signals of one device CAN channel. Deleting the device (or
-- the dashboard) deletes its panels; unbinding the channel deletes them in the unbind's transaction.
create table dashboard_panels (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  dashboard_id uuid not null references dashboards(id) on delete cascade,
  name text not null check (char_length(name) between 1 and 32),
  description text not null default '' check (char_length(description) <= 200),
  chart_type text not null check (chart_type in ('line', 'number', 'gauge')),
  -- the time window of a line panel
  x_axis_type text not null check (x_axis_type in ('10m', '30m', '1h', '6h', '24h', '7d')),
  panel_order integer not null,
  things_id uuid not null references things(id) on delete cascade,
  channel smallint not null check (channel between 0 and 255),
  -- [{message, signal}]: 1-10 for a line panel, exactly 1 for a number or gauge panel
  signals jsonb not null check (jsonb_typeof(signals) = 'array' and jsonb_array_length(signals) between 1 and 10),
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index dashboard_panels_dashboard_idx on dashboard_panels (dashboard_id, panel_order);
create index dashboard_panels_channel_idx on dashboard_panels (things_id, channel);
create index dashboard_panels_tenant_idx on dashboard_panels (tenant_id);
