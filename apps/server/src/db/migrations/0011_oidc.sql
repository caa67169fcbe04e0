-- Third-party login through an OpenID Connect provider.

-- An account's link to a provider identity: (issuer, subject) names one person at one provider.
create table user_identities (
  issuer text not null,
  subject text not null,
  user_id uuid not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (issuer, subject)
);
create unique index user_identities_user_issuer_idx on user_identities (user_id, issuer);

-- A login or link in progress: what the callback needs to finish it (single use, short-lived).
create table oidc_states (
  state text primary key,
  code_verifier text not null,
  nonce text not null,
  -- Set when a signed-in user links their account (from the user centre); null for a login.
  link_user_id uuid references users(id) on delete cascade,
  pre_path text,
  pre_query text,
  expires_at timestamptz not null
);
