-- Common roles (spec §7 control common-roles): roles the system manager defines once for every
-- tenant. They live beside the tenants' own roles with no tenant; a tenant manager gives them to
-- sub-users like its own roles, but only the system manager changes them.
alter table tenant_roles alter column tenant_id drop not null;
create unique index tenant_roles_common_name_idx on tenant_roles (name) where tenant_id is null;

-- Platform settings the system manager edits (the global menu configuration of spec §2/§3), one
-- JSON value per key.
create table platform_settings (
  key text primary key,
  value jsonb not null,
  updated_by uuid references users(id) on delete set null,
  updated_at timestamptz not null default now()
);
