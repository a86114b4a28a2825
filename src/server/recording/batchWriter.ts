import type { Queryable } from '../db/database';
import type { QueuedMessage, QueuedToolCall, SessionState, UsageIncrement } from './rows';

// One flush = one statement: each table's rows are a multi-row insert through unnest() of parameter
// arrays, and the inserts are data-modifying CTEs of a single statement (PGlite and PostgreSQL
// alike). A statement is atomic on its own, so the batch needs no BEGIN/COMMIT; and it is one round
// trip whatever the rows: PGlite spends ~0.5 ms of CPU per statement before it touches a row, which
// was most of a small batch's cost when each table (and the transaction) took a statement of its own.
// Foreign keys are checked at the end of the statement, so calls may reference sessions it inserts.
export interface Batch {
  sessions: SessionState[];
  messages: QueuedMessage[];
  toolCalls: QueuedToolCall[];
  usage: UsageIncrement[];
}

const col = <T, K extends keyof T>(rows: T[], key: K) => rows.map((r) => r[key]);
const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** One statement of several inserts: each part's $n are renumbered after the parts before it. */
class CombinedInsert {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, params: unknown[]): void {
    const offset = this.params.length;
    this.parts.push(`w${this.parts.length} as (${sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`);
    this.params.push(...params);
  }

  get empty(): boolean {
    return this.parts.length === 0;
  }

  get sql(): string {
    return `with ${this.parts.join(',\n')} select 1`;
  }
}

export async function writeBatch(db: Queryable, batch: Batch): Promise<void> {
  const insert = new CombinedInsert();
  if (batch.sessions.length > 0) {
    const s = batch.sessions;
    insert.add(
      `insert into sessions (id, workspace_id, server_id, mcp_session_id, transport, protocol_version, client_name, client_version,
         client_key, trace_id, status, started_at, last_activity_at, ended_at, message_count, call_count, error_count)
       select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::timestamptz[], $14::timestamptz[], $15::int[], $16::int[], $17::int[])
       on conflict (id) do update set mcp_session_id = excluded.mcp_session_id, protocol_version = excluded.protocol_version,
         client_name = excluded.client_name, client_version = excluded.client_version, status = excluded.status,
         last_activity_at = excluded.last_activity_at, ended_at = excluded.ended_at, message_count = excluded.message_count,
         call_count = excluded.call_count, error_count = excluded.error_count`,
      [
        col(s, 'id'), col(s, 'workspace_id'), col(s, 'server_id'), col(s, 'mcp_session_id'), col(s, 'transport'), col(s, 'protocol_version'),
        col(s, 'client_name'), col(s, 'client_version'), col(s, 'client_key'), col(s, 'trace_id'), col(s, 'status'), col(s, 'started_at'),
        col(s, 'last_activity_at'), col(s, 'ended_at'), col(s, 'message_count'), col(s, 'call_count'), col(s, 'error_count'),
      ],
    );
  }
  if (batch.messages.length > 0) {
    const m = batch.messages;
    insert.add(
      `insert into messages (workspace_id, session_id, seq, direction, kind, method, jsonrpc_id, payload, size_bytes, truncated, created_at)
       select w, s, q, d, k, me, j, p::jsonb, b, t, c
       from unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::bool[], $11::timestamptz[])
         as x(w, s, q, d, k, me, j, p, b, t, c)`,
      [
        col(m, 'workspace_id'), col(m, 'session_id'), col(m, 'seq'), col(m, 'direction'), col(m, 'kind'), col(m, 'method'),
        col(m, 'jsonrpc_id'), col(m, 'payload'), col(m, 'size_bytes'), col(m, 'truncated'), col(m, 'created_at'),
      ],
    );
  }
  if (batch.toolCalls.length > 0) {
    const t = batch.toolCalls;
    // The request and response texts are written as they crossed the proxy, once (migration 007);
    // a call first written pending gets its response (and outcome) by the conflict update.
    insert.add(
      `insert into tool_calls (id, workspace_id, server_id, session_id, jsonrpc_id, tool_name, error_message, status,
         started_at, ended_at, duration_ms, request_bytes, response_bytes, tokens_estimate, meta, traceparent,
         request_seq, request_payload, request_truncated, response_seq, response_kind, response_payload, response_truncated)
       select i, w, sv, se, j, n, e, st, sa, ea, d, rq, rs, tk, me::jsonb, tp, qs, qp, qt, ps, pk, pp, pt
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::timestamptz[], $10::timestamptz[], $11::int[], $12::int[], $13::int[], $14::int[], $15::text[], $16::text[],
         $17::int[], $18::text[], $19::bool[], $20::int[], $21::text[], $22::text[], $23::bool[])
         as x(i, w, sv, se, j, n, e, st, sa, ea, d, rq, rs, tk, me, tp, qs, qp, qt, ps, pk, pp, pt)
       on conflict (id) do update set error_message = excluded.error_message, status = excluded.status,
         ended_at = excluded.ended_at, duration_ms = excluded.duration_ms, response_bytes = excluded.response_bytes,
         tokens_estimate = excluded.tokens_estimate, response_seq = excluded.response_seq, response_kind = excluded.response_kind,
         response_payload = excluded.response_payload, response_truncated = excluded.response_truncated`,
      [
        col(t, 'id'), col(t, 'workspace_id'), col(t, 'server_id'), col(t, 'session_id'), col(t, 'jsonrpc_id'), col(t, 'tool_name'),
        col(t, 'error_message'), col(t, 'status'), col(t, 'started_at'), col(t, 'ended_at'), col(t, 'duration_ms'),
        col(t, 'request_bytes'), col(t, 'response_bytes'), col(t, 'tokens_estimate'), t.map((r) => json(r.meta)), col(t, 'traceparent'),
        col(t, 'request_seq'), col(t, 'request_payload'), col(t, 'request_truncated'),
        col(t, 'response_seq'), col(t, 'response_kind'), col(t, 'response_payload'), col(t, 'response_truncated'),
      ],
    );
  }
  if (batch.usage.length > 0) {
    const u = batch.usage;
    // int[] of a 2-D array would need a rectangular parameter; the 12 histogram counts travel as text.
    insert.add(
      `insert into usage_minutes (workspace_id, server_id, tool_name, bucket, calls, errors, duration_sum_ms, duration_max_ms, duration_hist, tokens)
       select w, s, n, b, c, e, ds, dm, h::int[], t
       from unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::int[], $6::int[], $7::bigint[], $8::int[], $9::text[], $10::bigint[])
         as x(w, s, n, b, c, e, ds, dm, h, t)
       on conflict (workspace_id, server_id, tool_name, bucket) do update set
         calls = usage_minutes.calls + excluded.calls,
         errors = usage_minutes.errors + excluded.errors,
         duration_sum_ms = usage_minutes.duration_sum_ms + excluded.duration_sum_ms,
         duration_max_ms = greatest(usage_minutes.duration_max_ms, excluded.duration_max_ms),
         duration_hist = array(select a + b from unnest(usage_minutes.duration_hist, excluded.duration_hist) as h(a, b)),
         tokens = usage_minutes.tokens + excluded.tokens`,
      [
        col(u, 'workspace_id'), col(u, 'server_id'), col(u, 'tool_name'), col(u, 'bucket'), col(u, 'calls'), col(u, 'errors'),
        col(u, 'duration_sum_ms'), col(u, 'duration_max_ms'), u.map((r) => `{${r.duration_hist.join(',')}}`), col(u, 'tokens'),
      ],
    );
  }
  if (!insert.empty) await db.query(insert.sql, insert.params);
}
