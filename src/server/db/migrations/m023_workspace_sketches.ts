// A row per workspace and bucket in the per-server / per-tool rollup (docs/analytics.md "Rollups";
// issue 15's scale target). Never edit a landed migration.
// - latency_minutes / _hours / _days / _weeks: server_id may be null; the row with server_id and
//   tool_name null is the workspace's, all servers: the sum of its server rows (tool_name null),
//   sketch and sums. A view over all servers merges one sketch per bucket instead of one per
//   server and bucket: the 7-day /overview series by hour 168 sketches instead of 840 (at 5
//   servers). The fold writes it beside the server rows (latencyRollup.ts).
// - Filled here from the server rows already stored, bucket by bucket.
const SUMS = [
  'calls',
  'protocol_errors',
  'server_errors',
  'tool_errors',
  'sessions',
  'argument_tokens',
  'result_tokens',
  'definition_tokens',
];

const workspaceRows = (table: string) => `
alter table ${table} alter column server_id drop not null;
insert into ${table} (workspace_id, bucket, server_id, tool_name, ${SUMS.join(', ')}, duration_max_ms, last_call_at, zeros, bins, counts)
select s.workspace_id, s.bucket, null, null, ${SUMS.map((name) => `s.${name}`).join(', ')}, s.duration_max_ms, s.last_call_at, s.zeros,
       coalesce(b.bins, '{}'), coalesce(b.counts, '{}')
from (
  select workspace_id, bucket, ${SUMS.map((name) => `sum(${name}) as ${name}`).join(', ')}, max(duration_max_ms) as duration_max_ms,
         max(last_call_at) as last_call_at, sum(zeros) as zeros
  from ${table} where tool_name is null and server_id is not null
  group by workspace_id, bucket
) s
left join (
  select workspace_id, bucket, array_agg(k order by k) as bins, array_agg(n order by k) as counts
  from (
    select t.workspace_id, t.bucket, u.k, sum(u.n)::int as n
    from ${table} t cross join lateral unnest(t.bins, t.counts) as u(k, n)
    where t.tool_name is null and t.server_id is not null
    group by t.workspace_id, t.bucket, u.k
  ) summed
  group by workspace_id, bucket
) b on b.workspace_id = s.workspace_id and b.bucket = s.bucket;
`;

export const m023_workspace_sketches = `
${workspaceRows('latency_minutes')}
${workspaceRows('latency_hours')}
${workspaceRows('latency_days')}
${workspaceRows('latency_weeks')}
`;
