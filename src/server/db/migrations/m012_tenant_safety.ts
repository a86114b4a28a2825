// Issue 16 (tenant safety): invitations a person accepts before joining a workspace, kept by email
// so an address with no account yet finds its invitation after signing up; a per-workspace audit
// log of security events (role changes, lockouts, refused upstreams, …); sign-in throttles keyed
// by email and client together.
export const m012_tenant_safety = `
create table workspace_invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  email text not null,
  role text not null check (role in ('admin', 'member')),
  invited_by uuid references users(id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'revoked')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  answered_at timestamptz
);
-- One open invitation per (workspace, email): inviting again renews it.
create unique index workspace_invitations_open on workspace_invitations (workspace_id, email) where status = 'pending';
create index workspace_invitations_email on workspace_invitations (email) where status = 'pending';

create table audit_events (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  actor_user_id uuid references users(id) on delete set null,
  action text not null,
  target text,
  details jsonb not null default '{}'::jsonb,
  ip text,
  created_at timestamptz not null default now()
);
create index audit_events_workspace_created on audit_events (workspace_id, created_at desc, id desc);

-- Sign-in lock-outs are per (email, client): a stranger spraying wrong passwords locks themself
-- out of that account, not its owner on their own network.
alter table login_throttle add column client text not null default '';
alter table login_throttle drop constraint login_throttle_pkey;
alter table login_throttle add primary key (email, client);
`;
