-- One package (quotas) per tenant, created with the defaults of spec §3 on first use.
create table tenant_packages (
  tenant_id uuid primary key references tenants(id) on delete cascade,
  info_model integer default 50,
  things_num integer default 2,
  can_things_num integer,
  ies_things_num integer,
  single_data_export integer default 0,
  maximum_total_number_documents_stored integer default 0,
  database_storage_space integer default 2,          -- GB
  device_file_traffic_management integer default 0,  -- MB
  alert_sms integer default 1000,
  alert_tps integer default 0,
  sub_user_num integer default 100,
  label_num integer default 100,
  maximum_data_retention_days integer default 180,
  number_simultaneous_connections integer default 0,
  up_down_stream_connections integer default 0,
  edge_computing integer default 10,
  push_rule integer default 50,
  push_tps integer default 0,
  alert_rule integer default 50,
  hmi integer default 10,
  data_analysis integer default 10,
  twins_rule_on integer,
  rule_capacity integer default 20,
  max_batch_recall_size integer default 10,
  quick_delete_things_num integer default 0,
  -- 0 general, 1 exclusive, 2 device quick delete
  special_storage smallint not null default 0 check (special_storage in (0, 1, 2)),
  -- [{third_things_id, info_model_name, info_model_id}]
  quick_delete_things_list jsonb not null default '[]',
  platform smallint not null default 0,
  updated_at timestamptz not null default now()
);

-- Bytes a tenant stores outside the frame chunks (recalled files, exports, uploads), per device;
-- the nil UUID holds tenant-wide files. Frame chunk bytes are counted in storage_usage.
create table tenant_storage_usage (
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null,
  bytes bigint not null default 0 check (bytes >= 0),
  updated_at timestamptz not null default now(),
  primary key (tenant_id, things_id)
);
