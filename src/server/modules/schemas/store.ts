import type { Queryable } from '../../db/database';
import type { JsonPatchOperation, PatchDto, SchemaDto, SchemaKind, SchemaVersionDto, SchemaVersionSource } from '../../../contract/schemas';
import { createJsonPatch, jsonEqual } from '../../schemas/jsonPatch';
import { storableJson, storableText } from '../../db/storable';

// Queries of the schemas domain. A schema row holds the latest definition; schema_versions keeps
// every definition with the RFC 6902 patch from its predecessor. Writers that change a schema run
// inside a transaction and lock the row (`for update`) so two instances discovering the same
// server at once cannot both create version n+1.
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
  created_at: Date | string;
  updated_at: Date | string;
}

interface VersionRow {
  id: string;
  schema_id: string;
  version: number;
  definition: Definition;
  patch: JsonPatchOperation[];
  source: SchemaVersionSource;
  created_at: Date | string;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

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
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function toVersionDto(row: VersionRow): SchemaVersionDto {
  return {
    id: row.id,
    schemaId: row.schema_id,
    version: row.version,
    definition: row.definition,
    patch: row.patch,
    source: row.source,
    createdAt: iso(row.created_at),
  };
}

const SCHEMA_COLUMNS = 'id, workspace_id, server_id, kind, name, current_version, pinned_version, definition, drifted, created_at, updated_at';

export async function listSchemas(db: Queryable, workspaceId: string, serverId: string): Promise<SchemaDto[]> {
  const rows = await db.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where workspace_id = $1 and server_id = $2 order by kind, name`,
    [workspaceId, serverId],
  );
  return rows.map(toSchemaDto);
}

export async function findSchema(db: Queryable, workspaceId: string, serverId: string, schemaId: string): Promise<SchemaDto | undefined> {
  const rows = await db.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where id = $1 and workspace_id = $2 and server_id = $3`,
    [schemaId, workspaceId, serverId],
  );
  return rows[0] && toSchemaDto(rows[0]);
}

async function lockSchemaByName(tx: Queryable, serverId: string, kind: SchemaKind, name: string): Promise<SchemaRow | undefined> {
  const rows = await tx.query<SchemaRow>(`select ${SCHEMA_COLUMNS} from schemas where server_id = $1 and kind = $2 and name = $3 for update`, [
    serverId,
    kind,
    name,
  ]);
  return rows[0];
}

export async function lockSchemaById(tx: Queryable, workspaceId: string, serverId: string, schemaId: string): Promise<SchemaRow | undefined> {
  const rows = await tx.query<SchemaRow>(
    `select ${SCHEMA_COLUMNS} from schemas where id = $1 and workspace_id = $2 and server_id = $3 for update`,
    [schemaId, workspaceId, serverId],
  );
  return rows[0];
}

/** Inserts a schema at version 1; undefined when (server, kind, name) already exists. */
export async function insertSchema(
  tx: Queryable,
  input: { workspaceId: string; serverId: string; kind: SchemaKind; name: string; definition: Definition; source: SchemaVersionSource },
): Promise<SchemaDto | undefined> {
  const rows = await tx.query<SchemaRow>(
    `insert into schemas (workspace_id, server_id, kind, name, definition) values ($1, $2, $3, $4, $5)
     on conflict (server_id, kind, name) do nothing returning ${SCHEMA_COLUMNS}`,
    [input.workspaceId, input.serverId, input.kind, input.name, JSON.stringify(input.definition)],
  );
  if (!rows[0]) return undefined;
  await tx.query(`insert into schema_versions (schema_id, version, definition, patch, source) values ($1, 1, $2, '[]'::jsonb, $3)`, [
    rows[0].id,
    JSON.stringify(input.definition),
    input.source,
  ]);
  return toSchemaDto(rows[0]);
}

/** Adds version current+1 with the patch from the current definition, and makes it current. */
export async function appendVersion(
  tx: Queryable,
  current: SchemaRow,
  definition: Definition,
  source: SchemaVersionSource,
  drifted: boolean,
): Promise<{ schema: SchemaDto; patch: JsonPatchOperation[] }> {
  const patch = createJsonPatch(current.definition, definition);
  const version = current.current_version + 1;
  await tx.query(`insert into schema_versions (schema_id, version, definition, patch, source) values ($1, $2, $3, $4, $5)`, [
    current.id,
    version,
    JSON.stringify(definition),
    JSON.stringify(patch),
    source,
  ]);
  const rows = await tx.query<SchemaRow>(
    `update schemas set current_version = $2, definition = $3, drifted = $4, updated_at = now() where id = $1 returning ${SCHEMA_COLUMNS}`,
    [current.id, version, JSON.stringify(definition), drifted],
  );
  return { schema: toSchemaDto(rows[0]), patch };
}

export type RecordOutcome =
  | { kind: 'created'; schema: SchemaDto }
  | { kind: 'unchanged'; schema: SchemaDto }
  | { kind: 'changed'; schema: SchemaDto; previousVersion: number; patch: JsonPatchOperation[] };

