import type { Queryable } from '../db/queryable';
import type { EventBus } from '../events/bus';
import { toSessionDto, toToolCallDto } from '../data/sessions/mappers';
import type { Batch } from './batchWriter';
import type { QueuedSession, SessionState } from './rows';

/**
 * The live events of what a write stored, published after it (a dashboard that fetches on an event
 * finds the row): a session's start once, each call once with its outcome (not while pending), and
 * an end after every call and message of that session. `sessions[i]` is the live session of
 * `batch.sessions[i]`, the row as written (the live one may have moved on while the write ran).
 * `rowsWaiting` says whether rows of a session still wait for a later write (a backlog takes
 * several writes; a failed one puts rows back): such a session's end is held, not announced.
 * `totals` holds the sessions' counts as stored (every instance's part, see batchWriter.ts); a
 * session missing from it is announced with this instance's part.
 * Returns the sessions whose end was announced, and those whose end was held (with the row as
 * written, for announceEnd once their rows are stored).
 */
export function announceStored(
  bus: EventBus,
  sessions: readonly QueuedSession[],
  batch: Batch,
  rowsWaiting: (sessionId: string) => boolean,
  totals: ReadonlyMap<string, SessionTotals> = new Map(),
): { ended: string[]; held: [QueuedSession, SessionState][] } {
  sessions.forEach((session, i) => {
    if (session.announced) return;
    session.announced = true;
    const row = withTotals(batch.sessions[i], totals);
    bus.publish(session.row.workspace_id, {
      type: 'session_started',
      data: toSessionDto({ ...row, status: 'active', ended_at: null }),
    });
  });
  for (const call of batch.toolCalls) {
    if (!bus.isListened(call.workspace_id)) continue;
    if (call.status !== 'pending') bus.publish(call.workspace_id, { type: 'tool_call', data: toToolCallDto(call) });
    // In flight: announced once, at its first write (the activity stream shows it pending).
    else if (!call.writtenBefore)
      bus.publish(call.workspace_id, { type: 'tool_call_started', data: toToolCallDto(call) });
  }
  const ended: string[] = [];
  const held: [QueuedSession, SessionState][] = [];
  sessions.forEach((session, i) => {
    const written = batch.sessions[i];
    if (written.status !== 'ended' || session.endAnnounced) return;
    if (rowsWaiting(written.id)) held.push([session, written]);
    else {
      announceEnd(bus, session, withTotals(written, totals));
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
    /** Where the stored totals are read (absent: events carry this instance's part). */
    private readonly db?: Queryable,
  ) {}

  /** A write stored `batch` (`sessions[i]` the live session of `batch.sessions[i]`): see announceStored. */
  async afterWrite(sessions: readonly QueuedSession[], batch: Batch): Promise<void> {
    const totals = await this.readTotals(sessions, batch);
    const { ended, held } = announceStored(this.bus, sessions, batch, this.rowsWaiting, totals);
    for (const sessionId of ended) this.sessionDone(sessionId);
    for (const [session, row] of held) this.heldEnds.set(session, row);
    this.announceReleasedEnds(totals);
  }

  /**
   * The stored counts of the sessions this write announces (a start, an end, a held end released):
   * a session served by two instances has a part from each, and an event carrying one part showed
   * half the session (issue 32). One read, only when a write announces a session (its start and its
   * end: twice in its life); a database that fails it leaves the parts in the events.
   */
  private async readTotals(sessions: readonly QueuedSession[], batch: Batch): Promise<Map<string, SessionTotals>> {
    const totals = new Map<string, SessionTotals>();
    if (!this.db) return totals;
    const ids = new Set<string>();
    sessions.forEach((session, i) => {
      const written = batch.sessions[i];
      if (!session.announced || (written.status === 'ended' && !session.endAnnounced)) ids.add(written.id);
    });
    for (const row of this.heldEnds.values()) ids.add(row.id);
    if (ids.size === 0) return totals;
    try {
      const rows = await this.db.query<SessionTotals & { id: string }>(
        'select id, message_count, call_count, error_count from sessions where id = any($1::uuid[])',
        [[...ids]],
      );
      for (const { id, ...counts } of rows) totals.set(id, counts);
    } catch {
      // The events go out with this instance's part; the list and detail read the stored totals.
    }
    return totals;
  }

  /** A deleted server's held ends: never announced (its rows are gone). */
  forgetServer(serverId: string): void {
    for (const [session, row] of this.heldEnds) if (row.server_id === serverId) this.heldEnds.delete(session);
  }

  clear(): void {
    this.heldEnds.clear();
  }

  /** Held ends whose sessions have no rows left to write: announced now, after this write's rows. */
  private announceReleasedEnds(totals: ReadonlyMap<string, SessionTotals>): void {
    for (const [session, row] of this.heldEnds) {
      if (!session.endAnnounced && this.rowsWaiting(row.id)) continue;
      this.heldEnds.delete(session);
      if (session.endAnnounced) continue; // a later write of its row announced it
      announceEnd(this.bus, session, withTotals(row, totals));
      this.sessionDone(row.id);
    }
  }
}

/** A session's end, with its ended row as stored. */
export function announceEnd(bus: EventBus, session: QueuedSession, written: SessionState): void {
  session.endAnnounced = true;
  bus.publish(written.workspace_id, { type: 'session_ended', data: toSessionDto(written) });
}

/** A session's counts as stored: the sum of every instance's part. */
export interface SessionTotals {
  message_count: number;
  call_count: number;
  error_count: number;
}

/** The row with its stored totals where they were read; each never below this instance's part. */
function withTotals(row: SessionState, totals: ReadonlyMap<string, SessionTotals>): SessionState {
  const stored = totals.get(row.id);
  if (!stored) return row;
  return {
    ...row,
    message_count: Math.max(row.message_count, stored.message_count),
    call_count: Math.max(row.call_count, stored.call_count),
    error_count: Math.max(row.error_count, stored.error_count),
  };
}
