import type { Queryable } from '../../db/database';
import { INVITATION_TTL_DAYS, type MyInvitationDto, type WorkspaceInvitationDto } from '../../../contract/invitations';

// Invitations are kept by email, not by account: an address with no account yet finds its
// invitation once it signs up with that address, and the inviter learns nothing about whether
// the address has an account. "Pending" below always means pending and not yet expired.
type InvitationRole = 'admin' | 'member';

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: InvitationRole;
  created_at: Date | string;
  expires_at: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const OPEN = `i.status = 'pending' and i.expires_at > now()`;

/** Creates the invitation, or renews the open one for the same address (new role, new expiry). */
export async function upsertInvitation(
  db: Queryable,
  invitation: { workspaceId: string; email: string; role: InvitationRole; invitedBy: string },
): Promise<{ id: string; email: string; role: InvitationRole; expiresAt: string }> {
  const rows = await db.query<InvitationRow>(
    `insert into workspace_invitations (workspace_id, email, role, invited_by, expires_at)
     values ($1, $2, $3, $4, now() + make_interval(days => $5))
     on conflict (workspace_id, email) where status = 'pending'
     do update set role = excluded.role, invited_by = excluded.invited_by, created_at = now(), expires_at = excluded.expires_at
     returning id, workspace_id, email, role, created_at, expires_at`,
    [invitation.workspaceId, invitation.email, invitation.role, invitation.invitedBy, INVITATION_TTL_DAYS],
  );
  const row = rows[0];
  return { id: row.id, email: row.email, role: row.role, expiresAt: iso(row.expires_at) };
}

export async function isMemberByEmail(db: Queryable, workspaceId: string, email: string): Promise<boolean> {
  const rows = await db.query(
    'select 1 from workspace_members m join users u on u.id = m.user_id where m.workspace_id = $1 and u.email = $2',
    [workspaceId, email],
  );
  return rows.length > 0;
}

export async function listWorkspaceInvitations(db: Queryable, workspaceId: string): Promise<WorkspaceInvitationDto[]> {
  const rows = await db.query<InvitationRow & { first_name: string | null; last_name: string | null }>(
    `select i.id, i.workspace_id, i.email, i.role, i.created_at, i.expires_at, u.first_name, u.last_name
     from workspace_invitations i left join users u on u.id = i.invited_by
     where i.workspace_id = $1 and ${OPEN} order by i.created_at desc, i.id`,
    [workspaceId],
  );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    invitedByName: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  }));
}

export async function listInvitationsForEmail(db: Queryable, email: string): Promise<MyInvitationDto[]> {
  const rows = await db.query<
    InvitationRow & { workspace_name: string; first_name: string | null; last_name: string | null }
  >(
    `select i.id, i.workspace_id, i.email, i.role, i.created_at, i.expires_at, w.name as workspace_name, u.first_name, u.last_name
     from workspace_invitations i join workspaces w on w.id = i.workspace_id left join users u on u.id = i.invited_by
     where i.email = $1 and ${OPEN} order by i.created_at desc, i.id`,
    [email],
  );
  return rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    role: row.role,
    invitedByName: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
  }));
}

/**
 * Marks the invitee's open invitation answered (accepted or declined) and returns it; undefined
 * when there is no such open invitation for this address (unknown, someone else's, expired,
 * already answered or withdrawn — all look the same).
 */
export async function answerInvitation(
  db: Queryable,
  invitationId: string,
  email: string,
  answer: 'accepted' | 'declined',
): Promise<{ workspaceId: string; role: InvitationRole } | undefined> {
  const rows = await db.query<{ workspace_id: string; role: InvitationRole }>(
    `update workspace_invitations i set status = $3, answered_at = now()
     where i.id = $1 and i.email = $2 and ${OPEN} returning i.workspace_id, i.role`,
    [invitationId, email, answer],
  );
  return rows[0] && { workspaceId: rows[0].workspace_id, role: rows[0].role };
}

/** Withdraws an open invitation of the workspace; returns its email, or undefined when none. */
export async function revokeInvitation(
  db: Queryable,
  workspaceId: string,
  invitationId: string,
): Promise<string | undefined> {
  const rows = await db.query<{ email: string }>(
    `update workspace_invitations i set status = 'revoked', answered_at = now()
     where i.id = $1 and i.workspace_id = $2 and ${OPEN} returning i.email`,
    [invitationId, workspaceId],
  );
  return rows[0]?.email;
}

/** Adds the member with the invitation's role; an existing membership is kept as it is. */
export async function joinWorkspace(
  db: Queryable,
  workspaceId: string,
  userId: string,
  role: InvitationRole,
): Promise<void> {
  await db.query(
    `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3) on conflict (workspace_id, user_id) do nothing`,
    [workspaceId, userId, role],
  );
}
