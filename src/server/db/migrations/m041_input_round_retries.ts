// Issue 37 item 5: a 2026-07-28 retry (`requestState` echoed) that reaches another instance before
// the call waiting for it is stored there (the holder writes its rows every flush) finds no waiting
// row: it is recorded as a call of its own, and its row keeps the key of the state it echoed. Each
// side, once its row is written, looks for the other (storedInputRounds.ts): the side that writes
// second joins the two halves into the waiting call's row. The index holds only such retries.
export const m041_input_round_retries = `
alter table tool_calls add column retry_state text;
create index tool_calls_input_retries on tool_calls (server_id, retry_state) where retry_state is not null;
`;
