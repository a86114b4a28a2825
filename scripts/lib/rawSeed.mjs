// Seeds the raw tables (sessions, tool_calls, messages) of one workspace at scale, one weekly
// partition at a time, in the shape migration 034 gives them and the recorder writes them
// (docs/scaling.md "Measured limits of one database"). Each week is filled as a plain table
// without indexes and then attached as the week's partition: PostgreSQL builds the parent's indexes
// (primary key, by session, by workspace and time, the GIN search index) on it in bulk, which is
// far quicker than growing them row by row, and gives the same indexes the recorder's inserts do.
//
// Shape of a session: initialize (request, answer), notifications/initialized, tools/list
// (request, answer), then CALLS_PER_SESSION tool calls two seconds apart, with a log notification
// after every tenth call. Payloads: a call's request ~230 bytes of JSON-RPC with its arguments, its
// answer ~700 bytes (a text result), the messages ~150–400 bytes.

export const CALLS_PER_SESSION = 50;
const LOGS_PER_SESSION = CALLS_PER_SESSION / 10;
export const MESSAGES_PER_SESSION = 5 + LOGS_PER_SESSION;

const TOOLS = [
  'read_file',
  'write_file',
  'search_docs',
  'run_query',
  'fetch_url',
  'list_directory',
  'create_issue',
  'send_email',
];
const WORDS = [
  'invoice',
  'quarterly',
  'revenue',
  'kubernetes',
  'deployment',
  'customer',
  'report',
  'migration',
  'latency',
  'budget',
];
const CLIENTS = ['claude-code', 'cursor', 'windsurf', 'custom-agent'];

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const MONDAY_ORIGIN_MS = 4 * DAY_MS;
export const weekStart = (ms) => MONDAY_ORIGIN_MS + Math.floor((ms - MONDAY_ORIGIN_MS) / WEEK_MS) * WEEK_MS;
const weekSuffix = (ms) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/** Migration 034's partitions of everything before its cutover: empty on a new database, and in the way of past weeks. */
export async function dropBeforePartitions(db) {
  await db.query('drop table messages_before_partitions');
  await db.query('drop table tool_calls_before_partitions');
}

/**
 * Fills the week starting `weekMs` (a Monday) with `calls` tool calls, from its start to `endMs`,
 * and attaches it. Returns the seconds each step took.
 */
