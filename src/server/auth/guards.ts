import type { FastifyRequest } from 'fastify';
import type { MemberRole } from '../../contract/workspaces';
import { forbidden, notFound, unauthorized } from '../http/errors';
import { verifyAccessToken } from './accessToken';

// The two hooks every protected route uses. `authenticate` is the one authentication path: it reads
// the bearer header (or, for the SSE live stream only, the `token` query parameter, since
// EventSource cannot set headers), checks the token, and checks that its sign-in still holds — on
// every authenticated route, user-level and workspace alike, so an ended sign-in acts nowhere.
// `requireWorkspace` answers 404 — not 403 — for a workspace the caller is not a member of, so
// ids of other workspaces leak nothing.
declare module 'fastify' {
  interface FastifyRequest {
    userId: string;
    /** When the request's access token expires (ms since the epoch): long-lived streams end then. */
    accessTokenExpiresAt: number;
    /** The sign-in (refresh-token family) the access token belongs to. */
    accessTokenSid: string;
    workspaceRole?: MemberRole;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  return undefined;
}

export async function authenticate(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request) ?? queryToken(request);
  if (!token) throw unauthorized('Authentication required');
  const claims = verifyAccessToken(token, request.server.config.secret);
  if (!claims) throw unauthorized('Invalid or expired access token');
  // A signed-out, password-changed or reuse-revoked sign-in's access token stays cryptographically
  // valid for up to 15 minutes; this query is what makes "sign out" and "revoke other sign-ins"
  // take effect at once (one indexed lookup: refresh_tokens_user_family).
  const signIn = await request.server.db.query<{ held: boolean }>(
    `select exists (select 1 from refresh_tokens
       where user_id = $1 and family_id = $2 and revoked_at is null and expires_at > now()) as held`,
    [claims.sub, claims.sid],
  );
  if (!signIn.at(0)?.held) throw unauthorized(SIGN_IN_ENDED);
  request.userId = claims.sub;
  request.accessTokenExpiresAt = claims.exp * 1000;
  request.accessTokenSid = claims.sid;
}

export const SIGN_IN_ENDED = 'This sign-in has ended; sign in again';

function queryToken(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.config.allowQueryToken) return undefined;
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs after `authenticate` on every /api/v1/workspaces/:workspaceId/… route (see app.ts). */
export async function requireWorkspace(request: FastifyRequest): Promise<void> {
  const workspaceId = (request.params as Record<string, unknown> | undefined)?.workspaceId;
  if (typeof workspaceId !== 'string' || !UUID.test(workspaceId)) throw notFound('Workspace not found');
  // The sign-in was checked by `authenticate`, which runs before this hook on the same request.
  const rows = await request.server.db.query<{ role: MemberRole }>(
    'select role from workspace_members where workspace_id = $1 and user_id = $2',
    [workspaceId, request.userId],
  );
  if (rows.length === 0) throw notFound('Workspace not found');
  request.workspaceRole = rows[0].role;
  // The role check lives here, beside membership, so no handler can forget it: each route declares
  // the lowest role it needs (`config.minRole`), and it runs before body validation, so a member
  // learns nothing about a route's input by probing it.
  const config = request.routeOptions.config;
  const needed = config.minRole ?? 'member';
  if (ROLE_RANK[rows[0].role] < ROLE_RANK[needed]) throw forbidden(config.roleRefusal ?? ROLE_REFUSAL[needed]);
}

const ROLE_RANK: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

/** The 403 texts, one per required role (docs/api.md, "Roles"). */
export const ROLE_REFUSAL: Record<MemberRole, string> = {
  member: 'Only workspace members can do this',
  admin: 'Only workspace owners and admins can do this',
  owner: 'Only the workspace owner can do this',
};
