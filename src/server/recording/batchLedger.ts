import type { Queryable } from '../db/database';

// Which batches the database has stored (migration 008): a batch statement inserts its id in the
// ledger as part of the same statement, so the id is there exactly when the batch was committed.

/** How long an id is kept: far longer than any retry waits (30 s at most between tries). */
const KEPT_MS = 60 * 60_000;

/** The CTE that records the batch's id, for the batch statement ($n: the id's parameter). */
export const ledgerInsert = (param: string) => `insert into recorder_batches (id) values (${param}::uuid)`;

/** Whether the batch with this id was committed (asked after a write whose outcome is unknown). */
export async function batchStored(db: Queryable, batchId: string): Promise<boolean> {
  const rows = await db.query('select 1 from recorder_batches where id = $1', [batchId]);
  return rows.length > 0;
}

/** Deletes ids no retry can ask about any more; returns how many. */
export async function forgetOldBatches(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('delete from recorder_batches where written_at < $1 returning 1', [new Date(now.getTime() - KEPT_MS).toISOString()]);
  return rows.length;
}
