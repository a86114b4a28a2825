// Analytics of agent traffic (docs/analytics.md). Never edit a landed migration.
// - traffic_minutes / traffic_hours / traffic_days: the same rollup at three grains, each row one
//   workspace × server × tool × client (clientInfo name, '' when none) × platform key (null until
//   keys exist) × bucket. Every recorder batch adds its increments to all three in the statement
//   that stores its calls, so hours and days are always current and a long range reads few rows.
//   tool_name '' holds what belongs to no call: sessions started and tool definitions received.
//   `latency` is a DDSketch (relative accuracy 1 %) as its bins, { "<index>": count, "z": zeros },
//   merged on conflict by adding counts: percentiles of any range and grouping come from merged
//   sketches. Cost is not stored: it is a linear function of the token sums and calls, priced at
//   read from the workspace's prices, so a price change re-prices all history at once.
// - tool_calls / sessions carry their token counts (o200k_base) beside the payloads.
// - server_tool_lists: the latest tools/list each server answered, with each definition's tokens.
// - workspace_pricing, tool_prices: a workspace's model, price overrides and per-call tool prices.
const rollup = (table: string) => `
create table ${table} (
  workspace_id uuid not null,
  bucket timestamptz not null,
  server_id uuid not null,
  tool_name text not null,
  client_name text not null,
  platform_key_id uuid,
  calls int not null default 0,
  protocol_errors int not null default 0,
  server_errors int not null default 0,
  tool_errors int not null default 0,
  sessions int not null default 0,
  argument_tokens bigint not null default 0,
  result_tokens bigint not null default 0,
  definition_tokens bigint not null default 0,
  duration_sum_ms bigint not null default 0,
  duration_max_ms int not null default 0,
  last_call_at timestamptz,
  latency jsonb not null default '{}'::jsonb
);
create unique index ${table}_key on ${table} (workspace_id, bucket, server_id, tool_name, client_name, platform_key_id) nulls not distinct;
`;

export const m011_traffic_analytics = `
${rollup('traffic_minutes')}
${rollup('traffic_hours')}
${rollup('traffic_days')}
alter table tool_calls
  add column argument_tokens int,
  add column result_tokens int,
  add column error_class text,
  add column platform_key_id uuid;
alter table sessions
  add column argument_tokens bigint not null default 0,
  add column result_tokens bigint not null default 0,
  add column definition_tokens bigint not null default 0;
create table server_tool_lists (
  server_id uuid primary key references servers(id) on delete cascade,
  workspace_id uuid not null,
  list_hash text not null,
  definition_tokens int not null,
  tools jsonb not null,
  listed_at timestamptz not null
);
create index server_tool_lists_workspace on server_tool_lists (workspace_id);
create table workspace_pricing (
  workspace_id uuid primary key references workspaces(id) on delete cascade,
  model text not null,
  input_per_million numeric,
  output_per_million numeric,
  correction_factor numeric,
  updated_at timestamptz not null default now()
);
create table tool_prices (
  workspace_id uuid not null references workspaces(id) on delete cascade,
  server_id uuid not null references servers(id) on delete cascade,
  tool_name text not null,
  price_per_call numeric not null,
  primary key (workspace_id, server_id, tool_name)
);
`;
