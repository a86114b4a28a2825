import type { RaiseInput } from '../NotificationService';

export type SchemaChangeKind = 'added' | 'changed' | 'removed';

export interface SchemaDrift {
  workspaceId: string;
  serverId: string;
  serverName: string;
  /** What discovery found different from the recorded schemas. */
  changes: { schemaId?: string; name: string; kind?: string; change: SchemaChangeKind }[];
}

/**
 * security_alert, raised by the monitor's drift detection: a tool server that changes its tool
 * definitions behind the agent's back is a security concern (tool poisoning), so removed or
 * changed tools are an error and added ones a warning. Repeats for one server are grouped.
 */
export function schemaDriftNotification(drift: SchemaDrift): RaiseInput {
  const count = (kind: SchemaChangeKind) => drift.changes.filter((c) => c.change === kind).length;
  const parts = (['changed', 'added', 'removed'] as const).filter((k) => count(k) > 0).map((k) => `${count(k)} ${k}`);
  const names = drift.changes.slice(0, 3).map((c) => c.name);
  const more = drift.changes.length > names.length ? ` and ${drift.changes.length - names.length} more` : '';
  const firstSchemaId = drift.changes.find((c) => c.schemaId)?.schemaId;
  const query = new URLSearchParams({ serverId: drift.serverId, ...(firstSchemaId ? { schemaId: firstSchemaId } : {}) });
  return {
    workspaceId: drift.workspaceId,
    type: 'security_alert',
    severity: count('changed') + count('removed') > 0 ? 'error' : 'warning',
    title: 'Schema Drift Detected',
    message: `${drift.serverName} changed its schemas (${parts.join(', ') || 'no details'}): ${names.join(', ')}${more}`,
    actionUrl: `/schema-studio?${query.toString()}`,
    metadata: { serverId: drift.serverId, serverName: drift.serverName, changes: drift.changes },
    groupKey: `schema-drift:${drift.serverId}`,
  };
}
