import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { cookieValue, safeReturnPath, stateCookie } from '../../http/stateCookie';
import { findServer } from '../../data/servers/store';
import { dropTokens, listConnections, type ConnectionRow } from '../../data/upstreamOAuth/connectionStore';
import { UpstreamOAuthPaths, type UpstreamOAuthConnectionDto } from '../../../contract/upstreamOAuth';
import {
  ConnectUpstreamOAuthBody,
  ConnectUpstreamOAuthResult,
  UpstreamOAuthList,
} from '../../../contract/upstreamOAuthSchemas';
import { clientMetadataDocument, finishConnection, startConnection } from './connectFlow';

// Servers that require OAuth (docs/access.md "Servers that require OAuth"): the workspace's
// connections, connecting (admins), disconnecting (admins), and the callback the authorization
// server sends the browser to.

const STATE_COOKIE = 'toolscope_upstream_oauth_state';
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const WorkspaceAndServer = z.object({ workspaceId: z.string(), serverId: z.string() });
const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function toDto(row: ConnectionRow): UpstreamOAuthConnectionDto {
  return {
    serverId: row.server_id,
    status: row.status,
    issuer: row.issuer,
    scope: row.scope,
    expiresAt: iso(row.expires_at),
    connectedAs: row.connected_as,
    connectedBy: row.connected_by_email,
    lastError: row.last_error,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A changed connection applies to the next request on this instance (others: within their cache time). */
async function forgetServer(app: FastifyInstance, workspaceId: string, serverId: string): Promise<void> {
  app.upstreamTokens.forget(serverId);
  const server = await findServer(app.db, workspaceId, serverId);
  if (server) app.upstreams.forget(server.proxy_key);
}

export const upstreamOAuthRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['servers'];
  const cookiePath = UpstreamOAuthPaths.callback;

  app.get(
    '/upstream-oauth',
    {
      schema: {
        tags,
        summary: "The OAuth connections of the workspace's servers",
        params: WorkspaceOnly,
        response: { 200: UpstreamOAuthList },
      },
    },
    async (request) => ({ connections: (await listConnections(app.db, request.params.workspaceId)).map(toDto) }),
  );

  app.post(
    '/servers/:serverId/oauth/connect',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Start connecting a server that requires OAuth (the browser goes to authorizationUrl)',
        params: WorkspaceAndServer,
        body: ConnectUpstreamOAuthBody.nullish(),
        response: { 200: ConnectUpstreamOAuthResult, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { workspaceId, serverId } = request.params;
      const server = await findServer(app.db, workspaceId, serverId);
      if (!server) throw notFound('Server not found');
      const { authorizationUrl, state } = await startConnection(app, request, server, {
        userId: request.userId,
        clientId: request.body?.clientId,
        clientSecret: request.body?.clientSecret,
        returnPath: safeReturnPath(request.body?.returnPath, '/servers'),
      });
      return reply
        .header('set-cookie', stateCookie(request, STATE_COOKIE, cookiePath, state))
        .send({ authorizationUrl });
    },
  );

  app.delete(
    '/servers/:serverId/oauth',
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: "Forget a server's OAuth tokens (it then needs connecting again)",
        params: WorkspaceAndServer,
        response: { 204: z.null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { workspaceId, serverId } = request.params;
      if (!(await findServer(app.db, workspaceId, serverId)) || !(await dropTokens(app.db, serverId)))
        throw notFound('This server has no OAuth connection');
      await forgetServer(app, workspaceId, serverId);
      return reply.status(204).send(null);
    },
  );
  return Promise.resolve();
};

/** Public: the browser arrives from the authorization server (the state and its cookie are the credential). */
export const upstreamOAuthCallbackRoute: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get(
    UpstreamOAuthPaths.callback,
    {
      schema: {
        tags: ['servers'],
        security: [],
        summary: "Where a server's authorization server returns the browser after connecting",
        querystring: z.record(z.string(), z.string()),
      },
    },
    async (request, reply) => {
      const query = new URLSearchParams(request.query);
      const state = query.get('state') ?? '';
      const clear = stateCookie(request, STATE_COOKIE, UpstreamOAuthPaths.callback, '', 0);
      const back = (path: string, key: string, value: string) => {
        const url = new URL(path, 'http://x');
        url.searchParams.set(key, value);
        return reply.header('set-cookie', clear).redirect(`${url.pathname}${url.search}`, 302);
      };
      if (!state || cookieValue(request, STATE_COOKIE) !== state) return back('/servers', 'oauth_error', 'state');
      const outcome = await finishConnection(app, request, query, state);
      if (!outcome.ok) return back(outcome.returnPath, 'oauth_error', outcome.error);
      const server = await app.db.query<{ workspace_id: string }>('select workspace_id from servers where id = $1', [
        outcome.serverId,
      ]);
      if (server[0]) await forgetServer(app, server[0].workspace_id, outcome.serverId);
      return back(outcome.returnPath, 'oauth', 'connected');
    },
  );

  app.get(
    UpstreamOAuthPaths.clientMetadata,
    {
      schema: {
        tags: ['servers'],
        security: [],
        summary: "Toolscope's OAuth client ID metadata document (when its public URL is HTTPS)",
      },
    },
    async (_request, reply) => {
      const document = clientMetadataDocument(app.config.publicUrl);
      if (!document) throw notFound('No client metadata document: the public URL is not HTTPS');
      return reply.header('cache-control', 'public, max-age=3600').send(document);
    },
  );
  return Promise.resolve();
};
