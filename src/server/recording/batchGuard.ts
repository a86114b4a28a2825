import type { Queryable } from '../db/database';

// Exactly-once batches (migration 008): a batch statement carries its recorder's id and the batch's
// sequence number; its first CTE advances the recorder's row to that number only if it is higher,
// and every insert of the statement reads that CTE, so the rows go in exactly when the number
// advanced. Written again after an unknown outcome, a batch that was committed writes nothing.

/** The guarding CTE: returns a row when this batch is new ($recorder: uuid, $seq: its number). */
export const guardCte = (recorderParam: string, seqParam: string) =>
  `insert into recorder_progress (recorder_id, last_batch) values (${recorderParam}::uuid, ${seqParam}::bigint)
   on conflict (recorder_id) do update set last_batch = excluded.last_batch, updated_at = now()
   where recorder_progress.last_batch < excluded.last_batch
   returning 1`;

/** A batch statement's identity: its recorder (one per process) and its sequence number. */
export interface BatchTicket {
  recorderId: string;
  seq: number;
}

/** Deletes the rows of recorders that stopped a day ago or more; returns how many. */
export async function forgetStoppedRecorders(db: Queryable): Promise<number> {
  const rows = await db.query("delete from recorder_progress where updated_at < now() - interval '1 day' returning 1");
  return rows.length;
}
