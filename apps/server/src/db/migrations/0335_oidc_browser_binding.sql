-- A third-party login or link is tied to the browser that started it: the browser keeps a random
-- state of its own (sessionStorage) and sends its digest with the start; the provider's return
-- leaves only a one-time code, which that browser exchanges with the state itself (POST).
alter table oidc_states add column browser_state_hash text;

-- What a return left to be exchanged: single use, short-lived, bound to the browser's state.
create table oidc_codes (
  code_hash text primary key,
  browser_state_hash text not null,
  -- 'login': user_id is the account to sign in; 'link': user_id is the account that links (issuer, subject).
  kind text not null check (kind in ('login', 'link')),
  user_id uuid not null references users(id) on delete cascade,
  issuer text,
  subject text,
  pre_path text,
  pre_query text,
  expires_at timestamptz not null
);
