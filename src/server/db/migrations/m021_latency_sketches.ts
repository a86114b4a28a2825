// Latency sketches apart from the traffic rollups (docs/analytics.md "Rollups"; issue 15's scale
// target). Never edit a landed migration.
// - latency_minutes / latency_hours / latency_days: one DDSketch per workspace × server × bucket
//   (tool_name null: all the server's tools) and per workspace × server × tool × bucket, written in
//   the recorder's batch statement beside the traffic rollups. Percentiles not filtered by client
//   merge these instead of a sketch per client and platform key: 4–32× fewer sketches.
// - A sketch is stored as `zeros` (values of 0 ms) and two int arrays, `bins` (the DDSketch's bin
//   indexes, ascending) and `counts` (each bin's count), instead of a jsonb object: no JSON text per
//   row to build, send and parse. Merged on conflict by adding counts of equal bins.
// - Backfilled from traffic_* (whose jsonb sketches stay for the client-filtered views).
const sketches = (table: string, source: string) => `
create table ${table} (
  workspace_id uuid not null,
  bucket timestamptz not null,
  server_id uuid not null,
  tool_name text,
  zeros int not null default 0,
  bins int[] not null default '{}',
  counts int[] not null default '{}'
);
create unique index ${table}_key on ${table} (workspace_id, bucket, server_id, tool_name) nulls not distinct;
insert into ${table} (workspace_id, bucket, server_id, tool_name, zeros, bins, counts)
select workspace_id, bucket, server_id, tool_name,
       coalesce(sum(n) filter (where k is null), 0)::int,
       coalesce(array_agg(k order by k) filter (where k is not null), '{}'),
       coalesce(array_agg(n::int order by k) filter (where k is not null), '{}')
from (
  select workspace_id, bucket, server_id, tool_name, k, sum(n) as n
  from (
    select t.workspace_id, t.bucket, t.server_id, t.tool_name,
           case when b.key = 'z' then null else b.key::int end as k, b.value::text::bigint as n
    from ${source} t, jsonb_each(t.latency) b
    where t.tool_name <> '' and t.latency <> '{}'::jsonb
  ) stored
  -- each tool's sketch, and the server's (tool_name null) over all its tools
  group by grouping sets ((workspace_id, bucket, server_id, tool_name, k), (workspace_id, bucket, server_id, k))
) bins
group by workspace_id, bucket, server_id, tool_name;
`;

export const m021_latency_sketches = `
${sketches('latency_minutes', 'traffic_minutes')}
${sketches('latency_hours', 'traffic_hours')}
${sketches('latency_days', 'traffic_days')}
`;