/**
 * What an upstream currently says a tool/prompt/resource is: new → version 1; equal to the
 * latest definition → nothing; different → a new version, and the schema is marked drifted.
 */
export async function recordUpstreamDefinition(
  tx: Queryable,
  input: { workspaceId: string; serverId: string; kind: SchemaKind; name: string; definition: Definition; source: SchemaVersionSource },
): Promise<RecordOutcome> {
  input = { ...input, name: storableText(input.name), definition: storableJson(input.definition) };
  const existing = await lockSchemaByName(tx, input.serverId, input.kind, input.name);
  if (!existing) {
    const created = await insertSchema(tx, input);
    if (created) return { kind: 'created', schema: created };
    // Another instance inserted it between our read and our insert: compare against theirs.
    const theirs = await lockSchemaByName(tx, input.serverId, input.kind, input.name);
    if (!theirs) throw new Error('schema vanished while being recorded');
    return compareAndAppend(tx, theirs, input.definition, input.source);
  }
  return compareAndAppend(tx, existing, input.definition, input.source);
}

async function compareAndAppend(tx: Queryable, existing: SchemaRow, definition: Definition, source: SchemaVersionSource): Promise<RecordOutcome> {
  if (jsonEqual(existing.definition, definition)) return { kind: 'unchanged', schema: toSchemaDto(existing) };
  const { schema, patch } = await appendVersion(tx, existing, definition, source, true);
  return { kind: 'changed', schema, previousVersion: existing.current_version, patch };
}

export async function listVersions(db: Queryable, schemaId: string): Promise<SchemaVersionDto[]> {
  const rows = await db.query<VersionRow>(
    'select id, schema_id, version, definition, patch, source, created_at from schema_versions where schema_id = $1 order by version',
    [schemaId],
  );
  return rows.map(toVersionDto);
}

export async function findVersion(db: Queryable, schemaId: string, version: number): Promise<SchemaVersionDto | undefined> {
  const rows = await db.query<VersionRow>(
    'select id, schema_id, version, definition, patch, source, created_at from schema_versions where schema_id = $1 and version = $2',
    [schemaId, version],
  );
  return rows[0] && toVersionDto(rows[0]);
}

export async function listPatches(db: Queryable, schemaId: string): Promise<PatchDto[]> {
  const versions = await listVersions(db, schemaId);
  return versions
    .filter((v) => v.version > 1)
    .map((v) => ({ schemaId, fromVersion: v.version - 1, toVersion: v.version, operations: v.patch, source: v.source, createdAt: v.createdAt }));
}

export async function setPinnedVersion(tx: Queryable, schemaId: string, pinnedVersion: number | null, drifted: boolean): Promise<SchemaDto> {
  const rows = await tx.query<SchemaRow>(
    `update schemas set pinned_version = $2, drifted = $3, updated_at = now() where id = $1 returning ${SCHEMA_COLUMNS}`,
    [schemaId, pinnedVersion, drifted],
  );
  return toSchemaDto(rows[0]);
}

export async function deleteSchema(tx: Queryable, schemaId: string): Promise<void> {
  await tx.query('delete from schemas where id = $1', [schemaId]);
}

/** Recounts servers.schema_count; returns the new count and whether it changed. */
export async function refreshSchemaCount(db: Queryable, serverId: string): Promise<{ count: number; changed: boolean }> {
  const rows = await db.query<{ count: number; previous: number }>(
    `with counted as (select count(*)::int as count from schemas where server_id = $1),
          previous as (select schema_count as previous from servers where id = $1)
     update servers set schema_count = counted.count, updated_at = case when servers.schema_count <> counted.count then now() else servers.updated_at end
     from counted, previous where servers.id = $1 returning counted.count, previous.previous`,
    [serverId],
  );
  if (!rows[0]) return { count: 0, changed: false };
  return { count: rows[0].count, changed: rows[0].count !== rows[0].previous };
}

/** Every pinned tool definition (for the proxy's tools/list rewriter cache). */
export async function listPinnedToolDefinitions(db: Queryable, serverId?: string): Promise<{ serverId: string; name: string; definition: Definition; pinnedVersion: number; currentVersion: number }[]> {
  const rows = await db.query<{ server_id: string; name: string; definition: Definition; pinned_version: number; current_version: number }>(
    `select s.server_id, s.name, v.definition, s.pinned_version, s.current_version
       from schemas s join schema_versions v on v.schema_id = s.id and v.version = s.pinned_version
      where s.kind = 'tool' and s.pinned_version is not null ${serverId ? 'and s.server_id = $1' : ''}`,
    serverId ? [serverId] : [],
  );
  return rows.map((r) => ({ serverId: r.server_id, name: r.name, definition: r.definition, pinnedVersion: r.pinned_version, currentVersion: r.current_version }));
}
