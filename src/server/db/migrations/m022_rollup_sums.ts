// Sums beside the sketches of the per-server / per-tool rollup, and pending increments
// (docs/analytics.md "Rollups"; issue 15's scale targets). Never edit a landed migration.
// - latency_minutes / _hours / _days / _weeks get the traffic rollup's sums (calls, errors by
//   class, sessions, tokens of the three kinds, the longest call, the latest call): a view not
//   filtered by client sums one row per tool (or server) and bucket instead of one per tool ×
//   client × platform key, weeks included. A tool '' row holds what belongs to no call (sessions
//   started, definitions received), as in the traffic rows. Filled from the traffic rows already
//   stored (the weeks from the days).
// - traffic_pending: the minute increments the recorder's writes store, as they are, in the
//   statement that stores their calls (a plain insert: no conflict to resolve, no sketch to
//   merge); a fold every few seconds moves them into the minute, hour and day rows and the
//   per-server / per-tool rows of four grains in one transaction (trafficFold.ts). Reads add the
//   pending rows of their range, so they are exact at any moment.
// - Three indexes for /costs' costliest sessions of a range: by last activity (the sessions
//   active in a short range), by input tokens and by argument tokens (a long range's ranking reads
//   a few hundred sessions, most input tokens first, and stops when no session left can enter the
//   top: sessionCosts.ts).
const SUM_COLUMNS = [
  'calls int not null default 0',
  'protocol_errors int not null default 0',
  'server_errors int not null default 0',
  'tool_errors int not null default 0',
  'sessions int not null default 0',
  'argument_tokens bigint not null default 0',
  'result_tokens bigint not null default 0',
  'definition_tokens bigint not null default 0',
  'duration_max_ms int not null default 0',
  'last_call_at timestamptz',
];

const addSums = (table: string) =>
  `alter table ${table} ${SUM_COLUMNS.map((column) => `add column ${column}`).join(', ')};`;

const SUM_NAMES = [
  'calls',
  'protocol_errors',
  'server_errors',
  'tool_errors',
  'sessions',
  'argument_tokens',
  'result_tokens',
  'definition_tokens',
];
const setSums = `${SUM_NAMES.map((name) => `${name} = excluded.${name}`).join(', ')}, duration_max_ms = excluded.duration_max_ms, last_call_at = excluded.last_call_at`;
const sumsOf = `${SUM_NAMES.map((name) => `sum(${name})`).join(', ')}, max(duration_max_ms), max(last_call_at)`;

/** Each tool's sums (tool '' included) and each server's (tool_name null), from the traffic rows of the same grain. */
const fill = (table: string, source: string) => `
insert into ${table} (workspace_id, bucket, server_id, tool_name, ${SUM_NAMES.join(', ')}, duration_max_ms, last_call_at)
select workspace_id, bucket, server_id, tool_name, ${sumsOf}
from ${source}
group by grouping sets ((workspace_id, bucket, server_id, tool_name), (workspace_id, bucket, server_id))
on conflict (workspace_id, bucket, server_id, tool_name) do update set ${setSums};
`;

export const m022_rollup_sums = `
${addSums('latency_minutes')}
${addSums('latency_hours')}
${addSums('latency_days')}
${addSums('latency_weeks')}
${fill('latency_minutes', 'traffic_minutes')}
${fill('latency_hours', 'traffic_hours')}
${fill('latency_days', 'traffic_days')}
insert into latency_weeks (workspace_id, bucket, server_id, tool_name, ${SUM_NAMES.join(', ')}, duration_max_ms, last_call_at)
select workspace_id, date_bin('7 days'::interval, bucket, '1970-01-05T00:00:00Z'::timestamptz), server_id, tool_name, ${sumsOf}
from latency_days
group by 1, 2, 3, 4
on conflict (workspace_id, bucket, server_id, tool_name) do update set ${setSums};
create table traffic_pending (like traffic_minutes including defaults);
create index traffic_pending_workspace on traffic_pending (workspace_id, bucket);
create index sessions_workspace_activity on sessions (workspace_id, last_activity_at);
create index sessions_workspace_input_tokens on sessions (workspace_id, (definition_tokens + result_tokens) desc);
create index sessions_workspace_argument_tokens on sessions (workspace_id, argument_tokens desc);
`;