export async function seedWeek(db, { workspaceId, serverIds, weekMs, endMs, calls }) {
  const sessions = Math.ceil(calls / CALLS_PER_SESSION);
  const suffix = weekSuffix(weekMs);
  const from = new Date(weekMs).toISOString();
  const to = new Date(weekMs + WEEK_MS).toISOString();
  // Sessions start evenly over the span, leaving room for their last call before endMs.
  const spanSeconds = Math.floor((endMs - weekMs) / 1000) - CALLS_PER_SESSION * 2 - 60;
  const times = {};
  const step = async (name, sql, params = []) => {
    const start = Date.now();
    await db.query(sql, params);
    times[name] = (Date.now() - start) / 1000;
  };
  // A session's id is a function of its week and number, so calls and messages name it without a join.
  const sessionId = (g) => `md5('${suffix}:' || ${g})::uuid`;
  const sessionStart = (g) =>
    `'${from}'::timestamptz + make_interval(secs => (${g})::float8 * ${spanSeconds} / ${sessions})`;
  await step(
    'sessions',
    `insert into sessions (id, workspace_id, server_id, mcp_session_id, transport, protocol_version, client_name, client_version,
       status, started_at, last_activity_at, ended_at, message_count, call_count, error_count)
     select ${sessionId('g')}, $1, ($2::uuid[])[1 + g % ${serverIds.length}], md5('m' || g), 'streamable-http', '2025-06-18',
       ($3::text[])[1 + (g / 7) % ${CLIENTS.length}], '1.0.' || (g % 10), 'ended', ${sessionStart('g')},
       ${sessionStart('g')} + interval '${CALLS_PER_SESSION * 2 + 1} seconds', ${sessionStart('g')} + interval '${CALLS_PER_SESSION * 2 + 1} seconds',
       ${MESSAGES_PER_SESSION + 2 * CALLS_PER_SESSION}, ${CALLS_PER_SESSION}, case when g % 50 = 0 then 1 else 0 end
     from generate_series(0, $4::int - 1) g`,
    [workspaceId, serverIds, CLIENTS, sessions],
  );
  await step('tool_calls: create', `create table tool_calls_w${suffix} (like tool_calls including defaults)`);
  // Call c: session c / N, i-th of it; request seq 6 + 3i, answer 7 + 3i (a log may follow at 8 + 3i).
  await step(
    'tool_calls: fill',
    `insert into tool_calls_w${suffix} (workspace_id, server_id, session_id, jsonrpc_id, tool_name, status, started_at, ended_at,
       duration_ms, request_bytes, response_bytes, tokens_estimate, argument_tokens, result_tokens, error_class, error_message,
       request_seq, request_payload, response_seq, response_kind, response_payload)
     select $1, ($2::uuid[])[1 + g % ${serverIds.length}], ${sessionId('g')}, (i + 2)::text, tool,
       case when c % 50 = 7 then 'error' else 'ok' end, t, t + make_interval(secs => d / 1000.0), d,
       length(req), length(res), 180, 40, 140, case when c % 50 = 7 then 'tool_error' end, case when c % 50 = 7 then 'Tool failed' end,
       6 + 3 * i, req, 7 + 3 * i, 'response', res
     from (
       select c, g, i, tool, t, d,
         '{"jsonrpc":"2.0","id":' || (i + 2) || ',"method":"tools/call","params":{"name":"' || tool || '","arguments":{"path":"/data/' || w1 || '/'
           || left(md5(c::text), 12) || '.txt","query":"' || w2 || ' ' || w1 || '","limit":25,"cursor":"' || md5(g::text) || '"}}}' as req,
         '{"jsonrpc":"2.0","id":' || (i + 2) || ',"result":{"content":[{"type":"text","text":"' || w1 || ' ' || w2 || ' '
           || repeat(md5((c * 7)::text), 20) || '"}],"isError":false}}' as res
       from (
         select c, c / ${CALLS_PER_SESSION} as g, c % ${CALLS_PER_SESSION} as i,
           ($3::text[])[1 + (c / 3) % ${TOOLS.length}] as tool,
           ($4::text[])[1 + c % ${WORDS.length}] as w1, ($4::text[])[1 + (c / 10) % ${WORDS.length}] as w2,
           ${sessionStart(`c / ${CALLS_PER_SESSION}`)} + make_interval(secs => 10 + 2 * (c % ${CALLS_PER_SESSION})) as t,
           20 + (c * 7919) % 400 as d
         from generate_series(0, $5::bigint - 1) c
       ) base
     ) calls`,
    [workspaceId, serverIds, TOOLS, WORDS, calls],
  );
  // Message m of session g: 0–4 the session's start, 5.. its log notifications.
  await step('messages: create', `create table messages_w${suffix} (like messages including defaults)`);
  await step(
    'messages: fill',
    `insert into messages_w${suffix} (workspace_id, session_id, seq, direction, kind, method, jsonrpc_id, payload, size_bytes, created_at)
     select $1, ${sessionId('g')}, seq, dir, kind, method, rpc, payload, length(payload::text), ${sessionStart('g')} + make_interval(secs => at)
     from (
       select g, m,
         case when m < 5 then m + 1 else 8 + 3 * (10 * (m - 5) + 9) end as seq,
         case when m in (0, 2, 3) then 'client_to_server' else 'server_to_client' end as dir,
         case when m in (0, 3) then 'request' when m in (1, 4) then 'response' else 'notification' end as kind,
         case m when 0 then 'initialize' when 2 then 'notifications/initialized' when 3 then 'tools/list'
           when 1 then null when 4 then null else 'notifications/message' end as method,
         case when m in (0, 1) then '0' when m in (3, 4) then '1' end as rpc,
         case m
           when 0 then '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"1.0.3"}}}'
           when 1 then '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"bench-upstream","version":"1.0.0"}}}'
           when 2 then '{"jsonrpc":"2.0","method":"notifications/initialized"}'
           when 3 then '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
           when 4 then '{"jsonrpc":"2.0","id":1,"result":{"tools":[' || repeat('{"name":"read_file","description":"Reads a file of the workspace","inputSchema":{"type":"object"}},', 3) || '{"name":"x"}]}}'
           else '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"step ' || m || ' of ' || g || ' done"}}'
         end::jsonb as payload,
         case when m < 5 then m else 10 + 2 * (10 * (m - 5) + 9) + 1 end as at
       from generate_series(0, $2::int - 1) g cross join generate_series(0, ${MESSAGES_PER_SESSION - 1}) m
     ) msgs`,
    [workspaceId, sessions],
  );
  await db.query(`set maintenance_work_mem = '1GB'`);
  // Attaching builds the parent's indexes on the week in bulk, checks its range and its sessions.
  await step(
    'tool_calls: attach (indexes)',
    `alter table tool_calls attach partition tool_calls_w${suffix} for values from ('${from}') to ('${to}')`,
  );
  await step(
    'messages: attach (indexes)',
    `alter table messages attach partition messages_w${suffix} for values from ('${from}') to ('${to}')`,
  );
  await step('analyze', `analyze sessions, tool_calls_w${suffix}, messages_w${suffix}`);
  return { sessions, messages: sessions * MESSAGES_PER_SESSION, times };
}

/** Bytes of the raw tables with their indexes and TOAST (every partition), and of their rows. */
export async function rawSizes(db) {
  const [row] = await db.query(
    `select
       (select coalesce(sum(pg_total_relation_size(inhrelid)), 0) from pg_inherits where inhparent = 'tool_calls'::regclass)::float8 as tool_calls,
       (select coalesce(sum(pg_total_relation_size(inhrelid)), 0) from pg_inherits where inhparent = 'messages'::regclass)::float8 as messages,
       pg_total_relation_size('sessions')::float8 as sessions,
       pg_database_size(current_database())::float8 as database`,
  );
  return row;
}
