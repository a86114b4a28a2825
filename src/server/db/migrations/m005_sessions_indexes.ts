// Indexes the sessions and tool-calls API reads with (docs/benchmarks.md "Sessions list").
// The search expression must stay identical to TOOL_CALL_SEARCH_DOCUMENT in
// src/server/modules/sessions/sessionSearch.ts, or the planner cannot use the index.
export const m005_sessions_indexes = `
create index sessions_workspace_started_id on sessions (workspace_id, started_at desc, id desc);
create index sessions_server_started on sessions (server_id, started_at desc);
create index sessions_workspace_ended on sessions (workspace_id, ended_at desc) where ended_at is not null;
create index usage_minutes_workspace_bucket on usage_minutes (workspace_id, bucket);
create index tool_calls_search on tool_calls using gin (
  to_tsvector('simple', regexp_replace(lower(left(tool_name || ' ' || coalesce(arguments::text, ''), 100000)), '[^[:alnum:]]+', ' ', 'g'))
);
`;
