import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database';
import { writeBatch, type Batch } from '../batchWriter';
import type { QueuedMessage, QueuedSession, QueuedToolCall, SessionState } from '../rows';
import { TrafficRollup } from '../trafficRollup';
import { UsageRollup } from '../usageRollup';
import type { JournaledCounts } from './journaledRows';
import type { LeftoverSegment } from './segmentFiles';

// At start, before the proxy serves: the rows a previous process journaled but may not have
// written (it was killed, or the database was away when it stopped) are written now — idempotently.
// What the database already holds is asked first and left alone: a session or call that exists is
// not written again (an ended session or a settled call is never set back; a pending call gets
// the outcome the journal holds), a message whose (session, seq) exists is skipped. Usage and
// analytics rollups, which only add up, are counted for the calls this replay settles and nothing
// else, in the same statement as those calls — so replaying twice, or after a crash part way
// through a replay, stores every row once and counts every call once. (The recorder's batch guard
// makes one recorder's retried batch exactly-once; a replay is a new process whose batches were
// cut differently, so it asks the database what it holds instead.) Nothing runs beside a replay:
// the folder is locked to this process and the proxy is not serving yet.

export interface ReplayResult {
  sessions: number;
  messages: number;
  toolCalls: number;
  /** Rows the database already held (or whose server was deleted). */
  skipped: number;
  /** Segments whose reading stopped at a cut record or a bad checksum. */
  damagedSegments: number;
}

const CALLS_PER_STATEMENT = 250;
const MESSAGES_PER_STATEMENT = 500;

