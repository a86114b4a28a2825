import type { Queryable } from '../db/database';
import { ARRAY_TYPE, binaryArray, type ElementType } from '../db/binaryArrays';
import { guardCte, type BatchTicket } from './batchGuard';
import type { QueuedMessage, QueuedToolCall, SessionState, UsageIncrement } from './rows';
import type { TrafficBatch } from './trafficRollup';
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

/** A table's columns, in its insert's order, with the types json_to_recordset reads them as. */
type Columns = readonly (readonly [name: string, type: string])[];

const SESSION_COLUMNS: Columns = [
  ['id', 'uuid'], ['workspace_id', 'uuid'], ['server_id', 'uuid'], ['mcp_session_id', 'text'], ['transport', 'text'],
  ['protocol_version', 'text'], ['client_name', 'text'], ['client_version', 'text'], ['client_key', 'text'], ['trace_id', 'text'],
  ['platform_key_id', 'uuid'], ['status', 'text'], ['started_at', 'timestamptz'], ['last_activity_at', 'timestamptz'], ['ended_at', 'timestamptz'],
  ['message_count', 'int'], ['call_count', 'int'], ['error_count', 'int'],
  ['argument_tokens', 'bigint'], ['result_tokens', 'bigint'], ['definition_tokens', 'bigint'],
];

const MESSAGE_COLUMNS: Columns = [
  ['workspace_id', 'uuid'], ['session_id', 'uuid'], ['seq', 'int'], ['direction', 'text'], ['kind', 'text'], ['method', 'text'],
  ['jsonrpc_id', 'text'], ['payload', 'text'], ['size_bytes', 'int'], ['truncated', 'bool'], ['created_at', 'timestamptz'], ['progress_count', 'int'],
];

// The request and response texts are written as they crossed the proxy, once (migration 007).
const TOOL_CALL_COLUMNS: readonly (readonly [name: keyof QueuedToolCall & string, type: ElementType])[] = [
  ['id', 'uuid'], ['workspace_id', 'uuid'], ['server_id', 'uuid'], ['session_id', 'uuid'], ['jsonrpc_id', 'text'], ['tool_name', 'text'],
  ['error_message', 'text'], ['status', 'text'], ['started_at', 'timestamptz'], ['ended_at', 'timestamptz'], ['duration_ms', 'int4'],
  ['request_bytes', 'int4'], ['response_bytes', 'int4'], ['tokens_estimate', 'int4'], ['meta', 'jsonb'], ['traceparent', 'text'],
  ['request_seq', 'int4'], ['request_payload', 'text'], ['request_truncated', 'bool'],
  ['response_seq', 'int4'], ['response_kind', 'text'], ['response_payload', 'text'], ['response_truncated', 'bool'],
  ['argument_tokens', 'int4'], ['result_tokens', 'int4'], ['error_class', 'text'], ['platform_key_id', 'uuid'],
];

const USAGE_COLUMNS: Columns = [
  ['workspace_id', 'uuid'], ['server_id', 'uuid'], ['tool_name', 'text'], ['bucket', 'timestamptz'], ['calls', 'int'], ['errors', 'int'],
  ['duration_sum_ms', 'bigint'], ['duration_max_ms', 'int'], ['duration_hist', 'int[]'], ['tokens', 'bigint'],
];

const names = (columns: readonly (readonly [string, string])[]) => columns.map(([name]) => name).join(', ');
const recordset = (columns: Columns) => `json_to_recordset($1::json) as x(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})${ROWS_END}`;
/** The columns' binary arrays ($1…$n, in order), zipped into rows. */
const unnested = (columns: typeof TOOL_CALL_COLUMNS) =>
  `unnest(${columns.map(([, type], i) => `$${i + 1}::${ARRAY_TYPE[type]}`).join(', ')}) as x(${names(columns)})${ROWS_END}`;
/** Marks where a guarded batch adds its condition (after the rows' source — recordset or unnest — before any on conflict). */
const ROWS_END = ' /*rows*/';
/** `name = excluded.name` for each column a later write of the same row may change. */
const updates = (...columns: string[]) => columns.map((name) => `${name} = excluded.${name}`).join(', ');

// A session's row may be written by several instances (any instance serves any session,
// docs/proxy.md): each knows part of it, so a write merges — what one does not know (null) keeps
// what another wrote, counts and last activity never go down, and an end stays. For a session only
// this instance writes, that is exactly the row it holds.
const mergedSession = (...columns: string[]) => columns.map((name) => `${name} = coalesce(excluded.${name}, sessions.${name})`);
const greatestOf = (...columns: string[]) => columns.map((name) => `${name} = greatest(sessions.${name}, excluded.${name})`);
const INSERT_SESSIONS = `insert into sessions (${names(SESSION_COLUMNS)})
  select ${names(SESSION_COLUMNS)} from ${recordset(SESSION_COLUMNS)}
  on conflict (id) do update set ${[
    ...mergedSession('mcp_session_id', 'protocol_version', 'client_name', 'client_version'),
    "status = case when sessions.status = 'ended' then sessions.status else excluded.status end",
    'ended_at = coalesce(sessions.ended_at, excluded.ended_at)',
    ...greatestOf('last_activity_at', 'message_count', 'call_count', 'error_count', 'argument_tokens', 'result_tokens', 'definition_tokens'),
  ].join(', ')}`;

// The payload travels as its JSON text (exactly as it crossed the proxy) and is stored as jsonb.
const INSERT_MESSAGES = `insert into messages (${names(MESSAGE_COLUMNS)})
  select workspace_id, session_id, seq, direction, kind, method, jsonrpc_id, payload::jsonb, size_bytes, truncated, created_at, progress_count
  from ${recordset(MESSAGE_COLUMNS)}`;

// New calls (nearly all) are plain inserts; a call first written pending gets its response (and
// outcome) by the conflict update: an upsert costs each row a speculative insertion.
const INSERT_NEW_TOOL_CALLS = `insert into tool_calls (${names(TOOL_CALL_COLUMNS)})
  select ${names(TOOL_CALL_COLUMNS)} from ${unnested(TOOL_CALL_COLUMNS)}`;
const UPSERT_TOOL_CALLS = `${INSERT_NEW_TOOL_CALLS}
  on conflict (id) do update set ${updates('error_message', 'status', 'ended_at', 'duration_ms', 'response_bytes', 'tokens_estimate', 'response_seq', 'response_kind', 'response_payload', 'response_truncated', 'argument_tokens', 'result_tokens', 'error_class')}`;

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
    binaryArray(type, calls.map((call) => (type === 'jsonb' && call[name] != null ? storableJsonText(call[name]) : call[name]))),
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
    this.parts.push(`w${this.parts.length} as (${guarded.replace(/\$(\d+)\b/g, (_, n: string) => `$${first + Number(n)}`)})`);
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
  insert.addRows(INSERT_SESSIONS, batch.sessions, SESSION_COLUMNS);
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
