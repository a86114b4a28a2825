// Issue 33 item 3: an owner may have the workspace's data exported every day to the folder the
// operator names (TOOLSCOPE_EXPORT_DIR). `daily_export_through` is the last UTC day written, so a
// day missed while Toolscope was down is written at the next run.
export const m033_daily_export = `
alter table workspaces add column daily_export boolean not null default false;
alter table workspaces add column daily_export_through date;
`;
