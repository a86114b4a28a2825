import { randomBytes, randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../../src/server/db/database';
import { signedInAccessToken } from '../helpers/signedInToken';
import { durationHistogramIndex } from '../../../src/contract/sessions';
import { writeBatch } from '../../../src/server/recording/batchWriter';
import type { QueuedToolCall } from '../../../src/server/recording/rows';
import { foldAllPendingTraffic } from '../../../src/server/recording/trafficFold';
import { TrafficRollup } from '../../../src/server/recording/trafficRollup';

// Rows as the proxy's recorder writes them, inserted with multi-row statements.

/**
 * One multi-row insert: `insert` is the statement up to `values`; `row` gives each item's bound
 * values, then any SQL literals that follow them in the row.
 */
async function insertRows<T>(
  db: Queryable,
  insert: string,
  items: T[],
  row: (item: T, index: number) => [bound: unknown[], literals?: string],
): Promise<void> {
  const values: unknown[] = [];
  const rows = items.map((item, index) => {
    const [bound, literals] = row(item, index);
    const placeholders = bound.map((value) => {
      values.push(value);
      return `$${values.length}`;
    });
    return `(${[...placeholders, ...(literals === undefined ? [] : [literals])].join(', ')})`;
  });
  await db.query(`${insert} values ${rows.join(', ')}`, values);
}

export interface SeededWorkspace {
  userId: string;
  workspaceId: string;
  token: string;
}

export async function seedWorkspace(db: Queryable, secret: string, name = 'Acme'): Promise<SeededWorkspace> {
  const userId = randomUUID();
  const workspaceId = randomUUID();
  await db.query(
    `insert into users (id, email, password_hash, first_name, last_name) values ($1, $2, 'x', 'Ada', 'Lovelace')`,
    [userId, `${userId}@example.com`],
  );
  await db.query(`insert into workspaces (id, name, owner_id) values ($1, $2, $3)`, [workspaceId, name, userId]);
  await db.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner')`, [
    workspaceId,
    userId,
  ]);
  return { userId, workspaceId, token: await signedInAccessToken(db, userId, secret) };
}

export async function seedServer(
  db: Queryable,
  workspaceId: string,
  name: string,
  status: 'online' | 'offline' = 'online',
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into servers (id, workspace_id, name, url, proxy_key, status) values ($1, $2, $3, $4, $5, $6)`,
    [id, workspaceId, name, `http://127.0.0.1:9/${name}`, randomBytes(16).toString('hex'), status],
  );
  return id;
}

export interface SessionSeed {
  id?: string;
  serverId: string;
  clientName?: string | null;
  clientVersion?: string | null;
  protocolVersion?: string;
  status?: 'active' | 'ended';
  startedAt: string;
  lastActivityAt?: string;
  endedAt?: string | null;
  callCount?: number;
  errorCount?: number;
  messageCount?: number;
}

export async function insertSessions(db: Queryable, workspaceId: string, sessions: SessionSeed[]): Promise<string[]> {
  const ids = sessions.map((s) => s.id ?? randomUUID());
  await insertRows(
    db,
    `insert into sessions (id, workspace_id, server_id, client_name, client_version, protocol_version, status, started_at,
       last_activity_at, ended_at, call_count, error_count, transport, message_count)`,
    sessions,
    (s, i) => [
      [
        ids[i],
        workspaceId,
        s.serverId,
        s.clientName === undefined ? 'claude-code' : s.clientName,
        s.clientVersion === undefined ? '1.0.0' : s.clientVersion,
        s.protocolVersion ?? '2025-06-18',
        s.status ?? (s.endedAt ? 'ended' : 'active'),
        s.startedAt,
        s.lastActivityAt ?? s.endedAt ?? s.startedAt,
        s.endedAt ?? null,
        s.callCount ?? 0,
        s.errorCount ?? 0,
      ],
      `'streamable-http', ${s.messageCount ?? 0}`,
    ],
  );
  return ids;
}

export interface ToolCallSeed {
  id?: string;
  sessionId: string;
  serverId: string;
  jsonrpcId?: string;
  toolName: string;
  arguments?: unknown;
  result?: unknown;
  errorMessage?: string | null;
  status?: 'ok' | 'error' | 'pending';
  startedAt: string;
  durationMs?: number;
  meta?: unknown;
  traceparent?: string | null;
  tokens?: number;
}

