import type { Queryable } from '../../db/database';
import type { Definition } from './store';

// Queries over a server's schemas as a whole: its counts on the servers row, and the pinned tool
// definitions the proxy serves in place of the upstream's (store.ts holds the per-schema queries).

/**
 * Recounts servers.schema_count and servers.risk_finding_count (high findings of the current
 * definitions); returns the new schema count and whether either changed.
 */
export async function refreshSchemaCount(
  db: Queryable,
  serverId: string,
): Promise<{ count: number; changed: boolean }> {
  const rows = await db.query<{ count: number; previous: number; risk: number; previous_risk: number }>(
    `with counted as (
            select count(*)::int as count,
                   coalesce(sum((select count(*) from jsonb_array_elements(risk_findings) f where f->>'severity' = 'high')), 0)::int as risk
              from schemas where server_id = $1),
          previous as (select schema_count as previous, risk_finding_count as previous_risk from servers where id = $1)
     update servers set schema_count = counted.count, risk_finding_count = counted.risk,
            updated_at = case when servers.schema_count <> counted.count then now() else servers.updated_at end
     from counted, previous where servers.id = $1
     returning counted.count, previous.previous, counted.risk, previous.previous_risk`,
    [serverId],
  );
  if (!rows[0]) return { count: 0, changed: false };
  return {
    count: rows[0].count,
    changed: rows[0].count !== rows[0].previous || rows[0].risk !== rows[0].previous_risk,
  };
}

/** Every pinned tool definition (for the proxy's tools/list rewriter cache). */
export async function listPinnedToolDefinitions(
  db: Queryable,
  serverId?: string,
): Promise<
  { serverId: string; name: string; definition: Definition; pinnedVersion: number; currentVersion: number }[]
> {
  const rows = await db.query<{
    server_id: string;
    name: string;
    definition: Definition;
    pinned_version: number;
    current_version: number;
  }>(
    `select s.server_id, s.name, v.definition, s.pinned_version, s.current_version
       from schemas s join schema_versions v on v.schema_id = s.id and v.version = s.pinned_version
      where s.kind = 'tool' and s.pinned_version is not null ${serverId ? 'and s.server_id = $1' : ''}`,
    serverId ? [serverId] : [],
  );
  return rows.map((r) => ({
    serverId: r.server_id,
    name: r.name,
    definition: r.definition,
    pinnedVersion: r.pinned_version,
    currentVersion: r.current_version,
  }));
}
