// Where each recorder has got to: one row per running recorder, holding the sequence number of the
// last batch it stored. Every batch statement advances it in the same statement (so in the same
// commit), and writes its rows only if it did advance (the number was lower). When the connection
// breaks during a write the recorder cannot tell whether the database committed it; it writes the
// same batch again with the same number, and a batch that was committed is not stored twice (before,
// its non-call messages were stored twice and its usage counts added twice). One row per recorder,
// updated in place: no ledger that grows (PGlite runs no autovacuum). Rows of recorders that stopped
// are deleted after a day by the recorder's housekeeping (src/server/recording/batchGuard.ts).
export const m008_recorder_batches = `
create table recorder_progress (
  recorder_id uuid primary key,
  last_batch bigint not null,
  updated_at timestamptz not null default now()
)
`;
