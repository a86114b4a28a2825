// Issue 37 item 5: a tools/call answered with a task (MCP 2025-11-25 tasks) is one call, open
// while the task runs (docs/proxy.md "Tasks"). Its row keeps the task's id — a poll from another
// session or instance carries nothing else, so an open task is found in the database by it — and
// the task's last known status. The index holds only the open ones: a settle looks them up by
// (server, task id) among the few still pending, whatever the partitions hold.
export const m038_task_calls = `
alter table tool_calls add column task_id text;
alter table tool_calls add column task_status text;
create index tool_calls_open_tasks on tool_calls (server_id, task_id) where task_id is not null and status = 'pending';
`;
