// The recorder's batch ledger. Each batch statement also inserts its batch's id here, in the same
// statement (so in the same commit). When the connection breaks during a write, the recorder cannot
// tell whether the database committed it; before writing the batch again it looks its id up, so a
// batch is stored once: without it, a retry stored its non-call messages twice and added its usage
// counts twice. Ids are needed only while a retry may come: rows older than an hour are deleted by
// the recorder's housekeeping (src/server/recording/batchLedger.ts).
export const m008_recorder_batches = `
create table recorder_batches (
  id uuid primary key,
  written_at timestamptz not null default now()
);
create index recorder_batches_written_at on recorder_batches (written_at)
`;
