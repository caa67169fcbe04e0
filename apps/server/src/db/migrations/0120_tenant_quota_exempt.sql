-- A tenant the system manager has exempted from its package limits (issue 14). Every tenant,
-- the platform's own included, is held to its quotas until the flag is set.
alter table tenants add column quota_exempt boolean not null default false;
