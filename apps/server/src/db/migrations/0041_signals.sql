-- Decoded signal storage (ARCHITECTURE "Data, at rest and moving"): per signal, compact chunks of
-- samples plus min/max/sum/count roll-ups at 1 s and 1 min, so that a month-long curve reads a few
-- hundred roll-up rows and a zoom reads a few raw chunks. Encodings: modules/signals/sample-codec.ts.

-- One series per (device, channel, message, signal): the small integer key every chunk carries.
create table signal_series (
  id bigint generated always as identity primary key,
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  channel smallint not null,
  message text not null,
  signal text not null,
  unit text not null default '',
  first_ts bigint,
  last_ts bigint,
  samples bigint not null default 0,
  -- bytes of chunks and roll-ups, reported to the tenant's capacity
  bytes bigint not null default 0,
  created_at timestamptz not null default now()
);
create unique index signal_series_uq on signal_series (things_id, channel, message, signal);
create index signal_series_tenant_idx on signal_series (tenant_id);

-- Raw samples. A chunk never crosses a 1-minute boundary (t_start >= the minute it lies in), so a
-- range query reads t_start in [minute(begin), end) on the primary index alone.
create table signal_chunks (
  series_id bigint not null references signal_series(id) on delete cascade,
  -- µs since the Unix epoch of the first and last sample
  t_start bigint not null,
  t_end bigint not null,
  n integer not null,
  -- value codec: 0 scaled integers (raw = (v - v_offset) / v_factor, bit-packed deltas), 1 float32, 2 float64
  codec smallint not null,
  v_factor float8 not null default 1,
  v_offset float8 not null default 0,
  v_min float8 not null,
  v_max float8 not null,
  ts bytea not null,
  vals bytea not null,
  -- several flushes may write into the same minute: ingest order, not a key
  id bigint generated always as identity,
  primary key (series_id, t_start, id)
);

-- Roll-up blocks: level 1 = 60 one-second cells (a minute), level 60 = 60 one-minute cells (an hour).
-- cells: 60 float64 minima, 60 maxima, 60 sums, then 60 uint32 counts, little-endian.
create table signal_rollups (
  series_id bigint not null references signal_series(id) on delete cascade,
  level smallint not null check (level in (1, 60)),
  t_start bigint not null,
  cells bytea not null,
  primary key (series_id, level, t_start)
);
-- Small, already dense blocks: compression would cost every read for little.
alter table signal_rollups alter column cells set storage external;
