import type { FastifyRequest } from 'fastify';
import type { MemberRole } from '../../../contract/workspaces';
import { forbidden } from '../../http/errors';

const RANK: Record<MemberRole, number> = { member: 0, admin: 1, owner: 2 };

export function hasRole(role: MemberRole | undefined, min: MemberRole): boolean {
  return role !== undefined && RANK[role] >= RANK[min];
}

/**
 * 403 with a message the member can act on. The route also declares `config.minRole`, which the
 * workspace guard enforces once it does (DESIGN: roles are route configuration); the check here
 * keeps the route safe and its message specific until then.
 */
export function requireRole(request: FastifyRequest, min: MemberRole, message: string): void {
  if (!hasRole(request.workspaceRole, min)) throw forbidden(message);
}
