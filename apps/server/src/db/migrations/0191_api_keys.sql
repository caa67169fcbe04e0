-- Tenant API keys for machines (docs/decisions/0138-api-keys.md): a key names permission keys (at
-- most its creator's) and optionally the devices it may reach; only a hash of its secret is kept.
-- A key limited to devices acts through a machine account (users.machine) whose device grants are
-- that scope, so every device check that reads user_device_access applies to it unchanged.
alter table users add column machine boolean not null default false;

create table api_keys (
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  name text not null,
  -- the public part of the token, to find the key; the secret is only kept as its SHA-256
  prefix text not null unique,
  secret_hash text not null,
  permissions text[] not null,
  -- null: every device its creator can reach
  things_ids uuid[],
  machine_user_id uuid references users(id) on delete set null,
  created_by uuid not null references users(id) on delete cascade,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  last_used_ip text,
  created_at timestamptz not null default now()
);
create index api_keys_tenant on api_keys (tenant_id, created_at desc);
