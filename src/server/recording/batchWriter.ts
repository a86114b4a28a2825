import type { Queryable } from '../db/database';
import { ARRAY_TYPE, binaryArray } from '../db/binaryArrays';
import { MESSAGE_COLUMNS, SESSION_COLUMNS, TOOL_CALL_COLUMNS, USAGE_COLUMNS, type Columns } from './batchColumns';
import { guardCte, type BatchTicket } from './batchGuard';
import type { QueuedMessage, QueuedToolCall, SessionState, UsageIncrement } from './rows';
import type { TrafficBatch } from './trafficRows';
import { insertPendingSql, isEmptyTraffic, TOOL_LIST_COLUMNS, TRAFFIC_COLUMNS, upsertToolListsSql } from './trafficSql';

// One flush = one statement: the inserts are data-modifying CTEs of a single statement (PGlite and
// PostgreSQL alike). A statement is atomic on its own, so the batch needs no BEGIN/COMMIT; and it is
// one round trip whatever the rows: PGlite spends ~1 ms per statement besides its rows (planning,
// protocol round trips, commit). Foreign keys are checked at the end of the statement, so calls may
// reference sessions it inserts. How the rows travel (docs/benchmarks.md, "Recorder batch encoding"):
// - Tool calls, the bulk of every batch, as one binary array per column (binaryArrays.ts),
//   unnested side by side: nothing is escaped here or parsed there.
// - Sessions, messages and usage (a few rows per flush) as one JSON text per table, unpacked by
//   json_to_recordset. Text array literals, which both drivers build in JavaScript escaping every
//   element, cost 60 µs per call on PostgreSQL and 140 in PGlite.
export interface Batch {
  sessions: SessionState[];
  messages: QueuedMessage[];
  toolCalls: QueuedToolCall[];
  usage: UsageIncrement[];
  /** The analytics rollup of the calls settled since the last write (trafficRollup.ts), written whole. */
  traffic?: TrafficBatch | null;
}

/** The batch's rows that `keep` keeps. */
export function filterBatch(batch: Batch, keep: (row: object) => boolean): Batch {
  return {
    sessions: batch.sessions.filter(keep),
    messages: batch.messages.filter(keep),
    toolCalls: batch.toolCalls.filter(keep),
    usage: batch.usage.filter(keep),
    traffic: batch.traffic && keep(batch.traffic) ? batch.traffic : null,
  };
}

const names = (columns: readonly (readonly [string, string])[]) => columns.map(([name]) => name).join(', ');
const recordset = (columns: Columns) =>
  `json_to_recordset($1::json) as x(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})${ROWS_END}`;
/** The columns' binary arrays ($1…$n, in order), zipped into rows. */
const unnested = (columns: typeof TOOL_CALL_COLUMNS) =>
  `unnest(${columns.map(([, type], i) => `$${i + 1}::${ARRAY_TYPE[type]}`).join(', ')}) as x(${names(columns)})${ROWS_END}`;
/** Marks where a guarded batch adds its condition (after the rows' source — recordset or unnest — before any on conflict). */
const ROWS_END = ' /*rows*/';
/** `name = excluded.name` for each column a later write of the same row may change. */
const updates = (...columns: string[]) => columns.map((name) => `${name} = excluded.${name}`).join(', ');

// A session's row may be written by several instances (any instance serves any session,
// docs/proxy.md): each knows part of it, so a write merges — what one does not know (null) keeps
// what another wrote, last activity never goes back, and an end stays. Its counts are sums of
// parts (migration 024): each recorder writes its own part of each session as the absolute counts
// it has seen — kept with greatest(), so writing it again (a retried batch, a journal replay)
// changes nothing — and adds to the session's row what its part grew by, read in the same
// statement (every part of it reads one snapshot, and only this recorder writes its part, one
// statement at a time). Additions commute: two instances writing one session at once both count.
const mergedSession = (...columns: string[]) =>
  columns.map((name) => `${name} = coalesce(excluded.${name}, sessions.${name})`);
