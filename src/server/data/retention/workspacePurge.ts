import type { Queryable } from '../../db/database';

// What a deleted workspace leaves is deleted here (docs/operations.md "Deleting data"). Most of
// its rows go with the workspace row (foreign keys cascade: servers and their secrets, sessions,
// messages, tool calls, keys, integrations, exporters, members, notifications, audit records);
// the rollups have no foreign key (kept off the hot path), so they are deleted by workspace id —
// at deletion, after the recorder's last batch, and by the expiry job while the tombstone lasts.

const ROWS_BY_WORKSPACE = [
  'tool_calls',
  'messages',
  'traffic_pending',
  'traffic_minutes',
  'traffic_hours',
  'traffic_days',
  'latency_minutes',
  'latency_hours',
  'latency_days',
  'latency_weeks',
  'usage_minutes',
];

/** How long a tombstone lasts: past any batch in flight and any journal a crashed process left. */
export const TOMBSTONE_DAYS = 7;

/** Deletes every row of the workspace in the tables without a foreign key to it. */
export async function purgeWorkspaceRows(db: Queryable, workspaceId: string): Promise<void> {
  for (const table of ROWS_BY_WORKSPACE) await db.query(`delete from ${table} where workspace_id = $1`, [workspaceId]);
}

export async function leaveTombstone(db: Queryable, workspaceId: string): Promise<void> {
  await db.query(
    'insert into deleted_workspaces (workspace_id) values ($1) on conflict (workspace_id) do update set deleted_at = now()',
    [workspaceId],
  );
}

/** The expiry job's part: rows written for a deleted workspace since it went; tombstones past their week. */
export async function sweepDeletedWorkspaces(db: Queryable, now: Date): Promise<void> {
  const tombstones = await db.query<{ workspace_id: string }>('select workspace_id from deleted_workspaces');
  for (const { workspace_id } of tombstones) await purgeWorkspaceRows(db, workspace_id);
  await db.query('delete from deleted_workspaces where deleted_at < $1', [
    new Date(now.getTime() - TOMBSTONE_DAYS * 86_400_000).toISOString(),
  ]);
}
