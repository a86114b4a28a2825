// Agent access and plans (docs/access.md): platform keys agents present at the proxy, the refusals
// logged against them, the workspace switch that requires one, workspace keys (named upstream
// secrets, encrypted like server credentials) and the shared counter of the monthly agent-call quota.
export const m013_agent_access = `
create table platform_keys (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  -- 'tsk_' + the first 8 characters of the secret: shown in lists, and where the proxy looks a key up.
  prefix text not null,
  -- SHA-256 of the whole secret (the secret itself is never stored).
  secret_hash bytea not null unique,
  all_servers boolean not null default true,
  server_ids uuid[] not null default '{}',
  expires_at timestamptz,
  created_at timestamptz not null default now(),
  created_by uuid references users(id) on delete set null,
  updated_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoke_reason text
);
create index platform_keys_workspace on platform_keys (workspace_id, created_at);

-- Refused uses of a key (key_id null: a key nobody issued), merged per second, reason and server.
create table platform_key_refusals (
  id bigserial primary key,
  workspace_id uuid not null references workspaces(id) on delete cascade,
  key_id uuid references platform_keys(id) on delete cascade,
  presented_prefix text,
  server_id uuid,
  reason text not null,
  count int not null default 1,
  at timestamptz not null default now()
);
create index platform_key_refusals_key on platform_key_refusals (key_id, at desc);
create index platform_key_refusals_workspace on platform_key_refusals (workspace_id, at desc);

alter table workspaces add column require_platform_key boolean not null default false;
alter table sessions add column platform_key_id uuid;

create table workspace_keys (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  description text not null default '',
  value_enc text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz,
  unique (workspace_id, name)
);

-- Agent calls admitted this calendar month (UTC) per account: one row per owner and month,
-- incremented by the proxy in one statement that also refuses past the limit (quotaGate.ts).
-- lim/plan: the limit and plan of the latest increment; last_grant: how many calls that
-- increment admitted (returned by the same statement).
create table agent_call_counters (
  owner_id uuid not null references users(id) on delete cascade,
  period date not null,
  used int not null default 0,
  lim int,
  plan text not null default 'starter',
  last_grant int not null default 0,
  updated_at timestamptz not null default now(),
  primary key (owner_id, period)
);
-- This month's calls recorded before the counter existed.
insert into agent_call_counters (owner_id, period, used)
select w.owner_id, date_trunc('month', now() at time zone 'utc')::date, sum(u.calls)::int
  from usage_minutes u join workspaces w on w.id = u.workspace_id
 where u.bucket >= date_trunc('month', now() at time zone 'utc') at time zone 'utc'
 group by w.owner_id;
`;
