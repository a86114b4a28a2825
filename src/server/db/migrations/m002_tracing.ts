// Tool servers, their schemas, and everything the proxy records. Never edit a landed migration.
export const m002_tracing = `
create table servers (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  url text not null,
  description text not null default '',
  transport text not null default 'streamable-http',
  proxy_key text not null unique,
  credentials_enc text,
  status text not null default 'offline',
  last_health_status boolean,
  last_checked timestamptz,
  last_error text,
  schema_count int not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index servers_workspace on servers (workspace_id);

create table schemas (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  server_id uuid not null references servers(id) on delete cascade,
  kind text not null,
  name text not null,
  current_version int not null default 1,
  pinned_version int,
  definition jsonb not null,
  drifted boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (server_id, kind, name)
);

create table schema_versions (
  id uuid primary key default gen_random_uuid(),
  schema_id uuid not null references schemas(id) on delete cascade,
  version int not null,
  definition jsonb not null,
  patch jsonb not null default '[]'::jsonb,
  source text not null,
  created_at timestamptz not null default now(),
  unique (schema_id, version)
);

create table sessions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  server_id uuid not null references servers(id) on delete cascade,
  mcp_session_id text,
  transport text not null,
  protocol_version text,
  client_name text,
  client_version text,
  client_key text,
  trace_id text,
  status text not null default 'active',
  started_at timestamptz not null,
  last_activity_at timestamptz not null,
  ended_at timestamptz,
  message_count int not null default 0,
  call_count int not null default 0,
  error_count int not null default 0
);
create index sessions_workspace_started on sessions (workspace_id, started_at desc);
create index sessions_server_mcp on sessions (server_id, mcp_session_id);

create table messages (
  id bigserial primary key,
  workspace_id uuid not null,
  session_id uuid not null references sessions(id) on delete cascade,
  seq int not null,
  direction text not null,
  kind text not null,
  method text,
  jsonrpc_id text,
  payload jsonb,
  size_bytes int not null,
  truncated boolean not null default false,
  created_at timestamptz not null
);
create index messages_session_seq on messages (session_id, seq);

create table tool_calls (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  server_id uuid not null references servers(id) on delete cascade,
  session_id uuid not null references sessions(id) on delete cascade,
  jsonrpc_id text,
  tool_name text not null,
  arguments jsonb,
  result jsonb,
  error_message text,
  status text not null,
  started_at timestamptz not null,
  ended_at timestamptz,
  duration_ms int,
  request_bytes int not null default 0,
  response_bytes int not null default 0,
  tokens_estimate int not null default 0,
  meta jsonb,
  traceparent text
);
create index tool_calls_workspace_started on tool_calls (workspace_id, started_at desc);
create index tool_calls_session on tool_calls (session_id, started_at);

create table usage_minutes (
  workspace_id uuid not null,
  server_id uuid not null,
  tool_name text not null,
  bucket timestamptz not null,
  calls int not null default 0,
  errors int not null default 0,
  duration_sum_ms bigint not null default 0,
  duration_max_ms int not null default 0,
  duration_hist int[] not null default '{0,0,0,0,0,0,0,0,0,0,0,0}',
  tokens bigint not null default 0,
  primary key (workspace_id, server_id, tool_name, bucket)
);

create table notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  workspace_id uuid references workspaces(id) on delete cascade,
  title text not null,
  message text not null,
  severity text not null,
  type text not null,
  is_read boolean not null default false,
  is_archived boolean not null default false,
  action_url text,
  metadata jsonb not null default '{}'::jsonb,
  group_key text,
  occurrences int not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index notifications_user_created on notifications (user_id, created_at desc);
`;
