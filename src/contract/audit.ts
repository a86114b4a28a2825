import { z } from 'zod';
import { API } from './routes';

// The per-workspace audit log of security events (issue 16 item 9), read by owners and admins.
export const AUDIT_ACTIONS = [
  'member.invited',
  'member.joined',
  'member.removed',
  'member.left',
  'member.role_changed',
  'invitation.declined',
  'invitation.revoked',
  'server.credentials_dropped',
  'upstream.refused_private',
  'auth.locked_out',
  'auth.refresh_token_reused',
  'auth.password_changed',
  'auth.identity_linked',
  'key.created',
  'key.revoked',
  'workspace_key.created',
  'workspace_key.rotated',
  'workspace_key.hosts_changed',
  'workspace_key.deleted',
  'server.credentials_changed',
  'integration.created',
  'integration.updated',
  'integration.deleted',
  'exporter.created',
  'exporter.updated',
  'exporter.deleted',
  'deployment.started',
  'deployment.stopped',
  'session.deleted',
  'data.exported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEventDto = z.object({
  id: z.string(),
  action: z.string(),
  /** Who did it (null: the system, or an account since deleted). */
  actor: z.object({ userId: z.string(), email: z.string() }).nullable(),
  /** What it was done to, in words (an email, a server name, a URL host). */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEventDto = z.infer<typeof AuditEventDto>;

export const AuditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional().default(50),
  /** Events strictly older than this ISO time (the previous page's last createdAt). */
  before: z
    .string()
    .check(z.iso.datetime({ offset: true, error: 'Must be an ISO date-time' }))
    .optional(),
});
export const AuditListResult = z.object({ events: z.array(AuditEventDto) });
export type AuditListResult = z.infer<typeof AuditListResult>;

export const AuditPaths = { audit: (ws: string) => `${API}/workspaces/${ws}/audit` } as const;
