-- Tenant data-keeping choice (spec §3 tenant quotas reclaim_policy, max_reserves_duration;
-- §7 PUT /tenant/users/self/tenant-spec). 0 = keep data as long as the package allows;
-- 1 = reclaim space earlier: data older than max_reserves_duration days goes.
alter table tenants add column reclaim_policy smallint not null default 0 check (reclaim_policy in (0, 1));
alter table tenants add column max_reserves_duration integer check (max_reserves_duration > 0);
alter table tenants add constraint tenants_reserves_with_policy check ((reclaim_policy = 1) = (max_reserves_duration is not null));
