// Issue 31 items 4 and 5. Item 4: a per-account backoff beside the per email × client lock-out (login_throttle).
// One row per email that failed lately, whatever the client: an attacker rotating addresses (a
// botnet, or a forged X-Forwarded-For before trusted hops) is slowed here; a known device
// (auth/knownDevice.ts) with the right password passes.
// Item 5: an invitation goes to an address; only an account that proved it receives mail there
// may accept it. users.email_verified_at is set by a link mailed at sign-up (auth/emailVerifications.ts).
// Accounts from before this migration start unverified: one of them may be exactly the squatter
// this closes; the SPA offers to mail the link again.
export const m026_sign_in_protection = `
create table login_account_backoff (
  email text primary key,
  failures int not null default 0,
  last_failure_at timestamptz not null default now(),
  blocked_until timestamptz
);

alter table users add column email_verified_at timestamptz;

create table email_verifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  email text not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_verifications_user on email_verifications (user_id, created_at);
`;
