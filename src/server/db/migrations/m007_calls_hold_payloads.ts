// A tool call's request and response are stored once, as the exact JSON text that crossed the
// proxy, in the call's own row (before, each was written twice: as two `messages` rows for replay
// and again as the call's arguments/result). Replay reads a call's two messages from here; the
// API derives arguments and result from the stored text (src/server/recording/storedCallSql.ts).
// Rows recorded before this migration keep their `arguments`/`result` columns and their
// `messages` rows, and read exactly as before. docs/benchmarks.md "MCP proxy" has the why.
// A call's workspace and server are its session's (whose foreign keys cascade deletes to the call
// through tool_calls_session_id_fkey), so the two redundant foreign keys go: each cost every
// recorded call an index probe and a row lock.
// The search index follows the arguments to their new home; its expression must stay identical to
// toolCallSearchDocument() in src/server/modules/sessions/sessionSearch.ts.
export const m007_calls_hold_payloads = `
alter table tool_calls
  add column request_seq int,
  add column request_payload text,
  add column request_truncated boolean not null default false,
  add column response_seq int,
  add column response_kind text,
  add column response_payload text,
  add column response_truncated boolean not null default false;
drop index tool_calls_search;
alter table tool_calls drop constraint tool_calls_workspace_id_fkey, drop constraint tool_calls_server_id_fkey;
create index tool_calls_search_v2 on tool_calls using gin (
  to_tsvector('simple', regexp_replace(lower(left(tool_name || ' ' || coalesce(arguments::text,
    case when request_truncated then request_payload else (request_payload::jsonb #> '{params,arguments}')::text end, ''), 100000)),
    '[^[:alnum:]]+', ' ', 'g'))
);
`;
