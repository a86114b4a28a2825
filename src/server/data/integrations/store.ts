import type {
  IntegrationActivityDto,
  IntegrationDto,
  IntegrationKind,
  IntegrationRules,
} from '../../../contract/integrations';
import type { Queryable } from '../../db/database';
import { maskedConfig, openSecrets } from './secrets';

// The integrations of a workspace and their activity log. Read by the routes and by the delivery
// engine (src/server/integrations), which decrypts secrets only when it sends.

export interface IntegrationRow {
  id: string;
  workspace_id: string;
  name: string;
  kind: IntegrationKind;
  config: Record<string, unknown>;
  secrets: string | null;
  rules: IntegrationRules;
  enabled: boolean;
  disabled_reason: string | null;
  failures_in_a_row: number;
  created_at: Date | string;
  updated_at: Date | string;
  last_delivery_at?: Date | string | null;
  last_delivery_status?: 'delivered' | 'failed' | null;
}

const iso = (t: Date | string) => (t instanceof Date ? t : new Date(t)).toISOString();

const COLUMNS = `i.id, i.workspace_id, i.name, i.kind, i.config, i.secrets, i.rules, i.enabled, i.disabled_reason,
  i.failures_in_a_row, i.created_at, i.updated_at`;
const LAST_DELIVERY = `(select a.created_at from integration_activities a
    where a.integration_id = i.id and a.status in ('delivered', 'failed') order by a.created_at desc limit 1) as last_delivery_at,
  (select a.status from integration_activities a
    where a.integration_id = i.id and a.status in ('delivered', 'failed') order by a.created_at desc limit 1) as last_delivery_status`;

export function toIntegrationDto(row: IntegrationRow, serverSecret: string): IntegrationDto {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    config: maskedConfig(row.kind, row.config, openSecrets(row.secrets, serverSecret)),
    rules: row.rules,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    lastDeliveryAt: row.last_delivery_at ? iso(row.last_delivery_at) : null,
    lastDeliveryStatus: row.last_delivery_status ?? null,
  };
}

export async function listIntegrations(db: Queryable, workspaceId: string): Promise<IntegrationRow[]> {
  return db.query<IntegrationRow>(
    `select ${COLUMNS}, ${LAST_DELIVERY} from integrations i where i.workspace_id = $1 order by i.created_at, i.id`,
    [workspaceId],
  );
}

export async function findIntegration(
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<IntegrationRow | undefined> {
  const rows = await db.query<IntegrationRow>(
    `select ${COLUMNS}, ${LAST_DELIVERY} from integrations i where i.workspace_id = $1 and i.id = $2`,
    [workspaceId, id],
  );
  return rows[0];
}

export async function findIntegrationById(db: Queryable, id: string): Promise<IntegrationRow | undefined> {
  const rows = await db.query<IntegrationRow>(`select ${COLUMNS} from integrations i where i.id = $1`, [id]);
  return rows[0];
}

export interface NewIntegration {
  workspaceId: string;
  name: string;
  kind: IntegrationKind;
  config: Record<string, unknown>;
  secrets: string | null;
  rules: IntegrationRules;
  enabled: boolean;
}

export async function insertIntegration(db: Queryable, input: NewIntegration): Promise<IntegrationRow> {
  const rows = await db.query<IntegrationRow>(
    `insert into integrations as i (workspace_id, name, kind, config, secrets, rules, enabled)
     values ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7) returning ${COLUMNS}`,
    [
      input.workspaceId,
      input.name,
      input.kind,
      JSON.stringify(input.config),
      input.secrets,
      JSON.stringify(input.rules),
      input.enabled,
    ],
  );
  return rows[0];
}

export interface IntegrationChanges {
  name: string;
  config: Record<string, unknown>;
  secrets: string | null;
  rules: IntegrationRules;
  enabled: boolean;
}

/** Saves an edit. Turning an integration on again clears why Toolscope had turned it off. */
export async function updateIntegration(
  db: Queryable,
  workspaceId: string,
  id: string,
  changes: IntegrationChanges,
): Promise<void> {
  await db.query(
    `update integrations set name = $3, config = $4::jsonb, secrets = $5, rules = $6::jsonb, enabled = $7,
        disabled_reason = case when $7 then null else disabled_reason end,
        failures_in_a_row = case when $7 and not enabled then 0 else failures_in_a_row end,
        updated_at = now()
      where workspace_id = $1 and id = $2`,
    [
      workspaceId,
      id,
      changes.name,
      JSON.stringify(changes.config),
      changes.secrets,
      JSON.stringify(changes.rules),
      changes.enabled,
    ],
  );
}

export async function deleteIntegration(db: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db.query('delete from integrations where workspace_id = $1 and id = $2 returning id', [
    workspaceId,
    id,
  ]);
  return rows.length > 0;
}

/** The enabled integrations of a workspace, for matching a raised notification against their rules. */
export async function enabledIntegrations(
  db: Queryable,
  workspaceId: string,
): Promise<Pick<IntegrationRow, 'id' | 'kind' | 'rules'>[]> {
  return db.query('select id, kind, rules from integrations where workspace_id = $1 and enabled', [workspaceId]);
}

interface ActivityRow {
  id: string;
  delivery_id: string | null;
  created_at: Date | string;
  event: string;
  status: IntegrationActivityDto['status'];
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  attempt: number;
  summary: string;
}

export async function listActivities(
  db: Queryable,
  integrationId: string,
  limit: number,
): Promise<IntegrationActivityDto[]> {
  const rows = await db.query<ActivityRow>(
    `select id, delivery_id, created_at, event, status, status_code, latency_ms, error, attempt, summary
       from integration_activities where integration_id = $1 order by created_at desc, id limit $2`,
    [integrationId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    deliveryId: r.delivery_id,
    createdAt: iso(r.created_at),
    event: r.event,
    status: r.status,
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    error: r.error,
    attempt: r.attempt,
    summary: r.summary,
  }));
}

export interface NewActivity {
  integrationId: string;
  deliveryId: string | null;
  event: string;
  status: IntegrationActivityDto['status'];
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  attempt: number;
  summary: string;
}

export async function insertActivity(db: Queryable, a: NewActivity): Promise<void> {
  await db.query(
    `insert into integration_activities (integration_id, delivery_id, event, status, status_code, latency_ms, error, attempt, summary)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      a.integrationId,
      a.deliveryId,
      a.event,
      a.status,
      a.statusCode,
      a.latencyMs,
      a.error?.slice(0, 1000) ?? null,
      a.attempt,
      a.summary,
    ],
  );
}

/** Activities are kept 30 days (the hourly cleanup). */
export async function deleteOldActivities(db: Queryable, days = 30): Promise<number> {
  const rows = await db.query(
    `delete from integration_activities where created_at < now() - make_interval(days => $1) returning id`,
    [days],
  );
  await db.query(
    `delete from integration_deliveries where status <> 'pending' and created_at < now() - make_interval(days => $1)`,
    [days],
  );
  return rows.length;
}
