-- Tenant flow and ranking (spec §7 /data-mgmt: tenant flow/ranking/usage): what each device sent per
-- hour of arrival (accepted uplink messages, the CAN frames and payload bytes they carried) and the
-- messages forwarding delivered out for it. Counted in memory on each server copy and added here
-- every few seconds, never on the PUBACK path (docs/decisions/0175-tenant-flow-and-ranking.md).
-- A deleted device's rows stay: its traffic is still part of the tenant's flow.
create table traffic_hourly (
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null,
  hour timestamptz not null,
  messages bigint not null default 0,
  frames bigint not null default 0,
  bytes bigint not null default 0,
  forwarded bigint not null default 0,
  primary key (things_id, hour)
);
create index traffic_hourly_tenant_idx on traffic_hourly (tenant_id, hour);
