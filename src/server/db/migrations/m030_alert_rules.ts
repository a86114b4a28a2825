// Issue 36 item 1: a workspace's alert rules on its tool traffic, and each rule's firings. The
// rule row carries its evaluation state (ok / pending / firing / resolving and since when), so any
// instance can take the next evaluation over; a firing row is one episode, resolved or not.
export const m030_alert_rules = `
create table alert_rules (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  metric text not null,
  scope jsonb not null default '{}'::jsonb,
  condition text not null,
  threshold double precision not null,
  window_minutes int not null,
  for_minutes int not null,
  severity text not null,
  quiet_hours jsonb,
  notify_integrations boolean not null default true,
  enabled boolean not null default true,
  state text not null default 'ok',
  state_since timestamptz,
  last_value double precision,
  last_evaluated_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index alert_rules_workspace on alert_rules (workspace_id);
create table alert_rule_firings (
  id uuid primary key default gen_random_uuid(),
  rule_id uuid not null references alert_rules(id) on delete cascade,
  workspace_id uuid not null references workspaces(id) on delete cascade,
  fired_at timestamptz not null,
  resolved_at timestamptz,
  value double precision
);
create index alert_rule_firings_rule on alert_rule_firings (rule_id, fired_at desc);
`;
