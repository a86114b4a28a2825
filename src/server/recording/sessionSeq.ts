// How a recorded session numbers its messages (their order in the replay).

/** What numbering needs of a session: its last number, and the clock base when it is shared. */
export interface NumberedSession {
  seq: number;
  /** Set on a session any instance may record: numbers count milliseconds since this start. */
  clockSeqBaseMs?: number;
}

/** The largest seq a column (int4) holds: a session numbered by the clock reaches it after 24 days. */
const MAX_SEQ = 2_147_483_647;

/** The next number of a message of the session: counted, or by the clock for a session shared by instances. */
export function nextSeq(session: NumberedSession, nowMs: number): number {
  const base = session.clockSeqBaseMs;
  session.seq = base === undefined ? session.seq + 1 : Math.min(MAX_SEQ, Math.max(session.seq + 1, nowMs - base));
  return session.seq;
}
