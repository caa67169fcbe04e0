-- Test management (spec §1 TestManager, §3 test routine and analysis script, §4 test analysis states):
-- Groovy analysis scripts with their saved versions, routines of steps, runs on devices and reports.

create table test_scripts (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  notes text not null default '',
  -- the current content; every saved content is also in test_script_versions
  content text not null,
  version integer not null default 1,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);

create table test_script_versions (
  tenant_id uuid not null references tenants(id) on delete cascade,
  script_id uuid not null references test_scripts(id) on delete cascade,
  version integer not null,
  content text not null,
  notes text not null default '',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (script_id, version)
);

create table test_routines (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  description text not null default '',
  -- ordered steps: send_can, command, config, wait, collect (packages/contract schemas/testmgmt.ts)
  steps jsonb not null,
  -- a script in use cannot be deleted (the service says why; the key keeps it so)
  script_id uuid not null references test_scripts(id),
  params jsonb not null default '{}',
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (tenant_id, name)
);
create index test_routines_script_idx on test_routines (script_id);

-- One routine on one device. queued: waits for the device's running test (one at a time per device);
-- sending / collecting / analyzing: running (owner = the server copy running it, see 0092_job_owners);
-- analyzed: the report is written (verdict pass, fail or error); failed, cancelled: with a reason.
create table test_runs (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  batch_id uuid not null,
  routine_id uuid references test_routines(id) on delete set null,
  routine_name text not null,
  things_id uuid not null references things(id) on delete cascade,
  state text not null check (state in ('queued', 'sending', 'collecting', 'analyzing', 'analyzed', 'failed', 'cancelled')),
  dry_run boolean not null default false,
  -- what runs, as it was at the start (a routine or script edited later does not change a run)
  steps jsonb not null,
  script_id uuid references test_scripts(id) on delete set null,
  script_name text not null,
  script_version integer not null,
  script_content text not null,
  params jsonb not null default '{}',
  -- where the run is: the step it is on and what that step has done so far (a command's correlation
  -- id, the end of a wait or collect), so a run interrupted by a restart resumes where it was
  step integer not null default 0,
  step_state jsonb,
  -- collected (or, for a dry run, analysed) ranges: [{from, to}] in epoch ms
  windows jsonb not null default '[]',
  progress integer not null default 0,
  verdict text check (verdict in ('pass', 'fail', 'error')),
  reason text,
  reason_code text,
  cancel_requested boolean not null default false,
  owner uuid,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index test_runs_tenant_idx on test_runs (tenant_id, created_at desc);
create index test_runs_things_idx on test_runs (things_id, created_at);
create index test_runs_open_idx on test_runs (created_at) where state in ('queued', 'sending', 'collecting', 'analyzing');
-- One test at a time per device: at most one run of a device is past the queue and not finished.
create unique index test_runs_device_running_uq on test_runs (things_id)
  where state in ('sending', 'collecting', 'analyzing') and not dry_run;

create table test_reports (
  run_id uuid primary key references test_runs(id) on delete cascade,
  tenant_id uuid not null references tenants(id) on delete cascade,
  verdict text not null check (verdict in ('pass', 'fail', 'error')),
  metrics jsonb not null default '[]',
  tables jsonb not null default '[]',
  checks jsonb not null default '[]',
  charts jsonb not null default '[]',
  log text not null default '',
  error jsonb,
  frames integer not null default 0,
  created_at timestamptz not null default now()
);
