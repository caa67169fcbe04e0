-- Back-fill: when DBC parsing starts on a channel that already holds raw frames, the frames of a
-- chosen range may be decoded in the background. One row per task; progress counts frames read.
create table dbc_backfills (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  channel integer not null,
  -- ms since the Unix epoch, [begin_time, end_time)
  begin_time bigint not null,
  end_time bigint not null,
  state text not null default 'running' check (state in ('running', 'done', 'failed', 'cancelled')),
  total_frames bigint not null default 0,
  done_frames bigint not null default 0,
  samples bigint not null default 0,
  error text,
  -- raw chunks received after this moment are decoded on ingest, not by the back-fill
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index dbc_backfills_channel_idx on dbc_backfills (things_id, channel, created_at desc);