const COUNT_COLUMNS = [
  'message_count',
  'call_count',
  'error_count',
  'argument_tokens',
  'result_tokens',
  'definition_tokens',
] as const;
/** The session's columns as the recorder's batch carries them: its part's recorder beside the row. */
const SESSION_BATCH_COLUMNS: Columns = [...SESSION_COLUMNS, ['recorder_id', 'uuid']];
const isCount = (name: string) => (COUNT_COLUMNS as readonly string[]).includes(name);
/** What the part grew by since this recorder last wrote it (a new part: all of it). */
const grownBy = (name: string) => `greatest(x.${name} - coalesce(part.${name}, 0), 0)`;
const INSERT_SESSIONS = `insert into sessions (${names(SESSION_COLUMNS)})
  select ${SESSION_COLUMNS.map(([name]) => (isCount(name) ? grownBy(name) : `x.${name}`)).join(', ')}
  from json_to_recordset($1::json) as x(${SESSION_BATCH_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')})
  left join session_count_shares part on part.session_id = x.id and part.recorder_id = x.recorder_id${ROWS_END}
  on conflict (id) do update set ${[
    ...mergedSession('mcp_session_id', 'protocol_version', 'client_name', 'client_version'),
    "status = case when sessions.status = 'ended' then sessions.status else excluded.status end",
    'ended_at = coalesce(sessions.ended_at, excluded.ended_at)',
    'last_activity_at = greatest(sessions.last_activity_at, excluded.last_activity_at)',
    ...COUNT_COLUMNS.map((name) => `${name} = sessions.${name} + excluded.${name}`),
  ].join(', ')}`;
const SHARE_COLUMNS: Columns = [
  ['id', 'uuid'],
  ['recorder_id', 'uuid'],
  ...SESSION_COLUMNS.filter(([name]) => isCount(name)),
];
const UPSERT_SESSION_SHARES = `insert into session_count_shares (session_id, recorder_id, ${COUNT_COLUMNS.join(', ')})
  select ${names(SHARE_COLUMNS)} from ${recordset(SHARE_COLUMNS)}
  on conflict (session_id, recorder_id) do update set ${COUNT_COLUMNS.map(
    (name) => `${name} = greatest(session_count_shares.${name}, excluded.${name})`,
  ).join(', ')}`;

// The payload travels as its JSON text (exactly as it crossed the proxy) and is stored as jsonb.
const INSERT_MESSAGES = `insert into messages (${names(MESSAGE_COLUMNS)})
  select workspace_id, session_id, seq, direction, kind, method, jsonrpc_id, payload::jsonb, size_bytes, truncated, created_at, progress_count
  from ${recordset(MESSAGE_COLUMNS)}`;

// New calls (nearly all) are plain inserts; a call first written pending gets its response (and
// outcome) by the conflict update: an upsert costs each row a speculative insertion. Only a row
// still pending is updated: a settled call never reopens or settles twice — a task's call may be
// settled in the database by another instance (taskCalls.ts) while this one still holds it open.
const INSERT_NEW_TOOL_CALLS = `insert into tool_calls (${names(TOOL_CALL_COLUMNS)})
  select ${names(TOOL_CALL_COLUMNS)} from ${unnested(TOOL_CALL_COLUMNS)}`;
const UPSERT_TOOL_CALLS = `${INSERT_NEW_TOOL_CALLS}
  on conflict (id, started_at) do update set ${updates('error_message', 'status', 'ended_at', 'duration_ms', 'response_bytes', 'tokens_estimate', 'response_seq', 'response_kind', 'response_payload', 'response_truncated', 'argument_tokens', 'result_tokens', 'error_class', 'task_id', 'task_status', 'input_state', 'task_expires_at')}
  where tool_calls.status = 'pending'`;

const INSERT_USAGE = `insert into usage_minutes (${names(USAGE_COLUMNS)})
  select ${names(USAGE_COLUMNS)} from ${recordset(USAGE_COLUMNS)}
  on conflict (workspace_id, server_id, tool_name, bucket) do update set
    calls = usage_minutes.calls + excluded.calls,
    errors = usage_minutes.errors + excluded.errors,
    duration_sum_ms = usage_minutes.duration_sum_ms + excluded.duration_sum_ms,
    duration_max_ms = greatest(usage_minutes.duration_max_ms, excluded.duration_max_ms),
    duration_hist = array(select a + b from unnest(usage_minutes.duration_hist, excluded.duration_hist) as h(a, b)),
    tokens = usage_minutes.tokens + excluded.tokens`;

