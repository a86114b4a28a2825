import type { Queryable } from '../../db/database';
import type { JsonPatchOperation, SchemaDto, SchemaKind, SchemaVersionSource } from '../../../contract/schemas';
import { createJsonPatch, jsonEqual } from '../../schemas/jsonPatch';
import { storableJson, storableText } from '../../db/storable';
import type { RiskFinding } from '../../../contract/toolRisk';
import { introducedHighFindings } from '../../schemas/risk/riskCheck';

// Queries of the schemas domain. A schema row holds the latest definition; schema_versions keeps
// every definition with the RFC 6902 patch from its predecessor. Writers that change a schema run
// inside a transaction and lock the row (`for update`) so two instances discovering the same
// server at once cannot both create version n+1. Reading the versions and patches: versions.ts.
export type Definition = Record<string, unknown>;

export interface SchemaRow {
  id: string;
  workspace_id: string;
  server_id: string;
  kind: SchemaKind;
  name: string;
  current_version: number;
  pinned_version: number | null;
  definition: Definition;
  drifted: boolean;
  risk_findings: RiskFinding[];
  risk_held: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A database time as the API writes it. */
export const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export function toSchemaDto(row: SchemaRow): SchemaDto {
  return {
    id: row.id,
    serverId: row.server_id,
    kind: row.kind,
    name: row.name,
    currentVersion: row.current_version,
    pinnedVersion: row.pinned_version,
    definition: row.definition,
    drifted: row.drifted,
    riskFindings: row.risk_findings,
    riskHeld: row.risk_held,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

const SCHEMA_COLUMNS =
  'id, workspace_id, server_id, kind, name, current_version, pinned_version, definition, drifted, risk_findings, risk_held, created_at, updated_at';

export async function listSchemas(db: Queryable, workspaceId: string, serverId: string): Promise<SchemaDto[]> {
  const rows = await db.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where workspace_id = $1 and server_id = $2 order by kind, name`,
    [workspaceId, serverId],
  );
  return rows.map(toSchemaDto);
}

export async function findSchema(
  db: Queryable,
  workspaceId: string,
  serverId: string,
  schemaId: string,
): Promise<SchemaDto | undefined> {
  const rows = await db.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where id = $1 and workspace_id = $2 and server_id = $3`,
    [schemaId, workspaceId, serverId],
  );
  return rows[0] && toSchemaDto(rows[0]);
}

async function lockSchemaByName(
  tx: Queryable,
  serverId: string,
  kind: SchemaKind,
  name: string,
): Promise<SchemaRow | undefined> {
  const rows = await tx.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where server_id = $1 and kind = $2 and name = $3 for update`,
    [serverId, kind, name],
  );
  return rows[0];
}

export async function lockSchemaById(
  tx: Queryable,
  workspaceId: string,
  serverId: string,
  schemaId: string,
): Promise<SchemaRow | undefined> {
  const rows = await tx.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where id = $1 and workspace_id = $2 and server_id = $3 for update`,
    [schemaId, workspaceId, serverId],
  );
  return rows[0];
}

/** Inserts a schema at version 1; undefined when (server, kind, name) already exists. */
export async function insertSchema(
  tx: Queryable,
  input: {
    workspaceId: string;
    serverId: string;
    kind: SchemaKind;
    name: string;
    definition: Definition;
    source: SchemaVersionSource;
    riskFindings: RiskFinding[];
  },
): Promise<SchemaDto | undefined> {
  const rows = await tx.query<SchemaRow>(
    `insert into schemas (workspace_id, server_id, kind, name, definition, risk_findings) values ($1, $2, $3, $4, $5, $6)
     on conflict (server_id, kind, name) do nothing returning ${SCHEMA_COLUMNS}`,
    [
      input.workspaceId,
      input.serverId,
      input.kind,
      input.name,
      JSON.stringify(input.definition),
      JSON.stringify(input.riskFindings),
    ],
  );
  if (!rows[0]) return undefined;
  await tx.query(
    `insert into schema_versions (schema_id, version, definition, patch, source) values ($1, 1, $2, '[]'::jsonb, $3)`,
    [rows[0].id, JSON.stringify(input.definition), input.source],
  );
  return toSchemaDto(rows[0]);
}

/**
 * Adds version current+1 with the patch from the current definition, and makes it current.
 * `holdAt`: the risk check holds the change back by pinning that (trusted) version.
 */
export async function appendVersion(
  tx: Queryable,
  current: SchemaRow,
  definition: Definition,
  source: SchemaVersionSource,
  drifted: boolean,
  riskFindings: RiskFinding[],
  holdAt?: number,
): Promise<{ schema: SchemaDto; patch: JsonPatchOperation[] }> {
  const patch = createJsonPatch(current.definition, definition);
  const version = current.current_version + 1;
  await tx.query(
    `insert into schema_versions (schema_id, version, definition, patch, source) values ($1, $2, $3, $4, $5)`,
    [current.id, version, JSON.stringify(definition), JSON.stringify(patch), source],
  );
  const rows = await tx.query<SchemaRow>(
    `update schemas set current_version = $2, definition = $3, drifted = $4, risk_findings = $5,
            pinned_version = coalesce($6, pinned_version), risk_held = risk_held or $6 is not null, updated_at = now()
      where id = $1 returning ${SCHEMA_COLUMNS}`,
    [current.id, version, JSON.stringify(definition), drifted, JSON.stringify(riskFindings), holdAt ?? null],
  );
  return { schema: toSchemaDto(rows[0]), patch };
}

export type RecordOutcome =
  | { kind: 'created'; schema: SchemaDto }
  | { kind: 'unchanged'; schema: SchemaDto }
  | {
      kind: 'changed';
      schema: SchemaDto;
      previousVersion: number;
      patch: JsonPatchOperation[];
      /** High findings this change added (none for an ordinary edit). */
      introduced: RiskFinding[];
      /** The risk check pinned the previous version because of `introduced`. */
      held: boolean;
    };

/**
 * What an upstream currently says a tool/prompt/resource is: new → version 1; equal to the
 * latest definition → nothing; different → a new version, and the schema is marked drifted.
 */
export async function recordUpstreamDefinition(
  tx: Queryable,
  input: {
    workspaceId: string;
    serverId: string;
    kind: SchemaKind;
    name: string;
    definition: Definition;
    source: SchemaVersionSource;
    /** The risk check, bound to the workspace's context (other servers' tool names). */
    assess: (definition: Definition) => RiskFinding[];
  },
): Promise<RecordOutcome> {
  input = { ...input, name: storableText(input.name), definition: storableJson(input.definition) };
  const existing = await lockSchemaByName(tx, input.serverId, input.kind, input.name);
  if (!existing) {
    const created = await insertSchema(tx, { ...input, riskFindings: input.assess(input.definition) });
    if (created) return { kind: 'created', schema: created };
    // Another instance inserted it between our read and our insert: compare against theirs.
    const theirs = await lockSchemaByName(tx, input.serverId, input.kind, input.name);
    if (!theirs) throw new Error('schema vanished while being recorded');
    return compareAndAppend(tx, theirs, input);
  }
  return compareAndAppend(tx, existing, input);
}

/**
 * A changed tool that adds a high finding is held back: unless a person already pinned a version,
 * the version that was current (the one agents were served) is pinned, so the proxy keeps serving
 * it. Prompts and resources are checked and alerted on, but the proxy only rewrites tools/list.
 */
async function compareAndAppend(
  tx: Queryable,
  existing: SchemaRow,
  input: { definition: Definition; source: SchemaVersionSource; assess: (definition: Definition) => RiskFinding[] },
): Promise<RecordOutcome> {
  if (jsonEqual(existing.definition, input.definition)) return { kind: 'unchanged', schema: toSchemaDto(existing) };
  const findings = input.assess(input.definition);
  const introduced = introducedHighFindings(existing.risk_findings, findings);
  const hold = introduced.length > 0 && existing.kind === 'tool' && existing.pinned_version === null;
  const { schema, patch } = await appendVersion(
    tx,
    existing,
    input.definition,
    input.source,
    true,
    findings,
    hold ? existing.current_version : undefined,
  );
  return { kind: 'changed', schema, previousVersion: existing.current_version, patch, introduced, held: hold };
}

export async function setPinnedVersion(
  tx: Queryable,
  schemaId: string,
  pinnedVersion: number | null,
  drifted: boolean,
): Promise<SchemaDto> {
  const rows = await tx.query<SchemaRow>(
    `update schemas set pinned_version = $2, drifted = $3, risk_held = false, updated_at = now() where id = $1 returning ${SCHEMA_COLUMNS}`,
    [schemaId, pinnedVersion, drifted],
  );
  return toSchemaDto(rows[0]);
}

export async function deleteSchema(tx: Queryable, schemaId: string): Promise<void> {
  await tx.query('delete from schemas where id = $1', [schemaId]);
}
