import type { Queryable } from '../../db/database';
import { writeBatch, type Batch } from '../batchWriter';
import type { QueuedMessage, QueuedSession, QueuedToolCall, SessionState } from '../rows';
import { TrafficRollup } from '../trafficRollup';
import { UsageRollup } from '../usageRollup';
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
  const calls = new Map<string, QueuedToolCall>();
  const messages = new Map<string, QueuedMessage>();
  for (const segment of segments) {
    for (const { k, r } of segment.entries) {
      if (k === 's') sessions.set(r.id as string, latestSession(sessions.get(r.id as string), r as unknown as SessionState));
      else if (k === 'c') calls.set(r.id as string, latestCall(calls.get(r.id as string), r as unknown as QueuedToolCall));
      else if (k === 'm') messages.set(`${r.session_id as string}|${r.seq as number}`, r as unknown as QueuedMessage);
    }
  }
  const result: ReplayResult = { sessions: 0, messages: 0, toolCalls: 0, skipped: 0, damagedSegments: segments.filter((s) => s.stoppedBy !== null).length };
  const total = sessions.size + calls.size + messages.size;
  if (total === 0) return result;

  const serverIds = new Set([...sessions.values()].map((s) => s.server_id).concat([...calls.values()].map((c) => c.server_id)));
  const liveServers = new Set(await ids(db, 'select id::text as id from servers where id = any($1::uuid[])', [...serverIds]));
  const sessionIds = new Set([...sessions.keys(), ...[...calls.values()].map((c) => c.session_id), ...[...messages.values()].map((m) => m.session_id)]);
  const storedSessions = await statuses(db, 'select id::text as id, status from sessions where id = any($1::uuid[])', [...sessionIds]);
  const storedCalls = await statuses(db, 'select id::text as id, status from tool_calls where id = any($1::uuid[])', [...calls.keys()]);
  const storedMessages = new Set(
    (await db.query<{ session_id: string; seq: number }>('select session_id::text as session_id, seq from messages where session_id = any($1::uuid[])', [[...sessionIds]])).map(
      (m) => `${m.session_id}|${m.seq}`,
    ),
  );

  const sessionRows = [...sessions.values()].filter((s) => {
    const stored = storedSessions.get(s.id);
    return liveServers.has(s.server_id) && (stored === undefined || (stored === 'active' && s.status === 'ended'));
  });
  const newSessions = sessionRows.filter((s) => !storedSessions.has(s.id));
  const written = new Set(sessionRows.map((s) => s.id));
  const knownSessions = new Set([...sessionIds].filter((id) => storedSessions.has(id) || written.has(id)));
  const callRows = [...calls.values()].filter((c) => {
    const stored = storedCalls.get(c.id);
    if (!liveServers.has(c.server_id) || !knownSessions.has(c.session_id)) return false;
    return stored === undefined || (stored === 'pending' && c.status !== 'pending');
  });
  const messageRows = [...messages.entries()].filter(([key, m]) => knownSessions.has(m.session_id) && !storedMessages.has(key)).map(([, m]) => m);
  result.skipped = total - sessionRows.length - callRows.length - messageRows.length;

  const usage = new UsageRollup();
  const traffic = new TrafficRollup();
  for (const row of newSessions) traffic.noteSession(asQueued(row));
  let first = true;
  for (let c = 0, m = 0; first || c < callRows.length || m < messageRows.length; first = false) {
    const chunkCalls = callRows.slice(c, (c += CALLS_PER_STATEMENT)).map((call) => ({ ...withRequest(call), writtenBefore: storedCalls.has(call.id) }));
    const chunkMessages = messageRows.slice(m, (m += MESSAGES_PER_STATEMENT));
    for (const call of chunkCalls) {
      if (call.status === 'pending') continue;
      usage.add(call);
      traffic.add(call);
    }
    const batch: Batch = { sessions: first ? sessionRows : [], messages: chunkMessages, toolCalls: chunkCalls, usage: usage.take(), traffic: traffic.take().traffic };
    await writeBatch(db, batch);
  }
  result.sessions = sessionRows.length;
  result.toolCalls = callRows.length;
  result.messages = messageRows.length;
  return result;
}

/** Snapshots of one session: the last one, never with fewer messages or an earlier end. */
function latestSession(before: SessionState | undefined, next: SessionState): SessionState {
  if (!before) return next;
  if (before.status === 'ended' && next.status !== 'ended') return before;
  return { ...next, message_count: Math.max(before.message_count, next.message_count), call_count: Math.max(before.call_count, next.call_count), error_count: Math.max(before.error_count, next.error_count) };
}

/**
 * Snapshots of one call: a settled one is never replaced by its pending one, and a settled one
 * without the request's text (journaledRows.ts) takes it from the pending one.
 */
function latestCall(before: QueuedToolCall | undefined, next: QueuedToolCall): QueuedToolCall {
  if (before && before.status !== 'pending' && next.status === 'pending') return { ...before, request_payload: before.request_payload ?? next.request_payload };
  return next.request_payload === undefined && before?.request_payload !== undefined ? { ...next, request_payload: before.request_payload } : next;
}

/**
 * A settled call whose pending record is gone and whose row the database does not hold: not one
 * this journal writes (the pending record is deleted only once the row is stored), but a row
 * without its request must still be storable — its request reads as cut, with nothing kept.
 */
function withRequest(call: QueuedToolCall): QueuedToolCall {
  return call.request_payload === undefined ? { ...call, request_payload: '', request_truncated: true } : call;
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
