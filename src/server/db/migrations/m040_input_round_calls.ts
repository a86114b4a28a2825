// Issue 37 item 5: a 2026-07-28 tool call answered `input_required` stays open for the client's
// retry, which may reach another instance (docs/proxy.md "Multi round-trip calls"). While it waits
// its row keeps a key of the `requestState` the server gave (a SHA-256, base64url: the state
// itself is opaque and may be large) — the retry echoes that state and carries nothing else that
// names the call. The index holds only the calls waiting so: a retry finds its call by
// (server, key) among the few still pending, whatever the partitions hold.
// A task's call keeps when its task expires (its ttl from its creation): a task still open when
// the instance that held it stopped is ended at its ttl by any instance's sweep, which finds the
// expired ones on the second index, among the open tasks only.
export const m040_input_round_calls = `
alter table tool_calls add column input_state text;
create index tool_calls_awaiting_input on tool_calls (server_id, input_state) where input_state is not null and status = 'pending';
alter table tool_calls add column task_expires_at timestamptz;
create index tool_calls_open_task_expiry on tool_calls (task_expires_at) where task_id is not null and status = 'pending';
`;
