import { ON_THE_BUS, publicBase as publicBaseOf } from '../../http/publicUrl';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RegisterServerBody,
  RegisterServerQuery,
  ServerDto,
  ServerHealthResult,
  ServerListResult,
  UpdateServerBody,
} from '../../../contract/servers';
import { badRequest, notFound } from '../../http/errors';
import { OutboundBlockedError } from '../../net/outboundClient';
import { auditRequest, recordAuditEvent } from '../audit/store';
import { encryptCredentials } from '../../data/servers/credentials';
import { toServerDto, type ServerRow } from '../../data/servers/mapper';
import { monitorHooks } from '../../monitor/monitorHooks';
import { probeAndRecordHealth } from './healthProbe';
import { unknownKeyReferences } from '../keys/serverReferences';
import { hostsOfKeys } from '../../data/keys/workspaceKeyStore';
import { keyMayGoTo } from '../../data/keys/keyHosts';
import { referencedKeyNames } from '../../../contract/keys';
import { deleteServer, findServer, insertServer, listServers, updateServer } from '../../data/servers/store';

// SPEC §7 Servers, under /api/v1/workspaces/:workspaceId (the membership guard runs first).
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const WorkspaceAndServer = z.object({ workspaceId: z.string(), serverId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** TOOLSCOPE_PUBLIC_URL, else the origin the caller used to reach us (http/publicUrl.ts). */
export function publicBase(request: FastifyRequest): string {
  return publicBaseOf(request.server.config, request);
}

async function assertUpstreamUrl(
  app: FastifyInstance,
  request: FastifyRequest<{ Params: { workspaceId: string } }>,
  url: string,
): Promise<void> {
  try {
    await app.outbound.assertUrlAllowed(url);
  } catch (error) {
    if (error instanceof OutboundBlockedError) {
      // A refused private upstream is a security event: someone tried to reach into this host's networks.
      if (error.message.startsWith('Private and loopback')) {
        await recordAuditEvent(app.db, {
          workspaceId: request.params.workspaceId,
          action: 'upstream.refused_private',
          actorUserId: request.userId,
          target: hostOf(url),
          details: { reason: error.message },
          ip: request.ip,
        });
      }
      throw badRequest(`url: ${error.message}`, { url: error.message });
    }
    throw error;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return url.slice(0, 200);
  }
}

/**
 * `{{key:NAME}}` in headers must name a key of the workspace (docs/access.md) whose hosts include
 * the server's (docs/security.md, "Secrets stay bound to where they go").
 */
async function assertKeyReferences(
  app: FastifyInstance,
  workspaceId: string,
  headers: Record<string, string> | undefined,
  url: string,
): Promise<void> {
  if (!headers) return;
  const unknown = await unknownKeyReferences(app.db, workspaceId, headers);
  if (unknown.length > 0)
    throw badRequest(`headers: Unknown workspace key ${unknown.join(', ')}`, {
      headers: `Unknown workspace key ${unknown.join(', ')}`,
    });
  const names = [...new Set(Object.values(headers).flatMap(referencedKeyNames))];
  if (names.length === 0) return;
  const hosts = await hostsOfKeys(app.db, workspaceId, names);
  const refused = names.filter((name) => !keyMayGoTo(hosts.get(name) ?? null, url));
  if (refused.length > 0) {
    const text = `Workspace key ${refused.join(', ')} may not be sent to ${hostOf(url)}: an owner can add the host to the key`;
    throw badRequest(`headers: ${text}`, { headers: text });
  }
}

async function loadServer(app: FastifyInstance, workspaceId: string, serverId: string): Promise<ServerRow> {
  const row = UUID.test(serverId) ? await findServer(app.db, workspaceId, serverId) : undefined;
  if (!row) throw notFound('Server not found');
  return row;
}

export const serverRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['servers'];

  app.get(
    '/servers',
    {
      schema: {
        tags,
        summary: 'List the tool servers of a workspace',
        params: WorkspaceOnly,
        response: { 200: ServerListResult },
      },
    },
    async (request) => {
      const rows = await listServers(app.db, request.params.workspaceId);
      const base = publicBase(request);
      return rows.map((row) => toServerDto(row, base));
    },
  );

  app.post(
    '/servers',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Register a tool server and get its proxy URL',
        params: WorkspaceOnly,
        querystring: RegisterServerQuery,
        body: RegisterServerBody,
        response: { 201: ServerDto },
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const queryWorkspace = request.query.workspace_id;
      if (queryWorkspace !== undefined && queryWorkspace !== workspaceId) {
        throw badRequest('workspace_id: Must match the workspace in the path', {
          workspace_id: 'Must match the workspace in the path',
        });
      }
      const body = request.body;
      await assertUpstreamUrl(app, request, body.url);
      await assertKeyReferences(app, workspaceId, body.headers, body.url);
      const headers = body.headers && Object.keys(body.headers).length > 0 ? body.headers : undefined;
      const row = await insertServer(app.db, {
        workspaceId,
        name: body.name,
        url: body.url,
        description: body.description,
        transport: body.transport,
        timeoutMs: body.timeoutMs,
        allowedOrigins: body.allowedOrigins,
        credentialsEnc: headers ? encryptCredentials(headers, app.config.secret) : null,
      });
      const dto = toServerDto(row, publicBase(request));
      app.bus.publish(workspaceId, { type: 'server_updated', data: toServerDto(row, ON_THE_BUS) });
      monitorHooks(app).schemaDiscovery?.discoverInBackground(row.id);
      return reply.status(201).send(dto);
    },
  );

  app.get(
    '/servers/:serverId',
    { schema: { tags, summary: 'One tool server', params: WorkspaceAndServer, response: { 200: ServerDto } } },
    async (request) =>
      toServerDto(await loadServer(app, request.params.workspaceId, request.params.serverId), publicBase(request)),
  );

  app.put(
    '/servers/:serverId',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Change a tool server (headers: {} removes stored credentials)',
        params: WorkspaceAndServer,
        body: UpdateServerBody,
        response: { 200: ServerDto },
      },
    },
    async (request) => {
      const { workspaceId, serverId } = request.params;
      const before = await loadServer(app, workspaceId, serverId);
      const body = request.body;
      if (body.url !== undefined && body.url !== before.url) await assertUpstreamUrl(app, request, body.url);
      await assertKeyReferences(app, workspaceId, body.headers, body.url ?? before.url);
      const credentialsEnc =
        body.headers === undefined
          ? undefined
          : Object.keys(body.headers).length === 0
            ? null
            : encryptCredentials(body.headers, app.config.secret);
      const row = await updateServer(app.db, workspaceId, serverId, { ...body, credentialsEnc });
      if (!row) throw notFound('Server not found');
      if (body.headers !== undefined) {
        // Header names only: the values are the secrets.
        await auditRequest(app.db, request, {
          workspaceId,
          action: 'server.credentials_changed',
          target: row.name,
          details: {
            headers: Object.keys(body.headers).sort(),
            change: Object.keys(body.headers).length === 0 ? 'removed' : before.credentials_enc ? 'replaced' : 'added',
          },
        });
      }
      if (before.credentials_enc && !row.credentials_enc && body.headers === undefined) {
        await recordAuditEvent(app.db, {
          workspaceId,
          action: 'server.credentials_dropped',
          actorUserId: request.userId,
          target: row.name,
          details: { from: hostOf(before.url), to: hostOf(row.url) },
          ip: request.ip,
        });
      }
      app.upstreams.forget(row.proxy_key);
      const dto = toServerDto(row, publicBase(request));
      app.bus.publish(workspaceId, { type: 'server_updated', data: toServerDto(row, ON_THE_BUS) });
      return dto;
    },
  );

  app.delete(
    '/servers/:serverId',
    {
      config: { minRole: 'admin' },
      schema: { tags, summary: 'Remove a tool server (its proxy URL stops working)', params: WorkspaceAndServer },
    },
    async (request, reply) => {
      const { workspaceId, serverId } = request.params;
      const row = UUID.test(serverId) ? await deleteServer(app.db, workspaceId, serverId) : undefined;
      if (!row) throw notFound('Server not found');
      app.upstreams.revoke(row.proxy_key);
      app.recorder.forgetServer(row.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/servers/:serverId/health',
    // Any member may ask for a health check: it reads the upstream the way the monitor does.
    {
      config: { minRole: 'member' },
      schema: {
        tags,
        summary: 'Check a tool server now',
        params: WorkspaceAndServer,
        response: { 200: ServerHealthResult },
      },
    },
    async (request) => {
      const { workspaceId, serverId } = request.params;
      const before = await loadServer(app, workspaceId, serverId);
      const monitor = monitorHooks(app).healthMonitor;
      let outcome: { healthy: boolean; latencyMs: number | null; error: string | null };
      if (monitor) {
        const result = (await monitor.checkNow(serverId)) as { latencyMs?: unknown } | undefined;
        const after = await loadServer(app, workspaceId, serverId);
        outcome = {
          healthy: after.last_health_status === true,
          latencyMs: typeof result?.latencyMs === 'number' ? result.latencyMs : null,
          error: after.last_health_status ? null : after.last_error,
        };
      } else {
        outcome = await probeAndRecordHealth(app, before);
      }
      const after = await loadServer(app, workspaceId, serverId);
      const dto = toServerDto(after, publicBase(request));
      // The monitor publishes its own changes; the fallback probe publishes here.
      if (!monitor && after.status !== before.status)
        app.bus.publish(workspaceId, { type: 'server_updated', data: toServerDto(after, ON_THE_BUS) });
      return { ...outcome, server: dto };
    },
  );
  return Promise.resolve();
};
