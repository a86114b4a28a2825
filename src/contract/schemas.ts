import { z } from 'zod';
import { RiskFinding } from './toolRisk';

// SPEC §7 Schemas: what Toolscope knows about the tools, prompts and resources of one server.
// Each schema keeps every definition it has had as numbered versions; a version after the first
// carries the RFC 6902 patch from its predecessor. `pinnedVersion` (set by rollback) is what the
// proxy serves in tools/list instead of the upstream's current definition.
export const SCHEMA_KINDS = ['tool', 'prompt', 'resource', 'resource_template'] as const;
export type SchemaKind = (typeof SCHEMA_KINDS)[number];

/** Where a version came from: discovery, a tools/list seen through the proxy, or a person. */
export const SCHEMA_VERSION_SOURCES = ['discovery', 'proxy', 'manual'] as const;
export type SchemaVersionSource = (typeof SCHEMA_VERSION_SOURCES)[number];

export const JsonPatchOperation = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('remove'), path: z.string() }),
  z.object({ op: z.literal('replace'), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal('move'), path: z.string(), from: z.string() }),
  z.object({ op: z.literal('copy'), path: z.string(), from: z.string() }),
  z.object({ op: z.literal('test'), path: z.string(), value: z.unknown() }),
]);
export type JsonPatchOperation = z.infer<typeof JsonPatchOperation>;

/** A JSON object: every definition is one (a tool, a prompt, a resource as the server lists it). */
const Definition = z.record(z.string(), z.unknown());

export const SchemaDto = z.object({
  id: z.string(),
  serverId: z.string(),
  kind: z.enum(SCHEMA_KINDS),
  /** Tool or prompt name; for resources the URI, for templates the URI template (their identity). */
  name: z.string(),
  currentVersion: z.number().int(),
  pinnedVersion: z.number().int().nullable(),
  definition: Definition,
  /** The upstream changed this definition after it was first seen and nobody accepted it yet. */
  drifted: z.boolean(),
  /** What the risk check found in the current definition (docs/security.md). */
  riskFindings: z.array(RiskFinding),
  /**
   * The current definition added a high finding, so the check pinned the previous version and
   * agents keep being served that one until someone accepts the change (rollback to current).
   */
  riskHeld: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SchemaDto = z.infer<typeof SchemaDto>;

export const SchemaVersionDto = z.object({
  id: z.string(),
  schemaId: z.string(),
  version: z.number().int(),
  definition: Definition,
  /** RFC 6902 operations turning the previous version into this one ([] for version 1). */
  patch: z.array(JsonPatchOperation),
  source: z.enum(SCHEMA_VERSION_SOURCES),
  createdAt: z.string(),
});
export type SchemaVersionDto = z.infer<typeof SchemaVersionDto>;

export const PatchDto = z.object({
  schemaId: z.string(),
  fromVersion: z.number().int(),
  toVersion: z.number().int(),
  operations: z.array(JsonPatchOperation),
  source: z.enum(SCHEMA_VERSION_SOURCES),
  createdAt: z.string(),
});
export type PatchDto = z.infer<typeof PatchDto>;

export const SchemaListResult = z.object({ schemas: z.array(SchemaDto), total: z.number().int() });
export type SchemaListResult = z.infer<typeof SchemaListResult>;
export const SchemaVersionListResult = z.object({ versions: z.array(SchemaVersionDto) });
export type SchemaVersionListResult = z.infer<typeof SchemaVersionListResult>;
export const PatchListResult = z.object({ patches: z.array(PatchDto) });
export type PatchListResult = z.infer<typeof PatchListResult>;

const NAME_MAX = 1000;
const DEFINITION_MAX_BYTES = 256 * 1024;
const boundedDefinition = Definition.refine((d) => JSON.stringify(d).length <= DEFINITION_MAX_BYTES, {
  error: `Definition must be at most ${DEFINITION_MAX_BYTES} bytes of JSON`,
});

export const CreateSchemaBody = z.object({
  kind: z.enum(SCHEMA_KINDS),
  name: z.string().trim().min(1, 'Name is required').max(NAME_MAX),
  definition: boundedDefinition,
});
export type CreateSchemaBody = z.input<typeof CreateSchemaBody>;

export const CreateSchemaVersionBody = z.object({ definition: boundedDefinition });
export type CreateSchemaVersionBody = z.input<typeof CreateSchemaVersionBody>;

export const RollbackSchemaBody = z.object({
  version: z.number().int('Version must be a whole number').min(1, 'Version must be 1 or more'),
});
export type RollbackSchemaBody = z.input<typeof RollbackSchemaBody>;

/** POST …/schemas/discover answers what one discovery run found and changed. */
export const DiscoveryResultDto = z.object({
  serverId: z.string(),
  discovered: z.number().int(),
  created: z.number().int(),
  changed: z.number().int(),
  schemaCount: z.number().int(),
  schemas: z.array(SchemaDto),
});
export type DiscoveryResultDto = z.infer<typeof DiscoveryResultDto>;