// JSON.stringify writes a lone surrogate (a tool name cut mid-pair, a "\ud800" escape in an agent's
// JSON) as a \udXXX escape, and NUL as \u0000: valid JSON that the database refuses to turn into
// text, failing the whole batch. Only real escapes count (an odd run of backslashes before the u);
// the stringified text has no paired-surrogate escapes (it writes pairs as characters), so every
// real \ud800–\udfff escape in it is a lone one.
const REFUSED_ESCAPES = /(?<=(?:^|[^\\])(?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;
/** Cheap first look (no lookbehind): most batches hold no such escape, real or escaped. */
const MAYBE_REFUSED = /\\u(?:0000|d[89a-f])/;

/** JSON text of `value` the database can read as text (and so as jsonb). */
function storableJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return MAYBE_REFUSED.test(text) ? text.replace(REFUSED_ESCAPES, '\\ufffd') : text;
}

/** The rows as one JSON text (only the listed columns), safe for the database to read as text. */
function rowsAsJson(rows: readonly object[], columns: Columns): string {
  return storableJsonText(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const [name] of columns) out[name] = (row as Record<string, unknown>)[name];
      return out;
    }),
  );
}

/** The calls as one binary array per column, in TOOL_CALL_COLUMNS' order. */
function toolCallArrays(calls: readonly QueuedToolCall[]): Buffer[] {
  return TOOL_CALL_COLUMNS.map(([name, type]) =>
    binaryArray(
      type,
      calls.map((call) => (type === 'jsonb' && call[name] != null ? storableJsonText(call[name]) : call[name])),
    ),
  );
}

/** One statement of several inserts, each reading its own parameters. */
class CombinedInsert {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];
  /** With a guard (see batchGuard.ts): each insert reads only when the guard let the batch through. */
  private guarded = false;

  guard(ticket: BatchTicket): void {
    this.params.push(ticket.recorderId, String(ticket.seq));
    this.parts.push(`guard as (${guardCte(`$${this.params.length - 1}`, `$${this.params.length}`)})`);
    this.guarded = true;
  }

  /** `sql` reads its parameters as $1…$n; here they follow the ones already added. */
  add(sql: string, params: readonly unknown[]): void {
    const first = this.params.length;
    this.params.push(...params);
    const guarded = this.guarded ? sql.replace(ROWS_END, ' where exists (select 1 from guard)') : sql;
    this.parts.push(
      `w${this.parts.length} as (${guarded.replace(/\$(\d+)\b/g, (_, n: string) => `$${first + Number(n)}`)})`,
    );
  }

  addRows(sql: string, rows: readonly object[], columns: Columns): void {
    if (rows.length > 0) this.add(sql, [rowsAsJson(rows, columns)]);
  }

  get empty(): boolean {
    return this.parts.length === (this.guarded ? 1 : 0);
  }

  get sql(): string {
    return `with ${this.parts.join(',\n')} select 1`;
  }
}

/**
 * `ticket`: write the batch exactly once — a batch written again after an unknown outcome stores
 * nothing if its first write was committed (batchGuard.ts).
 */
export async function writeBatch(db: Queryable, batch: Batch, ticket?: BatchTicket): Promise<void> {
  const insert = new CombinedInsert();
  if (ticket) insert.guard(ticket);
  // Both read the parts as they were before this statement (one snapshot): the session adds what
  // its part grew by, and the part is set to what it is now.
  insert.addRows(INSERT_SESSIONS, batch.sessions, SESSION_BATCH_COLUMNS);
  insert.addRows(UPSERT_SESSION_SHARES, batch.sessions, SHARE_COLUMNS);
  insert.addRows(INSERT_MESSAGES, batch.messages, MESSAGE_COLUMNS);
  const newCalls = batch.toolCalls.filter((call) => !call.writtenBefore);
  const rewrittenCalls = batch.toolCalls.filter((call) => call.writtenBefore);
  if (newCalls.length > 0) insert.add(INSERT_NEW_TOOL_CALLS, toolCallArrays(newCalls));
  if (rewrittenCalls.length > 0) insert.add(UPSERT_TOOL_CALLS, toolCallArrays(rewrittenCalls));
  insert.addRows(INSERT_USAGE, batch.usage, USAGE_COLUMNS);
  const traffic = batch.traffic;
  if (traffic && !isEmptyTraffic(traffic)) {
    // Minute increments only, stored as they are: the fold sums them into every grain (trafficFold.ts).
    insert.addRows(insertPendingSql(recordset(TRAFFIC_COLUMNS)), traffic.minutes, TRAFFIC_COLUMNS);
    insert.addRows(upsertToolListsSql(recordset(TOOL_LIST_COLUMNS)), traffic.toolLists, TOOL_LIST_COLUMNS);
  }
  if (insert.empty) return;
  // The same few statement texts come back with every flush: prepared once, then only executed.
  if (db.runPrepared) await db.runPrepared(insert.sql, insert.params);
  else await db.query(insert.sql, insert.params);
}
