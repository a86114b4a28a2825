// Issue 34: sign-in through an OpenID Connect provider (docs/access.md "Sign in with a provider").
// - An account made by a provider sign-in has no password until its owner sets one (forgot
//   password): password_hash becomes nullable, and a null hash never matches a password.
// - user_identities links a provider's subject to an account: the link, not the email, is what a
//   later sign-in matches first (an address can change at the provider; the subject cannot).
// - oidc_sign_in_attempts holds what one authorization request needs back at the callback
//   (PKCE verifier, nonce, where to return, the account being linked). A row is used once
//   (deleted at the callback) and lives 10 minutes; the state names it only as a hash.
export const m036_oidc_identities = `
alter table users alter column password_hash drop not null;

create table user_identities (
  issuer text not null,
  subject text not null,
  user_id uuid not null references users(id) on delete cascade,
  email text not null,
  created_at timestamptz not null default now(),
  last_sign_in_at timestamptz,
  primary key (issuer, subject)
);
create index user_identities_user on user_identities (user_id);

create table oidc_sign_in_attempts (
  state_hash text primary key,
  code_verifier text not null,
  nonce text not null,
  return_path text not null,
  link_user_id uuid references users(id) on delete cascade,
  expires_at timestamptz not null
);
`;
