// Deployments (issue 21): configs of stdio programs Toolscope runs, their deployments (one row per
// deploy, with the lease of the instance that runs it), and the kind of a tool server ('remote'
// for a URL the user registered, 'deployment' for one Toolscope runs). Never edit a landed migration.
export const m017_deployments = `
create table deployment_configs (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  description text not null default '',
  command text not null,
  args jsonb not null default '[]'::jsonb,
  env jsonb not null default '{}'::jsonb,
  cwd text not null default '',
  restart_policy text not null default 'on-failure',
  max_restarts int not null default 5,
  start_timeout_ms int not null default 30000,
  limits jsonb not null default '{}'::jsonb,
  isolation jsonb not null default '{}'::jsonb,
  session_mode text not null default 'shared',
  server_id uuid references servers(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index deployment_configs_workspace on deployment_configs (workspace_id, created_at);

create table deployments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  config_id uuid not null references deployment_configs(id) on delete cascade,
  server_id uuid references servers(id) on delete set null,
  status text not null default 'pending',
  -- 'running' while the deployment should run (restored at start), 'stopped' once stopped.
  desired_state text not null default 'running',
  pid int,
  started_at timestamptz,
  stopped_at timestamptz,
  restarts int not null default 0,
  exit_code int,
  signal text,
  last_error text,
  last_stderr jsonb not null default '[]'::jsonb,
  -- The instance that runs it and until when its claim holds (renewed while it runs).
  owner_instance text,
  lease_expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index deployments_config on deployments (config_id, created_at desc);
create index deployments_wanted on deployments (desired_state) where desired_state = 'running';

alter table servers add column kind text not null default 'remote';
`;