export async function replayJournal(db: Queryable, segments: readonly LeftoverSegment[]): Promise<ReplayResult> {
  const sessions = new Map<string, SessionState>();
  const calls = new Map<string, JournaledCall>();
  const messages = new Map<string, QueuedMessage>();
  const counts = new Map<string, JournaledCounts>();
  for (const segment of segments) {
    // Read back from disk: an entry's kind is whatever the file says.
    for (const { k, r } of segment.entries as { k: string; r: Record<string, unknown> }[]) {
      if (k === 's') {
        // One entry per part (batchWriter.ts): a folder whose replay failed holds the parts of the
        // process before and of the one that journaled beside them.
        const key = `${r.id as string}|${(r.recorder_id as string | undefined) ?? ''}`;
        sessions.set(key, latestSession(sessions.get(key), r as unknown as SessionState));
      } else if (k === 'n') {
        const next = r as unknown as JournaledCounts;
        const key = `${next.id}|${next.recorder_id ?? ''}`;
        const before = counts.get(key);
        counts.set(key, before ? maxCounts(before, next) : next);
      } else if (k === 'c')
        calls.set(r.id as string, latestCall(calls.get(r.id as string), r as unknown as JournaledCall));
      else if (k === 'm') messages.set(`${r.session_id as string}|${r.seq as number}`, r as unknown as QueuedMessage);
    }
  }
  await applyCounts(db, sessions, counts);
  const result: ReplayResult = {
    sessions: 0,
    messages: 0,
    toolCalls: 0,
    skipped: 0,
    damagedSegments: segments.filter((s) => s.stoppedBy !== null).length,
  };
  const total = sessions.size + calls.size + messages.size;
  if (total === 0) return result;

  const serverIds = new Set(
    [...sessions.values()].map((s) => s.server_id).concat([...calls.values()].map((c) => c.server_id)),
  );
  const liveServers = new Set(
    await ids(db, 'select id::text as id from servers where id = any($1::uuid[])', [...serverIds]),
  );
  const sessionIds = new Set([
    ...[...sessions.values()].map((s) => s.id),
    ...[...calls.values()].map((c) => c.session_id),
    ...[...messages.values()].map((m) => m.session_id),
  ]);
  const storedSessions = await statuses(db, 'select id::text as id, status from sessions where id = any($1::uuid[])', [
    ...sessionIds,
  ]);
  const storedCalls = await statuses(db, 'select id::text as id, status from tool_calls where id = any($1::uuid[])', [
    ...calls.keys(),
  ]);
  const storedMessages = new Set(
    (
      await db.query<{ session_id: string; seq: number }>(
        'select session_id::text as session_id, seq from messages where session_id = any($1::uuid[])',
        [[...sessionIds]],
      )
    ).map((m) => `${m.session_id}|${m.seq}`),
  );

  // A session's counts are the journaling recorder's part of them (batchWriter.ts): written again
  // whatever the database holds, the part keeps the larger and the session adds only what it grew
  // by. A record from before parts (no recorder) is written only where it is new or ends the row.
  const sessionRows = [...sessions.values()]
    .filter((s) => {
      const stored = storedSessions.get(s.id);
      if (!liveServers.has(s.server_id)) return false;
      return s.recorder_id !== undefined || stored === undefined || (stored === 'active' && s.status === 'ended');
    })
    .map((s) => (s.recorder_id !== undefined || !storedSessions.has(s.id) ? s : withoutCounts(s)))
    .map((s) => (s.recorder_id !== undefined ? s : { ...s, recorder_id: randomUUID() }));
  // One statement may upsert a session once: a second part of one follows in a statement of its own.
  const firstParts = sessionRows.filter((s, i) => sessionRows.findIndex((o) => o.id === s.id) === i);
  const laterParts = sessionRows.filter((s) => !firstParts.includes(s));
  const newSessions = firstParts.filter((s) => !storedSessions.has(s.id));
  const written = new Set(sessionRows.map((s) => s.id));
  const knownSessions = new Set([...sessionIds].filter((id) => storedSessions.has(id) || written.has(id)));
  const callRows = [...calls.values()].filter((c) => {
    const stored = storedCalls.get(c.id);
    if (!liveServers.has(c.server_id) || !knownSessions.has(c.session_id)) return false;
    return stored === undefined || (stored === 'pending' && c.status !== 'pending');
  });
  const messageRows = [...messages.entries()]
    .filter(([key, m]) => knownSessions.has(m.session_id) && !storedMessages.has(key))
    .map(([, m]) => m);
  // Counted as stored: sessions new to the database or ended by the replay (a part written again
  // changes nothing else, and may change nothing at all).
  const storedAnew = sessionRows.filter((s) => {
    const stored = storedSessions.get(s.id);
    return stored === undefined || (stored === 'active' && s.status === 'ended');
  }).length;
  result.skipped = total - storedAnew - callRows.length - messageRows.length;

  const usage = new UsageRollup();
  const traffic = new TrafficRollup();
  for (const row of newSessions) traffic.noteSession(asQueued(row));
  let first = true;
  for (let c = 0, m = 0; first || c < callRows.length || m < messageRows.length; first = false) {
    const chunkCalls = callRows
      .slice(c, (c += CALLS_PER_STATEMENT))
      .map((call) => ({ ...withRequest(call), writtenBefore: storedCalls.has(call.id) }));
    const chunkMessages = messageRows.slice(m, (m += MESSAGES_PER_STATEMENT));
    for (const call of chunkCalls) {
      if (call.status === 'pending') continue;
      usage.add(call);
      traffic.add(call);
    }
    const batch: Batch = {
      sessions: first ? firstParts : [],
      messages: chunkMessages,
      toolCalls: chunkCalls,
      usage: usage.take(),
      traffic: traffic.take().traffic,
    };
    await writeBatch(db, batch);
  }
  for (const part of laterParts) await writeBatch(db, { sessions: [part], messages: [], toolCalls: [], usage: [] });
  result.sessions = storedAnew;
  result.toolCalls = callRows.length;
  result.messages = messageRows.length;
  return result;
}

/** Of two count records of one part, the larger counts (a part's counts only grow). */
function maxCounts<T extends Pick<SessionState, 'message_count' | 'call_count' | 'error_count'>>(
  before: T,
  next: T,
): T {
  return {
    ...next,
    message_count: Math.max(before.message_count, next.message_count),
    call_count: Math.max(before.call_count, next.call_count),
    error_count: Math.max(before.error_count, next.error_count),
  };
}

