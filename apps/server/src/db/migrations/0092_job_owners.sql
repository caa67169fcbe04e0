-- Work interrupted by a crash ends visibly (docs/decisions/0096-interrupted-jobs.md). Each running
-- server copy keeps its row here fresh; a long-running job names the copy running its server-side
-- part in `owner`. A job whose owner has no fresh row was interrupted: the next start (or a live copy)
-- resumes it or ends it as failed with a reason.
create table server_copies (
  id uuid primary key,
  -- host-port, as the copy's ingest session is named: a copy restarted under its name knows that
  -- its predecessor is gone without waiting for the lease to run out
  name text not null,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now()
);

alter table download_tasks add column owner uuid;
create index download_tasks_open_idx on download_tasks (created_at) where status in (1, 2, 4, 5);

alter table quick_delete_tasks add column owner uuid;
create index quick_delete_tasks_open_idx on quick_delete_tasks (created_at) where status in (1, 2);

alter table dbc_backfills add column owner uuid;
-- interrupted: the server stopped while it ran and the channel no longer decodes, so it was not resumed
alter table dbc_backfills drop constraint dbc_backfills_state_check;
alter table dbc_backfills add constraint dbc_backfills_state_check
  check (state in ('running', 'done', 'failed', 'cancelled', 'interrupted'));
create index dbc_backfills_running_idx on dbc_backfills (created_at) where state = 'running';

alter table ecu_flash_jobs add column owner uuid;

alter table firmware_upgrades add column owner uuid;
create index firmware_upgrades_open_idx on firmware_upgrades (created_at) where state in ('idle', 'busy');

alter table recall_tasks add column owner uuid;
create index recall_tasks_open_idx on recall_tasks (created_at) where state in ('sending', 'device', 'fetching');
