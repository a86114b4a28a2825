import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MemberRole } from '../../contract/workspaces';
import { notFound, unauthorized } from '../http/errors';
import { verifyAccessToken } from './accessToken';

// The two hooks every protected route uses. `authenticate` reads the bearer header (or, for the
// SSE live stream only, the `token` query parameter, since EventSource cannot set headers);
// `requireWorkspace` answers 404 — not 403 — for a workspace the caller is not a member of, so
// ids of other workspaces leak nothing.
declare module 'fastify' {
  interface FastifyRequest {
    userId: string;
    /** When the request's access token expires (ms since the epoch): long-lived streams end then. */
    accessTokenExpiresAt: number;
    workspaceRole?: MemberRole;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return undefined;
}

export async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = bearerToken(request) ?? queryToken(request);
  if (!token) throw unauthorized('Authentication required');
  const claims = verifyAccessToken(token, request.server.config.secret);
  if (!claims) throw unauthorized('Invalid or expired access token');
  request.userId = claims.sub;
  request.accessTokenExpiresAt = claims.exp * 1000;
}

function queryToken(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.config?.allowQueryToken) return undefined;
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs after `authenticate` on every /api/v1/workspaces/:workspaceId/… route (see app.ts). */
export async function requireWorkspace(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const workspaceId = (request.params as Record<string, unknown> | undefined)?.workspaceId;
  if (typeof workspaceId !== 'string' || !UUID.test(workspaceId)) throw notFound('Workspace not found');
  const rows = await request.server.db.query<{ role: MemberRole }>(
    'select role from workspace_members where workspace_id = $1 and user_id = $2',
    [workspaceId, request.userId],
  );
  if (rows.length === 0) throw notFound('Workspace not found');
  request.workspaceRole = rows[0].role;
}
