import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedPlatformKeyDto,
  CreatePlatformKeyBody,
  DEFAULT_REVOKE_REASON,
  PlatformKeyDto,
  PlatformKeyListResult,
  PlatformKeyParams,
  RevokePlatformKeyBody,
  UpdatePlatformKeyBody,
  type PlatformKeyScopes,
} from '../../../contract/keys';
import type { Queryable } from '../../db/database';
import { acceptEmptyJsonBodies } from '../../http/emptyJsonBody';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { auditRequest } from '../audit/store';
import { generatePlatformKeySecret, hashPlatformKey, platformKeyPrefix } from '../../auth/platformKeySecret';
import {
  findPlatformKey,
  insertPlatformKey,
  listPlatformKeys,
  listRefusals,
  revokePlatformKey,
  toPlatformKeyDto,
  updatePlatformKey,
} from '../../data/keys/platformKeyStore';

// SPEC §7 Platform keys, under /api/v1/workspaces/:workspaceId/platform/keys. Members see the list;
// owners and admins create, change and revoke. The secret is returned by POST once and never again.
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertManager(request: FastifyRequest, what: string): void {
  if (request.workspaceRole === 'member') throw forbidden(`Only owners and admins can ${what}`);
}

async function assertScopes(db: Queryable, workspaceId: string, scopes: PlatformKeyScopes): Promise<void> {
  if (scopes.allServers) return;
  if (scopes.serverIds.length === 0)
    throw badRequest('scopes.serverIds: Choose at least one server, or all servers', {
      'scopes.serverIds': 'Choose at least one server, or all servers',
    });
  const ids = [...new Set(scopes.serverIds.map((id) => id.toLowerCase()))];
  const rows = await db.query<{ id: string }>(
    'select id from servers where workspace_id = $1 and id = any($2::uuid[])',
    [workspaceId, ids],
  );
  if (rows.length !== ids.length) {
    const known = new Set(rows.map((r) => r.id));
    const unknown = ids.filter((id) => !known.has(id));
    throw badRequest(`scopes.serverIds: Unknown server ${unknown[0]}`, {
      'scopes.serverIds': `Unknown server ${unknown[0]}`,
    });
  }
}

export const platformKeyRoutes: FastifyPluginAsync = (scope) => {
  acceptEmptyJsonBodies(scope);
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['platform keys'];

  const loadDto = async (workspaceId: string, keyId: string) => {
    const row = UUID.test(keyId) ? await findPlatformKey(app.db, workspaceId, keyId) : undefined;
    if (!row) throw notFound('Platform key not found');
    const refusals = await listRefusals(app.db, workspaceId);
    return toPlatformKeyDto(row, refusals.byKey.get(row.id) ?? []);
  };

  app.get(
    '/platform/keys',
    {
      schema: {
        tags,
        summary: 'Platform keys of the workspace (never their secrets), with refused uses',
        params: WorkspaceOnly,
        response: { 200: PlatformKeyListResult, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const [rows, refusals] = await Promise.all([
        listPlatformKeys(app.db, workspaceId),
        listRefusals(app.db, workspaceId),
      ]);
      return {
        keys: rows.map((row) => toPlatformKeyDto(row, refusals.byKey.get(row.id) ?? [])),
        unknownKeyRefusals: refusals.unknown,
      };
    },
  );

  app.post(
    '/platform/keys',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Create a platform key; the answer holds its secret, this once',
        params: WorkspaceOnly,
        body: CreatePlatformKeyBody,
        response: { 201: CreatedPlatformKeyDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      assertManager(request, 'create platform keys');
      const { workspaceId } = request.params;
      const body = request.body;
      await assertScopes(app.db, workspaceId, body.scopes);
      const secret = generatePlatformKeySecret();
      const row = await insertPlatformKey(app.db, {
        workspaceId,
        name: body.name,
        prefix: platformKeyPrefix(secret),
        secretHash: hashPlatformKey(secret),
        scopes: body.scopes,
        expiresAt: body.expiresAt,
        createdBy: request.userId,
      });
      await app.agentAccess.keyChanged(row.id);
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'key.created',
        target: body.name,
        details: { keyId: row.id, prefix: row.prefix },
      });
      return reply.status(201).send({ ...toPlatformKeyDto(row), secret });
    },
  );

  app.get(
    '/platform/keys/:keyId',
    {
      schema: {
        tags,
        summary: 'One platform key with its refused uses',
        params: PlatformKeyParams,
        response: { 200: PlatformKeyDto, ...errorResponses(401, 404) },
      },
    },
    async (request) => loadDto(request.params.workspaceId, request.params.keyId),
  );

  app.put(
    '/platform/keys/:keyId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Rename a key, or change its scopes or expiry',
        params: PlatformKeyParams,
        body: UpdatePlatformKeyBody,
        response: { 200: PlatformKeyDto, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      assertManager(request, 'change platform keys');
      const { workspaceId, keyId } = request.params;
      const before = await loadDto(workspaceId, keyId);
      if (before.status === 'revoked') throw conflict('A revoked key cannot be changed');
      if (request.body.scopes) await assertScopes(app.db, workspaceId, request.body.scopes);
      await updatePlatformKey(app.db, workspaceId, keyId, request.body);
      await app.agentAccess.keyChanged(keyId);
      return loadDto(workspaceId, keyId);
    },
  );

  app.delete(
    '/platform/keys/:keyId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: "Revoke a key (body: reason, default 'Revoked by user'); it stays listed as revoked",
        params: PlatformKeyParams,
        body: RevokePlatformKeyBody,
        response: { 200: PlatformKeyDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      assertManager(request, 'revoke platform keys');
      const { workspaceId, keyId } = request.params;
      const key = await loadDto(workspaceId, keyId);
      const reason = request.body?.reason || DEFAULT_REVOKE_REASON;
      await revokePlatformKey(app.db, workspaceId, keyId, reason);
      await app.agentAccess.keyChanged(keyId);
      if (key.status !== 'revoked')
        await auditRequest(app.db, request, {
          workspaceId,
          action: 'key.revoked',
          target: key.name,
          details: { keyId, reason },
        });
      return loadDto(workspaceId, keyId);
    },
  );
  return Promise.resolve();
};
