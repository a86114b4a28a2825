// How a recorded tool call is read back. A call's row holds the exact JSON text of its request and
// response (migration 007); its arguments and result are taken from that text when read, so each
// payload is written once. Rows recorded before 007 carry `arguments`/`result` columns instead,
// which win where present. Every reader of tool calls selects TOOL_CALL_COLUMNS, so the API and the
// live stream (which maps the recorder's in-memory row) agree on what a call looks like.

/** A stored payload as jsonb: a cut payload (not valid JSON) reads as a JSON string of its text. */
function payloadJson(text: string, truncated: string): string {
  return `case when ${truncated} then to_jsonb(${text}) else ${text}::jsonb end`;
}

/** What a cut payload's arguments/result read as: the start of the message text. */
function cutPayload(text: string): string {
  return `jsonb_build_object('truncated', true, 'preview', ${text})`;
}

/** The call's arguments (jsonb), for the row aliased `a`. */
export function callArgumentsSql(a: string): string {
  return `coalesce(${a}.arguments,
    case when ${a}.request_truncated then ${cutPayload(`${a}.request_payload`)}
    else ${a}.request_payload::jsonb #> '{params,arguments}' end)`;
}

/**
 * The text of the call's arguments that search indexes (migration 007 holds this expression: keep
 * them identical). Index expressions must be immutable, which jsonb_build_object is not, so a cut
 * request is searched by its text rather than by its `{ truncated, preview }` form.
 */
export function callArgumentsTextSql(a: string): string {
  return `coalesce(${a}.arguments::text,
    case when ${a}.request_truncated then ${a}.request_payload else (${a}.request_payload::jsonb #> '{params,arguments}')::text end, '')`;
}

/**
 * The call's result (jsonb): the JSON-RPC result, or `{ error }` when the response was an error —
 * or, for a task whose end a notification inlined (2026-07-28 notifications/tasks), its params:
 * the task holding the tool's result, as a tasks/get answer's result does.
 */
export function callResultSql(a: string): string {
  return `coalesce(${a}.result,
    case when ${a}.response_payload is null then null
    when ${a}.response_truncated then ${cutPayload(`${a}.response_payload`)}
    when ${a}.response_kind = 'error' then jsonb_build_object('error', ${a}.response_payload::jsonb -> 'error')
    when ${a}.response_kind = 'notification' then ${a}.response_payload::jsonb -> 'params'
    else ${a}.response_payload::jsonb -> 'result' end)`;
}

/** The columns of a ToolCallRow, for `tool_calls tc join servers srv`. */
export const TOOL_CALL_COLUMNS = `tc.id, tc.session_id, tc.server_id, srv.name as server_name, tc.jsonrpc_id, tc.tool_name,
  ${callArgumentsSql('tc')} as arguments, ${callResultSql('tc')} as result, tc.error_message, tc.status, tc.started_at,
  tc.ended_at, tc.duration_ms, tc.request_bytes, tc.response_bytes, tc.argument_tokens, tc.result_tokens, tc.meta, tc.traceparent, tc.task_id, tc.task_status`;

/**
 * A session's messages as MessageRow columns plus `message_ref` (messages.id) or `call_ref` (the
 * call's id, for its two halves) and `part`: the rows of `messages` and the request/response halves of the
 * calls that hold their payloads. Only light columns: the page is cut first, then its payloads are
 * read by `REPLAY_PAYLOAD` (a session of 10k calls does not parse 10k payloads for one page).
 * `$1` is the session id; `where` filters on the columns seq and created_at.
 */
export function sessionMessagesSql(where: string): string {
  return `select * from (
      select m.seq, m.direction, m.kind, m.method, m.jsonrpc_id, m.size_bytes, m.truncated, m.created_at, m.progress_count, m.id as message_ref, null::uuid as call_ref, 'message' as part
        from messages m where m.session_id = $1
      union all
      select c.request_seq, 'client_to_server', 'request', 'tools/call', c.jsonrpc_id, c.request_bytes, c.request_truncated, c.started_at, null::int, null, c.id, 'request'
        from tool_calls c where c.session_id = $1 and c.request_seq is not null
      union all
      select c.response_seq, 'server_to_client', c.response_kind, null, c.jsonrpc_id, c.response_bytes, c.response_truncated, c.ended_at, null::int, null, c.id, 'response'
        from tool_calls c where c.session_id = $1 and c.response_seq is not null
    ) sm ${where}`;
}

/** The payload of one page row `p` (from sessionMessagesSql), joined as `m` (on message_ref) and `c` (on call_ref). */
export const REPLAY_PAYLOAD = `case p.part
    when 'message' then m.payload
    when 'request' then ${payloadJson('c.request_payload', 'c.request_truncated')}
    else ${payloadJson('c.response_payload', 'c.response_truncated')} end`;
