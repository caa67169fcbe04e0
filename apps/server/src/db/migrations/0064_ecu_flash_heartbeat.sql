-- ECU flash jobs report each step; a running job silent for long lost the server copy running it.
alter table ecu_flash_jobs add column updated_at timestamptz not null default now();
