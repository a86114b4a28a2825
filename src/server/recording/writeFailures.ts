import type { Queryable } from '../db/database';
import type { BatchTicket } from './batchGuard';
import { filterBatch, writeBatch, type Batch } from './batchWriter';

// What a failed batch write means. Only a database that refuses the rows themselves (a value it
// cannot take, a constraint they break) is about the rows: one such row must not take the rest of
// its batch with it, so the batch is written again row by row and only the rows the database
// refuses are set aside, counted and logged. Every other failure is about the database — it is
// away, restarting, failing over, out of connections or disk, read-only, refusing connections to
// this database or this user, cancelling statements — and the same rows will go in once it is
// back: the batch waits and is tried again with growing pauses (writeRetry.ts). Issue 32: a
// database that refused connections (SQLSTATE 55000) was taken for refused rows, and 37 % of the
// answered calls of a 23 s block were lost row by row; so the rule is "rows only when provably the
// rows", and anything unknown waits in the journal rather than being thrown away.

/**
 * SQLSTATE classes of a row the database refuses on its merits: 21 cardinality (a batch upserting
 * one key twice), 22 data exception (an invalid value), 23 integrity constraint (a foreign key to a
 * deleted row, a duplicate), 54 program limit (a row too big); and what a batch can cause by its
 * size alone: out of memory (53200) and a protocol violation (08P01, an oversized message).
 */
const REFUSED_ROW_SQLSTATE = /^(21|22|23|54)[0-9A-Z]{3}$/;
const CAUSED_BY_THE_BATCH = new Set(['53200', '08P01']);
/** node-postgres's own messages when a connection goes away or never comes (they carry no code). */
const CONNECTION_MESSAGE =
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)\b|connection terminated|connection timeout|connection error|terminating connection|timeout exceeded when trying to connect|the database system is|connection refused|not queryable|Connection ended|read ECONNRESET|socket hang up/i;

/**
 * Whether a failed write is about the database, not the rows: written again, as it was, once the
 * database is back. SQLSTATE classes 08 (connection), 28 (authentication), 3D000 (no such
 * database), 25006 (read-only), 40 (serialization), 53 (disk, memory, connections), 55000 (not
 * accepting connections), 57 (shutdown, statement timeout), 58 (I/O) and any code not known to be
 * the rows'; Node's socket errors (ECONNREFUSED, ECONNRESET…); a connection's end without a code.
 */
export function isTransientWriteError(error: unknown): boolean {
  // Not `instanceof Error`: an error made in another realm (a socket error seen from a vm context,
  // as under Jest) is no instance of this realm's Error, and was taken for a refused row.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  // A connection attempt to every address of a name (127.0.0.1 and ::1) fails as one AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isTransientWriteError(inner))) return true;
  if (typeof code === 'string' && code !== '') {
    if (CAUSED_BY_THE_BATCH.has(code) || REFUSED_ROW_SQLSTATE.test(code)) return false;
    // Node's own errors about a value (ERR_OUT_OF_RANGE while encoding a row) are the rows'.
    return !code.startsWith('ERR_');
  }
  // No code: node-postgres's connection messages are the database's; anything else (a TypeError
  // while encoding a row) is about the rows.
  return typeof message === 'string' && CONNECTION_MESSAGE.test(message);
}

export interface RowByRowOutcome {
  /** Messages and settled calls the database refused. */
  lost: number;
  /** The rows it refused (those are not announced). */
  refused: Set<unknown>;
  /** Why, per refused row (its table and the database's code and message), for the log. */
  reasons: { table: string; code: string | null; message: string }[];
  /**
   * When the database became unavailable part way: the row whose statement met the failure (its
   * outcome unknown: it is written again with the same ticket) and the rows not tried yet.
   */
  interrupted: { row: object; ticket: BatchTicket; rest: Batch } | null;
}

/**
 * Writes the batch one row per statement, in dependency order (sessions before their messages and
 * calls), each statement guarded by a ticket of its own (see batchGuard.ts). Slow (PGlite: ~0.5 ms
 * a statement) but only after a batch failed.
 */
export async function writeRowByRow(
  db: Queryable,
  batch: Batch,
  nextTicket: () => BatchTicket,
  excused: (row: object) => boolean = () => false,
): Promise<RowByRowOutcome> {
  const rows: { row: object; table: string; part: Partial<Batch>; counts: number }[] = [
    ...batch.sessions.map((session) => ({ row: session, table: 'sessions', part: { sessions: [session] }, counts: 0 })),
    ...batch.messages.map((message) => ({ row: message, table: 'messages', part: { messages: [message] }, counts: 1 })),
    ...batch.toolCalls.map((call) => ({
      row: call,
      table: 'tool_calls',
      part: { toolCalls: [call] },
      counts: call.status === 'pending' ? 0 : 1,
    })),
    ...batch.usage.map((usage) => ({ row: usage, table: 'usage_minutes', part: { usage: [usage] }, counts: 0 })),
    ...(batch.traffic
      ? [{ row: batch.traffic, table: 'traffic rollup', part: { traffic: batch.traffic }, counts: 0 }]
      : []),
  ];
  let lost = 0;
  const refused = new Set<unknown>();
  const reasons: RowByRowOutcome['reasons'] = [];
  for (let i = 0; i < rows.length; i++) {
    const { row, table, part, counts } = rows[i];
    const ticket = nextTicket();
    try {
      await writeBatch(db, { sessions: [], messages: [], toolCalls: [], usage: [], ...part }, ticket);
    } catch (error) {
      if (isTransientWriteError(error)) {
        const left = new Set<object>(rows.slice(i + 1).map((r) => r.row));
        return {
          lost,
          refused,
          reasons,
          interrupted: { row, ticket, rest: filterBatch(batch, (r) => left.has(r)) },
        };
      }
      // A row of a server deleted while its batch was being written is refused for its foreign
      // key: deleted on purpose, not lost.
      if (!excused(row)) {
        lost += counts;
        const { code, message } = error as { code?: unknown; message?: unknown };
        reasons.push({ table, code: typeof code === 'string' ? code : null, message: String(message) });
      }
      refused.add(row);
    }
  }
  return { lost, refused, reasons, interrupted: null };
}
