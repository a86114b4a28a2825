import type { Queryable } from '../../db/database';
import type {
  JsonPatchOperation,
  PatchDto,
  SchemaVersionDto,
  SchemaVersionSource,
} from '../../../contract/schemas';
import { iso, type Definition } from './store';

// A schema's history as the API shows it: every version (schema_versions) with its definition and
// the RFC 6902 patch from its predecessor, and the patches alone. Written by store.ts.

interface VersionRow {
  id: string;
  schema_id: string;
  version: number;
  definition: Definition;
  patch: JsonPatchOperation[];
  source: SchemaVersionSource;
  created_at: Date | string;
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

export async function listVersions(db: Queryable, schemaId: string): Promise<SchemaVersionDto[]> {
  const rows = await db.query<VersionRow>(
    'select id, schema_id, version, definition, patch, source, created_at from schema_versions where schema_id = $1 order by version',
    [schemaId],
  );
  return rows.map(toVersionDto);
}

export async function findVersion(
  db: Queryable,
  schemaId: string,
  version: number,
): Promise<SchemaVersionDto | undefined> {
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
    .map((v) => ({
      schemaId,
      fromVersion: v.version - 1,
      toVersion: v.version,
      operations: v.patch,
      source: v.source,
      createdAt: v.createdAt,
    }));
}
