-- Super-session (spec §7 control super-session): a system manager opens a tenant's console as that
-- tenant's manager. The session names who opened it and whether it may change anything; every use
-- is written to the tenant's operation log and to the platform's, marked as such.
alter table sessions add column acting_user_id uuid references users(id) on delete cascade;
alter table sessions add column read_only boolean not null default false;
alter table op_logs add column super_session boolean not null default false;
