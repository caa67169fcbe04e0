-- Exports and log uploads one tenant may run at once (package field, decision 0205): checked before
-- the work starts, so one tenant's burst of exports cannot fill the server's time for the others.
alter table tenant_packages add column if not exists concurrent_data_jobs integer default 3;
