// Issue 33 item 1: how long raw data is kept. A workspace may keep raw data shorter than its
// owner's plan (null: the plan's days); the expiry job (data/retention/expiry.ts) deletes what is
// past it. Its deletes need an index by time on every table it reads: messages had none by
// workspace and time, and the rollups are keyed by workspace first, so expiring one grain across
// all workspaces would read the whole table.
export const m031_data_retention = `
alter table workspaces add column raw_retention_days integer
  check (raw_retention_days is null or raw_retention_days between 1 and 3650);
create index messages_workspace_created on messages (workspace_id, created_at);
create index traffic_minutes_bucket on traffic_minutes (bucket);
create index traffic_hours_bucket on traffic_hours (bucket);
create index traffic_days_bucket on traffic_days (bucket);
create index latency_minutes_bucket on latency_minutes (bucket);
create index latency_hours_bucket on latency_hours (bucket);
create index latency_days_bucket on latency_days (bucket);
create index latency_weeks_bucket on latency_weeks (bucket);
create index usage_minutes_bucket on usage_minutes (bucket);
`;
