import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateSchemaBody,
  CreateSchemaVersionBody,
  DiscoveryResultDto,
  PatchListResult,
  RollbackSchemaBody,
  SchemaDto,
  SchemaListResult,
  SchemaVersionDto,
  SchemaVersionListResult,
} from '../../../contract/schemas';
import { acceptEmptyJsonBodies } from '../../http/emptyJsonBody';
import { HttpError, notFound } from '../../http/errors';
import { ServerNotFoundError, UpstreamListingError } from '../../monitor/schemaDiscovery';
import { describeUpstreamError } from '../../monitor/upstreamClient';
import { addManualVersion, createSchema, removeSchema, rollbackSchema } from './commands';
import { findSchema, listSchemas } from '../../data/schemas/store';
import { listPatches, listVersions } from '../../data/schemas/versions';

// SPEC §7 Schemas, under /api/v1/workspaces/:workspaceId (the membership guard runs first).
// A server or schema of another workspace is "not found", exactly like one that does not exist.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ServerParams = z.object({ workspaceId: z.string(), serverId: z.string() });
const SchemaParams = ServerParams.extend({ schemaId: z.string() });
/** POST …/discover takes an empty body (or none at all). */
const EmptyBody = z.union([z.object({}).strict(), z.null(), z.undefined()]).optional();

async function assertServer(app: FastifyInstance, workspaceId: string, serverId: string): Promise<void> {
  const rows = UUID.test(serverId)
    ? await app.db.query('select 1 from servers where id = $1 and workspace_id = $2', [serverId, workspaceId])
    : [];
  if (rows.length === 0) throw notFound('Server not found');
}

async function loadSchema(app: FastifyInstance, params: z.infer<typeof SchemaParams>): Promise<SchemaDto> {
  await assertServer(app, params.workspaceId, params.serverId);
  const schema = UUID.test(params.schemaId)
    ? await findSchema(app.db, params.workspaceId, params.serverId, params.schemaId)
    : undefined;
  if (!schema) throw notFound('Schema not found');
  return schema;
}

export const schemaRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['schemas'];
  // "POST /discover with an empty body": clients send nothing, `{}`, or a JSON content type with
  // no bytes at all — the last is a 400 in Fastify's default parser, so this scope accepts it.
  acceptEmptyJsonBodies(scope);
  const base = '/servers/:serverId/schemas';

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'List the schemas of a server',
        params: ServerParams,
        response: { 200: SchemaListResult },
      },
    },
    async (request) => {
      const { workspaceId, serverId } = request.params;
      await assertServer(app, workspaceId, serverId);
      const schemas = await listSchemas(app.db, workspaceId, serverId);
      return { schemas, total: schemas.length };
    },
  );

  app.post(
    base,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Create a schema (version 1)',
        params: ServerParams,
        body: CreateSchemaBody,
        response: { 201: SchemaDto },
      },
    },
    async (request, reply) => {
      const { workspaceId, serverId } = request.params;
      await assertServer(app, workspaceId, serverId);
      const schema = await createSchema(app, { workspaceId, serverId, ...request.body });
      return reply.status(201).send(schema);
    },
  );

  app.post(
    `${base}/discover`,
    {
      // Listing the upstream now is what the monitor does anyway; drift it finds still waits for an admin.
      config: { minRole: 'member' },
      schema: {
        tags,
        summary: 'List the upstream now and record its tools, prompts and resources',
        params: ServerParams,
        body: EmptyBody,
        response: { 200: DiscoveryResultDto },
      },
    },
    async (request) => {
      const { workspaceId, serverId } = request.params;
      await assertServer(app, workspaceId, serverId);
      try {
        return await app.schemaDiscovery.discover(serverId);
      } catch (error) {
        if (error instanceof ServerNotFoundError) throw notFound('Server not found');
        // The upstream is the user's own server: say why it could not be listed. Any other
        // failure (storing what it listed) is ours and goes to the generic 500.
        if (error instanceof UpstreamListingError) {
          throw new HttpError(
            502,
            `Could not list the tool server: ${describeUpstreamError(error.cause)}`,
            'service_unavailable',
          );
        }
        throw error;
      }
    },
  );

  app.get(
    `${base}/:schemaId`,
    { schema: { tags, summary: 'Get a schema', params: SchemaParams, response: { 200: SchemaDto } } },
    async (request) => loadSchema(app, request.params),
  );

  app.delete(
    `${base}/:schemaId`,
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Delete a schema and its versions', params: SchemaParams },
    },
    async (request, reply) => {
      const schema = await loadSchema(app, request.params);
      await removeSchema(app, {
        workspaceId: request.params.workspaceId,
        serverId: schema.serverId,
        schemaId: schema.id,
      });
      return reply.status(204).send();
    },
  );

  app.get(
    `${base}/:schemaId/versions`,
    {
      schema: {
        tags,
        summary: 'List the versions of a schema',
        params: SchemaParams,
        response: { 200: SchemaVersionListResult },
      },
    },
    async (request) => {
      const schema = await loadSchema(app, request.params);
      return { versions: await listVersions(app.db, schema.id) };
    },
  );

  app.post(
    `${base}/:schemaId/versions`,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Add a version written by hand (it becomes the expected definition)',
        params: SchemaParams,
        body: CreateSchemaVersionBody,
        response: { 201: SchemaVersionDto },
      },
    },
    async (request, reply) => {
      const schema = await loadSchema(app, request.params);
      const version = await addManualVersion(
        app,
        { workspaceId: request.params.workspaceId, serverId: schema.serverId, schemaId: schema.id },
        request.body.definition,
      );
      return reply.status(201).send(version);
    },
  );

  app.get(
    `${base}/:schemaId/patches`,
    {
      schema: {
        tags,
        summary: 'The RFC 6902 patches between consecutive versions',
        params: SchemaParams,
        response: { 200: PatchListResult },
      },
    },
    async (request) => {
      const schema = await loadSchema(app, request.params);
      return { patches: await listPatches(app.db, schema.id) };
    },
  );

  app.post(
    `${base}/:schemaId/rollback`,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Pin a version: the proxy serves it in tools/list (the current version unpins)',
        params: SchemaParams,
        body: RollbackSchemaBody,
        response: { 200: SchemaDto },
      },
    },
    async (request) => {
      const schema = await loadSchema(app, request.params);
      return rollbackSchema(
        app,
        { workspaceId: request.params.workspaceId, serverId: schema.serverId, schemaId: schema.id },
        request.body.version,
      );
    },
  );
  return Promise.resolve();
};
