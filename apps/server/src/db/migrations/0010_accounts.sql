-- Accounts: verification codes (SMS / e-mail), audit trail of tenant review.

-- One row per code sent. Only an HMAC of the code is kept; the newest unconsumed
-- row of a destination is the one that counts.
create table verification_codes (
  id uuid primary key default gen_random_uuid(),
  channel text not null check (channel in ('sms', 'email')),
  destination text not null,
  purpose text not null check (purpose in ('register', 'modify', 'login')),
  code_hash text not null,
  attempts integer not null default 0,
  ip text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index verification_codes_dest_idx on verification_codes (destination, created_at desc);
create index verification_codes_ip_idx on verification_codes (ip, created_at desc);

alter table tenants add column audited_at timestamptz;
alter table tenants add column audit_remark text;

create index op_logs_tenant_user_idx on op_logs (tenant_id, user_id, created_at desc);
create index users_parent_idx on users (parent_user_id) where parent_user_id is not null;