/** The session's columns a part is written with when the journal holds its counts but not its row. */
const STORED_SESSION_SQL = `select id::text as id, workspace_id::text as workspace_id, server_id::text as server_id,
  mcp_session_id, transport, protocol_version, client_name, client_version, client_key, trace_id,
  platform_key_id::text as platform_key_id, status, started_at, last_activity_at, ended_at
  from sessions where id = any($1::uuid[])`;

/**
 * The counts journaled between a session's snapshots raise its part's snapshot. Where the snapshot's
 * segment is gone (its write was committed) the session's row is in the database: the part is
 * written with the stored row's fields and the journaled counts (tokens 0: the part keeps its own).
 */
async function applyCounts(
  db: Queryable,
  sessions: Map<string, SessionState>,
  counts: ReadonlyMap<string, JournaledCounts>,
): Promise<void> {
  const missing = [...counts].filter(([key, part]) => !sessions.has(key) && part.recorder_id !== undefined);
  const stored =
    missing.length === 0
      ? new Map<string, SessionState>()
      : new Map(
          (await db.query<SessionState>(STORED_SESSION_SQL, [[...new Set(missing.map(([, part]) => part.id))]])).map(
            (row) => [row.id, row],
          ),
        );
  for (const [key, part] of counts) {
    const snapshot = sessions.get(key);
    if (snapshot) {
      sessions.set(key, maxCounts(snapshot, { ...snapshot, ...part, recorder_id: snapshot.recorder_id }));
      continue;
    }
    const row = stored.get(part.id);
    if (!row || part.recorder_id === undefined) continue; // its server was deleted: nothing to count
    sessions.set(key, {
      ...row,
      server_name: null,
      argument_tokens: 0,
      result_tokens: 0,
      definition_tokens: 0,
      recorder_id: part.recorder_id,
      message_count: part.message_count,
      call_count: part.call_count,
      error_count: part.error_count,
    });
  }
}

/** Snapshots of one session: the last one, never with fewer messages or an earlier end. */
function latestSession(before: SessionState | undefined, next: SessionState): SessionState {
  if (!before) return next;
  if (before.status === 'ended' && next.status !== 'ended') return before;
  return maxCounts(before, next);
}

/**
 * Snapshots of one call: a settled one is never replaced by its pending one, and a settled one
 * without the request's text (journaledRows.ts) takes it from the pending one.
 */
/** A call as the journal holds it: a settled one may lack the request's text (journaledRows.ts). */
type JournaledCall = Omit<QueuedToolCall, 'request_payload'> & { request_payload?: QueuedToolCall['request_payload'] };

function latestCall(before: JournaledCall | undefined, next: JournaledCall): JournaledCall {
  if (before && before.status !== 'pending' && next.status === 'pending')
    return { ...before, request_payload: before.request_payload ?? next.request_payload };
  return next.request_payload === undefined && before?.request_payload !== undefined
    ? { ...next, request_payload: before.request_payload }
    : next;
}

/**
 * A settled call whose pending record is gone and whose row the database does not hold: not one
 * this journal writes (the pending record is deleted only once the row is stored), but a row
 * without its request must still be storable — its request reads as cut, with nothing kept.
 */
function withRequest(call: JournaledCall): QueuedToolCall {
  const { request_payload } = call;
  return request_payload === undefined
    ? { ...call, request_payload: '', request_truncated: true }
    : { ...call, request_payload };
}

/** A session record from before parts, whose row exists: its counts are in the row already. */
function withoutCounts(row: SessionState): SessionState {
  return {
    ...row,
    message_count: 0,
    call_count: 0,
    error_count: 0,
    argument_tokens: 0,
    result_tokens: 0,
    definition_tokens: 0,
  };
}

function asQueued(row: SessionState): QueuedSession {
  return { row, announced: true, endAnnounced: true };
}

async function ids(db: Queryable, sql: string, values: string[]): Promise<string[]> {
  if (values.length === 0) return [];
  return (await db.query<{ id: string }>(sql, [values])).map((r) => r.id);
}

async function statuses(db: Queryable, sql: string, values: string[]): Promise<Map<string, string>> {
  if (values.length === 0) return new Map();
  return new Map((await db.query<{ id: string; status: string }>(sql, [values])).map((r) => [r.id, r.status]));
}
