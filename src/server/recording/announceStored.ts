import type { EventBus } from '../events/bus';
import { toSessionDto, toToolCallDto } from '../modules/sessions/mappers';
import type { Batch } from './batchWriter';
import type { QueuedSession, SessionState } from './rows';

/**
 * The live events of what a write stored, published after it (a dashboard that fetches on an event
 * finds the row): a session's start once, each call once with its outcome (not while pending), and
 * an end after every call and message of that session. `sessions[i]` is the live session of
 * `batch.sessions[i]`, the row as written (the live one may have moved on while the write ran).
 * `rowsWaiting` says whether rows of a session still wait for a later write (a backlog takes
 * several writes; a failed one puts rows back): such a session's end is held, not announced.
 * Returns the sessions whose end was announced, and those whose end was held (with the row as
 * written, for announceEnd once their rows are stored).
 */
export function announceStored(
  bus: EventBus,
  sessions: readonly QueuedSession[],
  batch: Batch,
  rowsWaiting: (sessionId: string) => boolean,
): { ended: string[]; held: [QueuedSession, SessionState][] } {
  sessions.forEach((session, i) => {
    if (session.announced) return;
    session.announced = true;
    bus.publish(session.row.workspace_id, { type: 'session_started', data: toSessionDto({ ...batch.sessions[i], status: 'active', ended_at: null }) });
  });
  for (const call of batch.toolCalls) {
    if (call.status !== 'pending' && bus.isListened(call.workspace_id)) bus.publish(call.workspace_id, { type: 'tool_call', data: toToolCallDto(call) });
  }
  const ended: string[] = [];
  const held: [QueuedSession, SessionState][] = [];
  sessions.forEach((session, i) => {
    const written = batch.sessions[i];
    if (written.status !== 'ended' || session.endAnnounced) return;
    if (rowsWaiting(written.id)) held.push([session, written]);
    else {
      announceEnd(bus, session, written);
      ended.push(written.id);
    }
  });
  return { ended, held };
}

/** A session's end, with its ended row as stored. */
export function announceEnd(bus: EventBus, session: QueuedSession, written: SessionState): void {
  session.endAnnounced = true;
  bus.publish(written.workspace_id, { type: 'session_ended', data: toSessionDto(written) });
}
