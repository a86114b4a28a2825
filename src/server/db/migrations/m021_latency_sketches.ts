// Latency sketches as int arrays, and a sketch-only rollup beside the traffic rollups
// (docs/analytics.md "Rollups"; issue 15's scale target). Never edit a landed migration.
// - traffic_*.latency (jsonb, { "<index>": count, "z": zeros }) becomes latency_zeros and two int
//   arrays, latency_bins (the DDSketch's bin indexes, ascending) and latency_counts: no JSON text
//   per row to build, send and parse, and the batch statement merges them on conflict for less
//   than merging jsonb objects cost.
// - latency_minutes / latency_hours / latency_days / latency_weeks (weeks from Mondays, 00:00 UTC;
//   a 90-day range reads ~13 weeks instead of 89 days of its largest sketches): one sketch per workspace × server × bucket
//   (tool_name null: all the server's tools) and per workspace × server × tool × bucket, written in
//   the recorder's batch statement beside the traffic rollups. Percentiles not filtered by client
//   merge these instead of a sketch per client and platform key: 4–32× fewer sketches.
// - Both filled from the rows already there, so existing traffic keeps its percentiles.
const arrays = (table: string) => `
alter table ${table}
  add column latency_zeros int not null default 0,
  add column latency_bins int[] not null default '{}',
  add column latency_counts int[] not null default '{}';
update ${table} set
  latency_zeros = coalesce((latency->>'z')::int, 0),
  latency_bins = array(select key::int from jsonb_each_text(latency) where key <> 'z' order by key::int),
  latency_counts = array(select value::int from jsonb_each_text(latency) where key <> 'z' order by key::int)
where latency <> '{}'::jsonb;
alter table ${table} drop column latency;
`;

const sketchTable = (table: string) => `
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
`;

const sketches = (table: string, source: string) => `
${sketchTable(table)}
insert into ${table} (workspace_id, bucket, server_id, tool_name, zeros, bins, counts)
select workspace_id, bucket, server_id, tool_name,
       coalesce(sum(n) filter (where k is null), 0)::int,
       coalesce(array_agg(k order by k) filter (where k is not null), '{}'),
       coalesce(array_agg(n::int order by k) filter (where k is not null), '{}')
from (
  select workspace_id, bucket, server_id, tool_name, k, sum(n) as n
  from (
    -- every stored bin as (k, n); the zeros as k null
    select t.workspace_id, t.bucket, t.server_id, t.tool_name, u.k, u.n
    from ${source} t cross join lateral (
      select k, n from unnest(t.latency_bins, t.latency_counts) as b(k, n)
      union all select null::int, t.latency_zeros where t.latency_zeros > 0
    ) u
    where t.tool_name <> ''
  ) stored
  -- each tool's sketch, and the server's (tool_name null) over all its tools
  group by grouping sets ((workspace_id, bucket, server_id, tool_name, k), (workspace_id, bucket, server_id, k))
) bins
group by workspace_id, bucket, server_id, tool_name;
`;

export const m021_latency_sketches = `
${arrays('traffic_minutes')}
${arrays('traffic_hours')}
${arrays('traffic_days')}
${sketches('latency_minutes', 'traffic_minutes')}
${sketches('latency_hours', 'traffic_hours')}
${sketches('latency_days', 'traffic_days')}
${sketchTable('latency_weeks')}
-- weeks (from Mondays, 00:00 UTC) summed from the days; group by treats a null tool_name (the server's row) as one key
insert into latency_weeks (workspace_id, bucket, server_id, tool_name, zeros, bins, counts)
select workspace_id, week, server_id, tool_name,
       coalesce(sum(n) filter (where k is null), 0)::int,
       coalesce(array_agg(k order by k) filter (where k is not null), '{}'),
       coalesce(array_agg(n::int order by k) filter (where k is not null), '{}')
from (
  select workspace_id, week, server_id, tool_name, k, sum(n) as n
  from (
    select d.workspace_id, date_bin('7 days'::interval, d.bucket, '1970-01-05T00:00:00Z'::timestamptz) as week, d.server_id, d.tool_name, u.k, u.n
    from latency_days d cross join lateral (
      select k, n from unnest(d.bins, d.counts) as b(k, n)
      union all select null::int, d.zeros where d.zeros > 0
    ) u
  ) stored
  group by workspace_id, week, server_id, tool_name, k
) bins
group by workspace_id, week, server_id, tool_name;
`;
