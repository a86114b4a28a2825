import type { FastifyInstance } from 'fastify';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { discoverProtectedResource } from './protectedResource';
import { markRequired } from '../data/upstreamOAuth/connectionStore';

// A server whose discovery was refused with 401 may require OAuth: if its challenge names
// resource metadata, it is marked as needing a connection, so its card offers "Connect" at once.
// Only a 401 leads here: servers that answer cost no extra request.

export function refusedAsUnauthorized(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return cause instanceof StreamableHTTPError && cause.code === 401;
}

export async function noteOAuthChallenge(
  app: FastifyInstance,
  server: { id: string; workspace_id: string; url: string },
): Promise<void> {
  const resource = await discoverProtectedResource(server.url, app.outbound.fetch).catch(() => undefined);
  if (resource) await markRequired(app.db, server.id, server.workspace_id);
}
