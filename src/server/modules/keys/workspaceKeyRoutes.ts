import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateWorkspaceKeyBody,
  PlatformKeyParams,
  UpdateWorkspaceKeyBody,
  WorkspaceKeyDto,
  WorkspaceKeyHostsBody,
  WorkspaceKeyListResult,
} from '../../../contract/keys';
import { announceAccessChange } from '../../proxy/accessChannel';
import { conflict, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { auditRequest } from '../audit/store';
import { assertManager } from './platformKeyRoutes';
import { serversByReferencedKey } from './serverReferences';
import {
  deleteWorkspaceKey,
  findWorkspaceKey,
  insertWorkspaceKey,
  listWorkspaceKeys,
  sealKeyValue,
  setWorkspaceKeyHosts,
  updateWorkspaceKey,
  type WorkspaceKeyRow,
} from '../../data/keys/workspaceKeyStore';

// SPEC §7 Workspace keys, under /api/v1/workspaces/:workspaceId/keys: named secrets for upstream
// headers ({{key:NAME}}). Write-only: no answer ever carries a value.
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function toDto(row: WorkspaceKeyRow, usedBy: { id: string; name: string }[]): WorkspaceKeyDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    allowedHosts: row.allowed_hosts ?? [],
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    lastUsedAt: iso(row.last_used_at),
    usedBy,
  };
}

export const workspaceKeyRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['workspace keys'];

  /** This instance's resolver forgets the workspace's values at once; other instances on the NOTIFY. */
  const keysChanged = async (workspaceId: string) => {
    app.workspaceKeys.forget(workspaceId);
    await announceAccessChange(app.db, { kind: 'secrets', id: workspaceId });
  };
  const loadRow = async (workspaceId: string, keyId: string) => {
    const row = UUID.test(keyId) ? await findWorkspaceKey(app.db, workspaceId, keyId) : undefined;
    if (!row) throw notFound('Workspace key not found');
    return row;
  };
  const usedBy = async (workspaceId: string) => serversByReferencedKey(app.db, workspaceId, app.config.secret);

  app.get(
    '/keys',
    {
      schema: {
        tags,
        summary: 'Workspace keys (names and dates, never values)',
        params: WorkspaceOnly,
        response: { 200: WorkspaceKeyListResult, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { workspaceId } = request.params;
      const [rows, references] = await Promise.all([listWorkspaceKeys(app.db, workspaceId), usedBy(workspaceId)]);
      return { keys: rows.map((row) => toDto(row, references.get(row.name) ?? [])) };
    },
  );

  app.post(
    '/keys',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Store a named secret for upstream headers ({{key:NAME}})',
        params: WorkspaceOnly,
        body: CreateWorkspaceKeyBody,
        response: { 201: WorkspaceKeyDto, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      assertManager(request, 'manage workspace keys');
      const { workspaceId } = request.params;
      const { name, value, description, allowedHosts } = request.body;
      const row = await insertWorkspaceKey(app.db, {
        workspaceId,
        name,
        description,
        valueEnc: sealKeyValue(value, app.config.secret),
        allowedHosts,
      });
      if (!row) throw conflict(`A key named ${name} already exists`, { name: 'Already exists' });
      await keysChanged(workspaceId);
      await auditRequest(app.db, request, { workspaceId, action: 'workspace_key.created', target: name });
      return reply.status(201).send(toDto(row, (await usedBy(workspaceId)).get(row.name) ?? []));
    },
  );

  app.put(
    '/keys/:keyId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Rotate a key (value) or edit its description; the next upstream request uses it',
        params: PlatformKeyParams,
        body: UpdateWorkspaceKeyBody,
        response: { 200: WorkspaceKeyDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      assertManager(request, 'manage workspace keys');
      const { workspaceId, keyId } = request.params;
      await loadRow(workspaceId, keyId);
      const { value, description } = request.body;
      const row = await updateWorkspaceKey(app.db, workspaceId, keyId, {
        valueEnc: value === undefined ? undefined : sealKeyValue(value, app.config.secret),
        description,
      });
      if (!row) throw notFound('Workspace key not found');
      await keysChanged(workspaceId);
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'workspace_key.rotated',
        target: row.name,
        details: { value: value === undefined ? 'unchanged' : 'rotated', description: description !== undefined },
      });
      return toDto(row, (await usedBy(workspaceId)).get(row.name) ?? []);
    },
  );

  // Where the key may go: the creator set it; changing it later is the owner's (an admin could
  // otherwise widen a key someone else entered to a host of their own, and read it there).
  app.put(
    '/keys/:keyId/hosts',
    {
      config: { minRole: 'owner' },
      schema: {
        tags,
        summary: 'Set the hosts a key may be sent to (owners)',
        params: PlatformKeyParams,
        body: WorkspaceKeyHostsBody,
        response: { 200: WorkspaceKeyDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId, keyId } = request.params;
      const before = await loadRow(workspaceId, keyId);
      const row = await setWorkspaceKeyHosts(app.db, workspaceId, keyId, request.body.allowedHosts);
      if (!row) throw notFound('Workspace key not found');
      await keysChanged(workspaceId);
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'workspace_key.hosts_changed',
        target: row.name,
        details: { before: before.allowed_hosts ?? [], after: row.allowed_hosts ?? [] },
      });
      return toDto(row, (await usedBy(workspaceId)).get(row.name) ?? []);
    },
  );

  app.delete(
    '/keys/:keyId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Delete a key no server references (409 names the servers that do)',
        params: PlatformKeyParams,
      },
    },
    async (request, reply) => {
      assertManager(request, 'manage workspace keys');
      const { workspaceId, keyId } = request.params;
      const row = await loadRow(workspaceId, keyId);
      const servers = (await usedBy(workspaceId)).get(row.name) ?? [];
      if (servers.length > 0) {
        const names = servers.map((s) => s.name).join(', ');
        throw conflict(
          `The key ${row.name} is used by ${servers.length === 1 ? 'the server' : 'the servers'} ${names}. Remove it from their headers first.`,
        );
      }
      await deleteWorkspaceKey(app.db, workspaceId, keyId);
      await keysChanged(workspaceId);
      await auditRequest(app.db, request, { workspaceId, action: 'workspace_key.deleted', target: row.name });
      return reply.status(204).send();
    },
  );
  return Promise.resolve();
};
