// Session counts that add up across instances (issue 32). Any instance may record any session
// (docs/proxy.md "Any instance serves any session"); each knew only its part, wrote it as the
// session's counts, and the row kept the larger — a session served by two instances showed about
// half its calls, for good. Now each recorder's part of each session is a row of its own here,
// written as the absolute counts it has seen (so writing it again, after a retry or a journal
// replay, changes nothing: greatest per part), and the same statement adds to the session's row
// only what the part grew by. The session row holds the sum of the parts, as increments that
// commute: two instances writing at once both add. Parts of recorders that stopped stay until
// their session goes (they are what the sum is made of; a session has one per instance it crossed).
export const m024_session_count_shares = `
create table session_count_shares (
  session_id uuid not null references sessions(id) on delete cascade,
  recorder_id uuid not null,
  message_count int not null default 0,
  call_count int not null default 0,
  error_count int not null default 0,
  argument_tokens bigint not null default 0,
  result_tokens bigint not null default 0,
  definition_tokens bigint not null default 0,
  primary key (session_id, recorder_id)
);
insert into session_count_shares (session_id, recorder_id, message_count, call_count, error_count, argument_tokens, result_tokens, definition_tokens)
  select id, '00000000-0000-0000-0000-000000000000', message_count, call_count, error_count, argument_tokens, result_tokens, definition_tokens
  from sessions
`;
