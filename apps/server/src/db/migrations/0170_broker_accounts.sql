-- Device accounts the server keeps on an external broker (MQTT_DYNSEC): which device IDs it created
-- and the digest of the key it gave each, so a reconciliation sees missing, re-keyed and deleted
-- devices. Not scoped by tenant: device IDs are unique platform-wide, as the broker's usernames are.
create table broker_accounts (
  device_id text primary key,
  key_digest text not null,
  synced_at timestamptz not null default now()
);
