import type { Queryable } from '../../db/database';
import type { AuditAction, AuditEventDto } from '../../../contract/audit';

// Security events, one row per workspace concerned. Other modules call recordAuditEvent (or
// recordUserAuditEvent for events about an account, which go to each of its workspaces); a
// failure to write the audit row never fails the action that caused it — it is logged instead.
export interface AuditEventInput {
  workspaceId: string;
  action: AuditAction;
  actorUserId?: string | null;
  target?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

export async function recordAuditEvent(db: Queryable, event: AuditEventInput): Promise<void> {
  await db.query(
    `insert into audit_events (workspace_id, actor_user_id, action, target, details, ip) values ($1, $2, $3, $4, $5::jsonb, $6)`,
    [
      event.workspaceId,
      event.actorUserId ?? null,
      event.action,
      event.target ?? null,
      JSON.stringify(event.details ?? {}),
      event.ip ?? null,
    ],
  );
}

/**
 * Records what a signed-in user did through a route: actor, time (now), target and details, with the
 * request's address. A failed audit write is logged and never fails the action, which already happened.
 */
export async function auditRequest(
  db: Queryable,
  request: { userId: string; ip: string; log: { error: (obj: object, msg: string) => void } },
  event: Omit<AuditEventInput, 'actorUserId' | 'ip'>,
): Promise<void> {
  await recordAuditEvent(db, { ...event, actorUserId: request.userId, ip: request.ip }).catch((error: unknown) =>
    request.log.error({ err: error, action: event.action }, 'audit event not recorded'),
  );
}

/** An event about an account (lock-out, token reuse, password change): every workspace it belongs to sees it. */
export async function recordUserAuditEvent(
  db: Queryable,
  userId: string,
  event: Omit<AuditEventInput, 'workspaceId'>,
): Promise<void> {
  await db.query(
    `insert into audit_events (workspace_id, actor_user_id, action, target, details, ip)
     select m.workspace_id, $2, $3, $4, $5::jsonb, $6 from workspace_members m where m.user_id = $1`,
    [
      userId,
      event.actorUserId ?? null,
      event.action,
      event.target ?? null,
      JSON.stringify(event.details ?? {}),
      event.ip ?? null,
    ],
  );
}

interface AuditRow {
  id: string;
  action: string;
  actor_user_id: string | null;
  actor_email: string | null;
  target: string | null;
  details: Record<string, unknown> | string;
  created_at: Date | string;
}

export async function listAuditEvents(
  db: Queryable,
  workspaceId: string,
  limit: number,
  before?: string,
): Promise<AuditEventDto[]> {
  const rows = await db.query<AuditRow>(
    `select a.id, a.action, a.actor_user_id, u.email as actor_email, a.target, a.details, a.created_at
     from audit_events a left join users u on u.id = a.actor_user_id
     where a.workspace_id = $1 and ($2::timestamptz is null or a.created_at < $2::timestamptz)
     order by a.created_at desc, a.id desc limit $3`,
    [workspaceId, before ?? null, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    action: row.action,
    actor: row.actor_user_id && row.actor_email ? { userId: row.actor_user_id, email: row.actor_email } : null,
    target: row.target,
    details: typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : row.details,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
