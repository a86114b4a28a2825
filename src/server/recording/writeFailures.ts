import type { Queryable } from '../db/database';
import { writeBatch, type Batch } from './batchWriter';

// What a failed batch write means. A database that is restarting, failing over or out of
// connections refuses every batch alike, and the same rows will go in once it is back: the batch
// waits and is tried again. Anything else is about the rows themselves (a value the database
// refuses, a session deleted meanwhile): one such row must not take the rest of its batch with it,
// so the batch is written again row by row and only the rows the database refuses are lost.

/** SQLSTATE classes and codes of a database that cannot take the write now, whatever the rows. */
const TRANSIENT_SQLSTATE = /^(08|53|57P0[123]|40001|40P01)/;
/** Node's socket errors, and node-postgres's own messages when the connection goes away. */
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const TRANSIENT_MESSAGE = /connection terminated|connection timeout|client has encountered a connection error|terminating connection/i;

export function isTransientWriteError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_ERRNO.has(code))) return true;
  return TRANSIENT_MESSAGE.test(error.message);
}

export interface RowByRowOutcome {
  /** Messages and settled calls the database refused. */
  lost: number;
  /** The rows it refused (those are not announced). */
  refused: Set<unknown>;
}

/**
 * Writes the batch one row per statement, in dependency order (sessions before their messages and
 * calls). Slow (PGlite: ~0.5 ms a statement) but only after a batch failed.
 */
export async function writeRowByRow(db: Queryable, batch: Batch): Promise<RowByRowOutcome> {
  const empty: Batch = { sessions: [], messages: [], toolCalls: [], usage: [] };
  let lost = 0;
  const refused = new Set<unknown>();
  const attempt = async (row: unknown, part: Partial<Batch>, counts: number) => {
    try {
      await writeBatch(db, { ...empty, ...part });
    } catch {
      lost += counts;
      refused.add(row);
    }
  };
  for (const session of batch.sessions) await attempt(session, { sessions: [session] }, 0);
  for (const message of batch.messages) await attempt(message, { messages: [message] }, 1);
  for (const call of batch.toolCalls) await attempt(call, { toolCalls: [call] }, call.status === 'pending' ? 0 : 1);
  for (const usage of batch.usage) await attempt(usage, { usage: [usage] }, 0);
  return { lost, refused };
}
