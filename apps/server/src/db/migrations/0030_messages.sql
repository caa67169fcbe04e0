-- In-app user messages (spec §3) and announcements (spec §7 /out-web/notice).
create table user_messages (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  -- Plain text, stored as given: the console escapes it, nothing interprets it as HTML.
  title text not null,
  content text not null,
  message_type text not null,
  -- 1 badge on the bell, 2 dialog
  reminder_mode smallint not null default 1 check (reminder_mode in (1, 2)),
  platform smallint not null default 0,
  -- 0 unread, 1 read, 2 deleted (kept, hidden from the default list)
  read_status smallint not null default 0 check (read_status in (0, 1, 2)),
  -- clock_timestamp: several messages sent in one transaction still sort in sending order
  send_time timestamptz not null default clock_timestamp(),
  read_at timestamptz
);
create index user_messages_user_idx on user_messages (tenant_id, user_id, read_status, send_time desc);

-- Platform-wide announcements written by system managers; not tenant data.
create table notices (
  id uuid primary key default gen_random_uuid(),
  kind text not null default 'notice' check (kind in ('notice', 'upgrade')),
  title text not null,
  content text not null default '',
  platform smallint,
  version text,
  start_time timestamptz,
  end_time timestamptz,
  is_show boolean not null default true,
  changes jsonb not null default '[]',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (end_time is null or start_time is null or end_time > start_time)
);
create index notices_active_idx on notices (is_show, end_time);

-- Per-user "do not show again".
create table notice_user_states (
  notice_id uuid not null references notices(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  no_longer_show boolean not null default false,
  updated_at timestamptz not null default now(),
  primary key (notice_id, user_id)
);
create index notice_user_states_user_idx on notice_user_states (user_id) where no_longer_show;
