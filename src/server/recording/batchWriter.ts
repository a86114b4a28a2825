import type { Database } from '../db/database';
import type { QueuedMessage, QueuedToolCall, SessionState, UsageIncrement } from './rows';

// One flush = at most four statements, each a multi-row insert through unnest() of parameter
// arrays (PGlite and PostgreSQL alike): 10k rows cost one round trip, not 10k.
export interface Batch {
  sessions: SessionState[];
  messages: QueuedMessage[];
  toolCalls: QueuedToolCall[];
  usage: UsageIncrement[];
}

const col = <T, K extends keyof T>(rows: T[], key: K) => rows.map((r) => r[key]);
const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export async function writeBatch(db: Database, batch: Batch): Promise<void> {
  await db.transaction(async (tx) => {
    if (batch.sessions.length > 0) {
      const s = batch.sessions;
      await tx.query(
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
      await tx.query(
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
      await tx.query(
        `insert into tool_calls (id, workspace_id, server_id, session_id, jsonrpc_id, tool_name, arguments, result, error_message, status,
           started_at, ended_at, duration_ms, request_bytes, response_bytes, tokens_estimate, meta, traceparent)
         select i, w, sv, se, j, n, a::jsonb, r::jsonb, e, st, sa, ea, d, rq, rs, tk, me::jsonb, tp
         from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
           $11::timestamptz[], $12::timestamptz[], $13::int[], $14::int[], $15::int[], $16::int[], $17::text[], $18::text[])
           as x(i, w, sv, se, j, n, a, r, e, st, sa, ea, d, rq, rs, tk, me, tp)
         on conflict (id) do update set result = excluded.result, error_message = excluded.error_message, status = excluded.status,
           ended_at = excluded.ended_at, duration_ms = excluded.duration_ms, response_bytes = excluded.response_bytes,
           tokens_estimate = excluded.tokens_estimate`,
        [
          col(t, 'id'), col(t, 'workspace_id'), col(t, 'server_id'), col(t, 'session_id'), col(t, 'jsonrpc_id'), col(t, 'tool_name'),
          t.map((r) => json(r.arguments)), t.map((r) => json(r.result)), col(t, 'error_message'), col(t, 'status'), col(t, 'started_at'),
          col(t, 'ended_at'), col(t, 'duration_ms'), col(t, 'request_bytes'), col(t, 'response_bytes'), col(t, 'tokens_estimate'),
          t.map((r) => json(r.meta)), col(t, 'traceparent'),
        ],
      );
    }
    if (batch.usage.length > 0) {
      const u = batch.usage;
      // int[] of a 2-D array would need a rectangular parameter; the 12 histogram counts travel as text.
      await tx.query(
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
  });
}
