import type { FastifyInstance } from 'fastify';
import type { SchemaDto, SchemaKind, SchemaVersionDto } from '../../../contract/schemas';
import { badRequest, conflict, notFound } from '../../http/errors';
import { jsonEqual } from '../../schemas/jsonPatch';
import { identityFieldOf } from '../../schemas/schemaIdentity';
import { storableJson, storableText } from '../../db/storable';
import {
  appendVersion,
  deleteSchema,
  insertSchema,
  lockSchemaById,
  setPinnedVersion,
  type Definition,
} from '../../data/schemas/store';
import { findVersion } from '../../data/schemas/versions';
import { otherServersToolNames } from '../../data/schemas/riskContext';
import { assessDefinition } from '../../schemas/risk/riskCheck';

// The changes a person makes through the schemas API. Each runs in one transaction with the
// schema row locked, then lets discovery's bookkeeping follow (schema count, the proxy's pins,
// the live stream). Bad input throws a 4xx before anything is written.
interface SchemaRef {
  workspaceId: string;
  serverId: string;
  schemaId: string;
}

/** The risk check of a definition a person wrote: shown, never held (a person chose it). */
async function riskOf(app: FastifyInstance, serverId: string, definition: Definition) {
  return assessDefinition(definition, { otherServersToolNames: await otherServersToolNames(app.db, serverId) });
}

/** A definition's own identity field must agree with the schema's name (the proxy serves it as is). */
function withIdentity(kind: SchemaKind, name: string, written: Definition): Definition {
  const definition = storableJson(written);
  const field = identityFieldOf(kind);
  const given = definition[field];
  if (given !== undefined && given !== name) {
    throw badRequest(`definition.${field}: must equal the schema name "${name}"`, {
      [`definition.${field}`]: `Must equal "${name}"`,
    });
  }
  return { ...definition, [field]: name };
}

export async function createSchema(
  app: FastifyInstance,
  input: { workspaceId: string; serverId: string; kind: SchemaKind; name: string; definition: Definition },
): Promise<SchemaDto> {
  const name = storableText(input.name);
  const definition = withIdentity(input.kind, name, input.definition);
  const riskFindings = await riskOf(app, input.serverId, definition);
  const created = await app.db.transaction((tx) =>
    insertSchema(tx, { ...input, name, definition, source: 'manual', riskFindings }),
  );
  if (!created)
    throw conflict(`A ${input.kind} schema named "${input.name}" already exists on this server`, {
      name: 'Already exists',
    });
  await app.schemaDiscovery.afterSchemasChanged(input.serverId, { pinsChanged: input.kind === 'tool' });
  return created;
}

export async function addManualVersion(
  app: FastifyInstance,
  ref: SchemaRef,
  definition: Definition,
): Promise<SchemaVersionDto> {
  const others = await otherServersToolNames(app.db, ref.serverId);
  const versionNumber = await app.db.transaction(async (tx) => {
    const current = await lockSchemaById(tx, ref.workspaceId, ref.serverId, ref.schemaId);
    if (!current) throw notFound('Schema not found');
    const next = withIdentity(current.kind, current.name, definition);
    if (jsonEqual(current.definition, next))
      throw conflict(`The definition is identical to version ${current.current_version}`);
    // A person wrote this version: it is the new expected definition, so nothing is drifting.
    const findings = assessDefinition(next, { otherServersToolNames: others });
    const { schema } = await appendVersion(tx, current, next, 'manual', false, findings);
    return { version: schema.currentVersion, tool: current.kind === 'tool' };
  });
  // A tool's new version is the proxy's new risk baseline (and, if pinned, a new pin).
  await app.schemaDiscovery.afterSchemasChanged(ref.serverId, { pinsChanged: versionNumber.tool });
  const stored = await findVersion(app.db, ref.schemaId, versionNumber.version);
  if (!stored) throw new Error('version vanished after insert');
  return stored;
}

/**
 * Rollback {version}: pins that version, so the proxy serves its definition in tools/list.
 * Rolling back to the current version accepts it: the pin is removed and drift cleared.
 */
export async function rollbackSchema(app: FastifyInstance, ref: SchemaRef, version: number): Promise<SchemaDto> {
  const schema = await app.db.transaction(async (tx) => {
    const current = await lockSchemaById(tx, ref.workspaceId, ref.serverId, ref.schemaId);
    if (!current) throw notFound('Schema not found');
    const target = await findVersion(tx, current.id, version);
    if (!target) {
      throw badRequest(`version: version ${version} does not exist (latest is ${current.current_version})`, {
        version: `Must be between 1 and ${current.current_version}`,
      });
    }
    if (version === current.current_version) return setPinnedVersion(tx, current.id, null, false);
    return setPinnedVersion(tx, current.id, version, !jsonEqual(target.definition, current.definition));
  });
  await app.schemaDiscovery.afterSchemasChanged(ref.serverId, { pinsChanged: true });
  return schema;
}

export async function removeSchema(app: FastifyInstance, ref: SchemaRef): Promise<void> {
  const wasPinned = await app.db.transaction(async (tx) => {
    const current = await lockSchemaById(tx, ref.workspaceId, ref.serverId, ref.schemaId);
    if (!current) throw notFound('Schema not found');
    await deleteSchema(tx, current.id);
    return current.kind === 'tool';
  });
  await app.schemaDiscovery.afterSchemasChanged(ref.serverId, { pinsChanged: wasPinned });
}
