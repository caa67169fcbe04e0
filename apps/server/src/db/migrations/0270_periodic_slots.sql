-- Periodic work shorter than a minute (the command sweep, the alert outbox's retries): each server
-- copy ticks, and the one that moves a task's row to the current time slot runs it, so with N copies
-- each slot runs once. One row per task, updated in place (decision 0170).
create table periodic_slots (
  name text primary key,
  slot bigint not null,
  holder uuid not null,
  ran_at timestamptz not null default now()
);
