import type { QueuedMessage, QueuedSession, QueuedToolCall } from '../rows';
import type { Journal } from './journal';
import type { JournalEntry } from './recordCodec';

// The bridge between the write queue and the journal: appends a record for each row the queue
// takes in, remembers on the row which segments hold its records, and hands those to the write
// that takes the row — released once that write is committed, so a segment is deleted exactly
// when every row recorded in it is in the database.

/** An active session's row is journaled again at most this often (its counts change with every message). */
const SESSION_SNAPSHOT_MS = 1000;

/** A session's counts between two snapshots of its row: the part of its recorder (batchWriter.ts). */
export interface JournaledCounts {
  id: string;
  recorder_id: string | undefined;
  message_count: number;
  call_count: number;
  error_count: number;
}

/** What a call's record leaves out: its in-memory copies of arguments and result, and a batch's mark. */
const CALL_OMITS = new Set(['arguments', 'result', 'writtenBefore']);
/** A settled call's, when its pending record holds the request's text (replay takes it from there). */
const SETTLED_CALL_OMITS = new Set([...CALL_OMITS, 'request_payload']);

interface SessionSnapshot {
  atMs: number;
  status: string;
  mcpSessionId: string | null;
}

export class JournaledRows {
  private readonly refs = new WeakMap<object, number[]>();
  private readonly journaled = new WeakSet<object>();
  private readonly snapshots = new WeakMap<QueuedSession, SessionSnapshot>();

  /** Sessions whose counts changed since their last record: noted once per group of records. */
  private readonly countsDue = new Set<QueuedSession>();

  constructor(readonly journal: Journal) {
    journal.beforeCommit = () => this.appendDueCounts();
  }

  hasRoom(): boolean {
    return this.journal.hasRoom();
  }

  noteOverBudget(): void {
    this.journal.noteOverBudget();
  }

  /** Whether a record of this row was ever appended (its later states are journaled past the budget). */
  wasJournaled(row: object): boolean {
    return this.journaled.has(row);
  }

  /**
   * A session's row changed: journaled whole when it is new, ends, gets its session id, or a second
   * has passed; in between, its counts alone (a few dozen bytes), once per group of records the
   * journal writes — after every message of that turn changed them, and only when some row is
   * written with them (a flood of notifications past the recording budget writes none). Without
   * them a kill -9 lost the counts of the last second's messages, which the replay wrote: sessions
   * showed half their calls after a restart (issue 32).
   */
  session(session: QueuedSession): void {
    const row = session.row;
    const last = this.snapshots.get(session);
    const now = Date.now();
    if (
      last &&
      last.status === row.status &&
      last.mcpSessionId === row.mcp_session_id &&
      now - last.atMs < SESSION_SNAPSHOT_MS
    ) {
      this.countsDue.add(session);
      return;
    }
    this.countsDue.delete(session);
    this.snapshots.set(session, { atMs: now, status: row.status, mcpSessionId: row.mcp_session_id });
    this.append(session, 's', row);
  }

  /** The due sessions' counts, appended to the group the journal is about to write. */
  private appendDueCounts(): void {
    // Taken first: an append may begin a new segment, which commits the group (and calls this again).
    const due = [...this.countsDue];
    this.countsDue.clear();
    for (const session of due) {
      const { row } = session;
      const counts: JournaledCounts = {
        id: row.id,
        recorder_id: row.recorder_id,
        message_count: row.message_count,
        call_count: row.call_count,
        error_count: row.error_count,
      };
      this.append(session, 'n', counts);
    }
  }

  message(message: QueuedMessage): void {
    this.append(message, 'm', message);
  }

  /**
   * A call's row as it stands (pending at its request, settled at its answer); the in-memory copies
   * of its payloads are left out, and so is the request's text when the pending record holds it:
   * replay takes it from there (journalReplay.ts), or finds the row written (the pending record's
   * segment is deleted only once the row is in the database).
   */
  toolCall(call: QueuedToolCall): void {
    // Encoded from the live row, fields left out by name: no copy of it (issue 39).
    this.append(
      call,
      'c',
      call,
      call.status !== 'pending' && this.journaled.has(call) ? SETTLED_CALL_OMITS : CALL_OMITS,
    );
  }

  /** The segments of the rows a write takes (moved to that write: see release). */
  take(rows: Iterable<object>): number[] {
    const taken: number[] = [];
    for (const row of rows) {
      const held = this.refs.get(row);
      if (!held) continue;
      taken.push(...held);
      this.refs.delete(row);
    }
    return taken;
  }

  /** A write holding these segments' records was committed (or its rows can never be written). */
  release(segments: readonly number[]): void {
    if (segments.length === 0) return;
    const counts = new Map<number, number>();
    for (const segment of segments) counts.set(segment, (counts.get(segment) ?? 0) + 1);
    for (const [segment, count] of counts) this.journal.release(segment, count);
  }

  /** Rows dropped from the queue for good (their server was deleted): their records are not needed. */
  discard(rows: Iterable<object>): void {
    this.release(this.take(rows));
  }

  private append(row: object, kind: JournalEntry['k'], record: object, omit?: ReadonlySet<string>): void {
    const segment = this.journal.appendRow(kind, record, omit);
    this.journaled.add(row);
    const held = this.refs.get(row);
    if (held) held.push(segment);
    else this.refs.set(row, [segment]);
  }
}
