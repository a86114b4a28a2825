import type { FastifyInstance } from 'fastify';
import type { SchemaDto, SchemaKind, SchemaVersionSource } from '../../contract/schemas';
import type { RiskFinding } from '../../contract/toolRisk';
import type { ServerRow } from '../data/servers/mapper';

// The notifications schema discovery raises: drift (security_alert, "rug pull") for an ordinary
// change, and tool_risk when the risk check finds a high finding in a new definition or in what a
// change added (docs/security.md). Both reach the workspace's integrations, which name the
// findings (metadata.findings) in their payloads.
const KIND_LABEL: Record<SchemaKind, string> = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  resource_template: 'resource template',
};

const studioUrl = (server: ServerRow, schema: SchemaDto) =>
  `/schema-studio?serverId=${encodeURIComponent(server.id)}&schemaId=${encodeURIComponent(schema.id)}`;

export async function raiseDriftAlert(
  app: FastifyInstance,
  server: ServerRow,
  schema: SchemaDto,
  fromVersion: number,
  source: SchemaVersionSource,
): Promise<void> {
  const label = KIND_LABEL[schema.kind];
  const pinned =
    schema.pinnedVersion !== null ? ` The proxy keeps serving the pinned version ${schema.pinnedVersion}.` : '';
  try {
    await app.notifications.raise({
      workspaceId: server.workspace_id,
      type: 'security_alert',
      severity: schema.kind === 'tool' ? 'critical' : 'warning',
      title: `${label[0].toUpperCase()}${label.slice(1)} definition changed: ${schema.name}`,
      message:
        `${server.name} changed the ${label} "${schema.name}" (version ${fromVersion} → ${schema.currentVersion}). ` +
        `A tool server that rewrites a definition after it was trusted may be attempting a rug pull: review the change, ` +
        `and roll back to pin the version you trust.${pinned}`,
      actionUrl: studioUrl(server, schema),
      metadata: {
        serverId: server.id,
        serverName: server.name,
        schemaId: schema.id,
        kind: schema.kind,
        name: schema.name,
        fromVersion,
        toVersion: schema.currentVersion,
        source,
      },
      groupKey: `schema_drift:${schema.id}:${schema.currentVersion}`,
      repeat: 'once',
    });
  } catch (error) {
    app.log.error({ err: error, schemaId: schema.id }, 'could not raise the schema drift alert');
  }
}

/** `fromVersion` null: found at discovery (nothing to hold back to), else the change's predecessor. */
export async function raiseRiskAlert(
  app: FastifyInstance,
  server: ServerRow,
  schema: SchemaDto,
  findings: RiskFinding[],
  change: { fromVersion: number | null; held: boolean; source: SchemaVersionSource },
): Promise<void> {
  const label = KIND_LABEL[schema.kind];
  const named = [...new Set(findings.map((f) => f.title))].join(', ');
  const what =
    change.fromVersion === null
      ? `The ${label} "${schema.name}" of ${server.name} has high-risk text in its definition: ${named}.`
      : `${server.name} changed the ${label} "${schema.name}" (version ${change.fromVersion} → ${schema.currentVersion}) and the change adds high-risk text: ${named}.`;
  const outcome = change.held
    ? ` The change is held: agents keep being served version ${schema.pinnedVersion}. Review it in Schema Studio; roll back to the current version only if you trust it.`
    : schema.pinnedVersion !== null
      ? ` Agents keep being served the pinned version ${schema.pinnedVersion}.`
      : ' Review it in Schema Studio before agents rely on it.';
  try {
    await app.notifications.raise({
      workspaceId: server.workspace_id,
      type: 'tool_risk',
      severity: 'critical',
      title: `Risky ${label} definition: ${schema.name}`,
      message: `${what}${outcome}`,
      actionUrl: studioUrl(server, schema),
      metadata: {
        serverId: server.id,
        serverName: server.name,
        schemaId: schema.id,
        kind: schema.kind,
        name: schema.name,
        fromVersion: change.fromVersion,
        toVersion: schema.currentVersion,
        held: change.held,
        source: change.source,
        findings: findings.map((f) => ({ ruleId: f.ruleId, title: f.title, path: f.path, match: f.match })),
      },
      groupKey: `tool_risk:${schema.id}:${schema.currentVersion}`,
      repeat: 'once',
    });
  } catch (error) {
    app.log.error({ err: error, schemaId: schema.id }, 'could not raise the tool risk alert');
  }
}