export async function insertToolCalls(db: Queryable, workspaceId: string, calls: ToolCallSeed[]): Promise<string[]> {
  const ids = calls.map((c) => c.id ?? randomUUID());
  await insertRows(
    db,
    `insert into tool_calls (id, workspace_id, server_id, session_id, jsonrpc_id, tool_name, arguments, result, error_message,
       status, started_at, ended_at, duration_ms, meta, traceparent, request_bytes, response_bytes, tokens_estimate)`,
    calls,
    (c, i) => {
      const duration = c.status === 'pending' ? null : (c.durationMs ?? 10);
      return [
        [
          ids[i],
          workspaceId,
          c.serverId,
          c.sessionId,
          c.jsonrpcId ?? String(i + 1),
          c.toolName,
          JSON.stringify(c.arguments ?? {}),
          c.result === undefined ? null : JSON.stringify(c.result),
          c.errorMessage ?? null,
          c.status ?? 'ok',
          c.startedAt,
          duration === null ? null : new Date(Date.parse(c.startedAt) + duration).toISOString(),
          duration,
          c.meta === undefined ? null : JSON.stringify(c.meta),
          c.traceparent ?? null,
        ],
        `100, 200, ${c.tokens ?? 0}`,
      ];
    },
  );
  return ids;
}

export interface MessageSeed {
  seq: number;
  direction: 'client_to_server' | 'server_to_client';
  kind: 'request' | 'response' | 'notification' | 'error';
  method?: string | null;
  jsonrpcId?: string | null;
  payload: unknown;
  createdAt: string;
  truncated?: boolean;
}

export async function insertMessages(
  db: Queryable,
  workspaceId: string,
  sessionId: string,
  messages: MessageSeed[],
): Promise<void> {
  await insertRows(
    db,
    `insert into messages (workspace_id, session_id, seq, direction, kind, method, jsonrpc_id, payload, size_bytes, created_at, truncated)`,
    messages,
    (m) => {
      const payload = JSON.stringify(m.payload);
      return [
        [
          workspaceId,
          sessionId,
          m.seq,
          m.direction,
          m.kind,
          m.method ?? null,
          m.jsonrpcId ?? null,
          payload,
          Buffer.byteLength(payload),
          m.createdAt,
        ],
        m.truncated ? 'true' : 'false',
      ];
    },
  );
}

export interface UsageSeed {
  serverId: string;
  toolName: string;
  /** Minute start, ISO. */
  bucket: string;
  /** Durations (ms) of the minute's calls; `errors` of them failed. */
  durations: number[];
  errors?: number;
  tokens?: number;
}

/** Minute rollups built the way the recorder builds them (histogram via durationHistogramIndex). */
export async function insertUsage(db: Queryable, workspaceId: string, usage: UsageSeed[]): Promise<void> {
  await insertRows(
    db,
    `insert into usage_minutes (workspace_id, server_id, tool_name, bucket, calls, errors, duration_sum_ms, duration_max_ms, duration_hist, tokens)`,
    usage,
    (u) => {
      const hist = new Array<number>(12).fill(0);
      for (const d of u.durations) hist[durationHistogramIndex(d)] += 1;
      return [
        [
          workspaceId,
          u.serverId,
          u.toolName,
          u.bucket,
          u.durations.length,
          u.errors ?? 0,
          u.durations.reduce((a, b) => a + b, 0),
          Math.max(0, ...u.durations),
          hist,
          u.tokens ?? 0,
        ],
      ];
    },
  );
}

export function minutesAgo(now: number, minutes: number): string {
  return new Date(now - minutes * 60_000).toISOString();
}

/**
 * The analytics rollups of such minutes, written as the recorder writes them (TrafficRollup, one
 * batch) and folded into every grain: what /tool-calls/time-series and /analytics/* read. Each
 * call's tokens are given (the minute's `tokens` on its first call), not counted by the tokenizer.
 */
export async function insertTraffic(db: Database, workspaceId: string, usage: UsageSeed[]): Promise<void> {
  const rollup = new TrafficRollup();
  for (const minute of usage) {
    minute.durations.forEach((duration, i) => {
      const endedMs = Date.parse(minute.bucket) + 30_000;
      rollup.add({
        id: randomUUID(),
        workspace_id: workspaceId,
        server_id: minute.serverId,
        server_name: null,
        session_id: randomUUID(),
        jsonrpc_id: String(i),
        tool_name: minute.toolName,
        error_message: i < (minute.errors ?? 0) ? 'failed' : null,
        status: i < (minute.errors ?? 0) ? 'error' : 'ok',
        started_at: new Date(endedMs - duration).toISOString(),
        ended_at: new Date(endedMs).toISOString(),
        duration_ms: duration,
        argument_tokens: i === 0 ? (minute.tokens ?? 0) : 0,
        result_tokens: 0,
      } as QueuedToolCall);
    });
  }
  const { traffic } = rollup.take();
  await writeBatch(db, { sessions: [], messages: [], toolCalls: [], usage: [], traffic });
  await foldAllPendingTraffic(db);
}
