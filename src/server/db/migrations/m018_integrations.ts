// Integrations: where a workspace's notifications also go. Deliveries are a durable queue
// (claimed with a lease and FOR UPDATE SKIP LOCKED, so one instance sends each, and a restart
// loses none); every attempt is kept as an activity for 30 days (docs/integrations.md).
// Never edit a landed migration.
export const m018_integrations = `
create table integrations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  kind text not null check (kind in ('slack', 'webhook', 'pagerduty', 'email')),
  config jsonb not null default '{}',
  secrets text,
  rules jsonb not null default '{}',
  enabled boolean not null default true,
  disabled_reason text,
  failures_in_a_row int not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index integrations_workspace on integrations (workspace_id, created_at);

create table integration_deliveries (
  id uuid primary key default gen_random_uuid(),
  integration_id uuid not null references integrations(id) on delete cascade,
  event_type text not null,
  event jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  claimed_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index integration_deliveries_due on integration_deliveries (next_attempt_at) where status = 'pending';
create index integration_deliveries_integration on integration_deliveries (integration_id, created_at desc);

create table integration_activities (
  id uuid primary key default gen_random_uuid(),
  integration_id uuid not null references integrations(id) on delete cascade,
  delivery_id uuid references integration_deliveries(id) on delete set null,
  created_at timestamptz not null default now(),
  event text not null,
  status text not null check (status in ('delivered', 'retrying', 'failed', 'skipped')),
  status_code int,
  latency_ms double precision,
  error text,
  attempt int not null default 1,
  summary text not null default ''
);
create index integration_activities_recent on integration_activities (integration_id, created_at desc);
create index integration_activities_age on integration_activities (created_at);
`;
