import type { Queryable } from '../db/database';
import type { BatchTicket } from './batchGuard';
import { filterBatch, writeBatch, type Batch } from './batchWriter';

// What a failed batch write means. A database that is restarting, failing over or out of
// connections refuses every batch alike, and the same rows will go in once it is back: the batch
// waits and is tried again. Anything else is about the rows themselves (a value the database
// refuses, a session deleted meanwhile): one such row must not take the rest of its batch with it,
// so the batch is written again row by row and only the rows the database refuses are lost.

/**
 * SQLSTATE classes and codes of a database that cannot take the write now, whatever the rows:
 * connection exceptions (08), insufficient resources (53), shutdown (57P01–57P03), a cancelled
 * statement or a lock not available (57014, 55P03: timeouts), serialization failure and deadlock.
 * Except what a batch can cause by itself: out of memory (53200), a protocol violation (08P01).
 */
const TRANSIENT_SQLSTATE = /^(08|53|57P0[123]|57014|55P03|40001|40P01)/;
const CAUSED_BY_THE_BATCH = new Set(['53200', '08P01']);
/** Node's socket errors, and node-postgres's own messages when the connection goes away. */
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
// "timeout exceeded when trying to connect" is the pool's own message when no connection comes in
// time (a database that stopped accepting them): seen under load during an outage, and once taken
// for a refused row.
const TRANSIENT_MESSAGE =
  /connection terminated|connection timeout|client has encountered a connection error|terminating connection|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|Connection refused/i;

export function isTransientWriteError(error: unknown): boolean {
  // Not `instanceof Error`: an error made in another realm (a socket error seen from a vm context,
  // as under Jest) is no instance of this realm's Error, and was taken for a refused row.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && CAUSED_BY_THE_BATCH.has(code)) return false;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_ERRNO.has(code))) return true;
  return typeof message === 'string' && TRANSIENT_MESSAGE.test(message);
}

export interface RowByRowOutcome {
  /** Messages and settled calls the database refused. */
  lost: number;
  /** The rows it refused (those are not announced). */
  refused: Set<unknown>;
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
export async function writeRowByRow(db: Queryable, batch: Batch, nextTicket: () => BatchTicket): Promise<RowByRowOutcome> {
  const rows: { row: object; part: Partial<Batch>; counts: number }[] = [
    ...batch.sessions.map((session) => ({ row: session, part: { sessions: [session] }, counts: 0 })),
    ...batch.messages.map((message) => ({ row: message, part: { messages: [message] }, counts: 1 })),
    ...batch.toolCalls.map((call) => ({ row: call, part: { toolCalls: [call] }, counts: call.status === 'pending' ? 0 : 1 })),
    ...batch.usage.map((usage) => ({ row: usage, part: { usage: [usage] }, counts: 0 })),
    ...(batch.traffic ? [{ row: batch.traffic, part: { traffic: batch.traffic }, counts: 0 }] : []),
  ];
  let lost = 0;
  const refused = new Set<unknown>();
  for (let i = 0; i < rows.length; i++) {
    const { row, part, counts } = rows[i];
    const ticket = nextTicket();
    try {
      await writeBatch(db, { sessions: [], messages: [], toolCalls: [], usage: [], ...part }, ticket);
    } catch (error) {
      if (isTransientWriteError(error)) {
        const left = new Set<object>(rows.slice(i + 1).map((r) => r.row));
        return { lost, refused, interrupted: { row, ticket, rest: filterBatch(batch, (r) => left.has(r)) } };
      }
      lost += counts;
      refused.add(row);
    }
  }
  return { lost, refused, interrupted: null };
}
