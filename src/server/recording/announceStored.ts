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

/**
 * What the recorder announces after each write, and the session ends it holds until their last
 * rows are stored. `rowsWaiting` says whether rows of a session still wait for a write;
 * `sessionDone` is told of a session whose end is announced (nothing of it is left to write).
 */
export class StoredAnnouncements {
  /** Ended sessions whose end waits for rows of theirs still to be written, with their row as written. */
  private readonly heldEnds = new Map<QueuedSession, SessionState>();

  constructor(
    private readonly bus: EventBus,
    private readonly rowsWaiting: (sessionId: string) => boolean,
    private readonly sessionDone: (sessionId: string) => void,
  ) {}

  /** A write stored `batch` (`sessions[i]` the live session of `batch.sessions[i]`): see announceStored. */
  afterWrite(sessions: readonly QueuedSession[], batch: Batch): void {
    const { ended, held } = announceStored(this.bus, sessions, batch, this.rowsWaiting);
    for (const sessionId of ended) this.sessionDone(sessionId);
    for (const [session, row] of held) this.heldEnds.set(session, row);
    this.announceReleasedEnds();
  }

  /** A deleted server's held ends: never announced (its rows are gone). */
  forgetServer(serverId: string): void {
    for (const [session, row] of this.heldEnds) if (row.server_id === serverId) this.heldEnds.delete(session);
  }

  clear(): void {
    this.heldEnds.clear();
  }

  /** Held ends whose sessions have no rows left to write: announced now, after this write's rows. */
  private announceReleasedEnds(): void {
    for (const [session, row] of this.heldEnds) {
      if (!session.endAnnounced && this.rowsWaiting(row.id)) continue;
      this.heldEnds.delete(session);
      if (session.endAnnounced) continue; // a later write of its row announced it
      announceEnd(this.bus, session, row);
      this.sessionDone(row.id);
    }
  }
}

/** A session's end, with its ended row as stored. */
export function announceEnd(bus: EventBus, session: QueuedSession, written: SessionState): void {
  session.endAnnounced = true;
  bus.publish(written.workspace_id, { type: 'session_ended', data: toSessionDto(written) });
}
