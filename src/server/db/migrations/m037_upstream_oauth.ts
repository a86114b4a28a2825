// Issue 34 item 2: MCP servers that require OAuth 2.1 (docs/access.md "Servers that require OAuth").
// One connection per server, made by a workspace admin for the whole workspace. Tokens and the
// client secret are sealed together (secrets_enc, AES-256-GCM like other upstream credentials);
// status: required (the server asked for OAuth, nobody connected yet), connected, or
// needs_reconnect (the refresh was refused: someone must sign in again).
export const m037_upstream_oauth = `
create table upstream_oauth_connections (
  server_id uuid primary key references servers(id) on delete cascade,
  workspace_id uuid not null references workspaces(id) on delete cascade,
  status text not null check (status in ('required', 'connected', 'needs_reconnect')),
  resource text,
  issuer text,
  client_id text,
  secrets_enc text,
  scope text,
  expires_at timestamptz,
  connected_as text,
  connected_by uuid references users(id) on delete set null,
  last_error text,
  updated_at timestamptz not null default now()
);
create index upstream_oauth_connections_workspace on upstream_oauth_connections (workspace_id);

create table upstream_oauth_attempts (
  state_hash text primary key,
  server_id uuid not null references servers(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  code_verifier text not null,
  return_path text not null,
  issuer text not null,
  resource text not null,
  client_id text not null,
  secrets_enc text,
  scope text,
  expires_at timestamptz not null
);
`;
