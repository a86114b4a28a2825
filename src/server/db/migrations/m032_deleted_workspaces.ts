// Issue 33 item 4: a deleted workspace leaves a tombstone for a week. Rollup rows carry no foreign
// key (they are written off the recording hot path), so a batch in flight when the workspace went,
// or a journal replayed after a crash, could write some again; the expiry job deletes anything of
// a tombstoned workspace on each run (data/retention/workspacePurge.ts).
export const m032_deleted_workspaces = `
create table deleted_workspaces (
  workspace_id uuid primary key,
  deleted_at timestamptz not null default now()
);
`;
