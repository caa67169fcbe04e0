-- Raw CAN frame storage: one row per uplink batch ("chunk"), the batch bytes kept as the device
-- sent them (format: docs/device-protocol.md). Partitioned by day on the first frame time so that
-- retention and quick delete drop whole partitions; partitions are created on demand by the writer.
create table frame_chunks (
  tenant_id uuid not null,
  things_id uuid not null,
  -- µs since the Unix epoch of the first and the last frame in the chunk
  time_start bigint not null,
  time_end bigint not null,
  -- device session (boot) id and batch sequence from the header: a re-sent batch is stored once
  session bigint not null,
  seq bigint not null,
  frame_count integer not null,
  -- bit n = the chunk holds frames of CAN channel n (n < 31; channel >= 31 sets bit 31)
  channel_mask integer not null,
  -- distinct arbitration ids in the chunk, for filtering without decoding
  ids integer[] not null,
  data bytea not null,
  received_at timestamptz not null default now()
) partition by range (time_start);
create unique index frame_chunks_uq on frame_chunks (things_id, time_start, session, seq);
-- Chunks are already compact binary: compressing them again costs CPU on every write for little gain.
alter table frame_chunks alter column data set storage external;

-- Bytes and frames stored per device and day: the tenant's capacity, kept in step with partitions.
create table storage_usage (
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null,
  day date not null,
  bytes bigint not null default 0,
  frames bigint not null default 0,
  chunks bigint not null default 0,
  primary key (things_id, day)
);
create index storage_usage_tenant_idx on storage_usage (tenant_id, day);

-- Export tasks (spec §4 download task wire codes: 1 initialising, 4 querying, 2 organising,
-- 5 generating, 3 done; 6 cancelled, 7 failed are ours).
create table download_tasks (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  format text not null,
  params jsonb not null,
  status smallint not null default 1,
  process_rate integer not null default 0,
  data_count bigint not null default 0,
  output_count bigint not null default 0,
  data_bytes bigint not null default 0,
  upload_bytes bigint not null default 0,
  estimated_time integer not null default 0,
  file_path text,
  file_name text,
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index download_tasks_things_idx on download_tasks (things_id, created_at desc);
