// Issue 39: every write of a session's row (its start, then at most once a second while it is
// active: counts, last activity and token sums change, all of them indexed, so no update is HOT)
// inserts an entry into each of the table's nine indexes. sessions_workspace_started
// (workspace_id, started_at desc) is a prefix of sessions_workspace_started_id (workspace_id,
// started_at desc, id desc, migration 005): every scan that could use the first — by workspace, in
// start order either way, with or without a started_at range — reads the second the same way, so
// the first only costs writes. Dropped; no plan changes anything but the index it names
// (docs/benchmarks.md, "Issue 39: the database's CPU per recorded call").
export const m042_redundant_session_index = `
drop index if exists sessions_workspace_started;
`;
