import type { NotificationDto } from '../../../contract/notifications';
import type { Queryable } from '../../db/database';
import { NOTIFICATION_COLUMNS, toNotificationDto, type NotificationRow } from '../../notifications/notificationRow';

// Queries of the notification calls. Every one is scoped by user_id: a user only ever reads or
// changes their own rows, and foreign ids simply match nothing.

/**
 * 'withAccount': that workspace plus the account-level notifications (what the bell of that
 * workspace shows); 'only': strictly that workspace (GET /workspaces/{id}/notifications).
 */
export interface WorkspaceScope {
  workspaceId: string;
  mode: 'withAccount' | 'only';
}

export interface NotificationFilter {
  scope?: WorkspaceScope;
  isArchived: boolean;
  isRead?: boolean;
}

function where(
  userId: string,
  filter: Omit<NotificationFilter, 'isArchived'> & { isArchived?: boolean },
  params: unknown[],
): string {
  params.push(userId);
  const clauses = [`user_id = $${params.length}`];
  if (filter.scope) {
    params.push(filter.scope.workspaceId);
    clauses.push(
      filter.scope.mode === 'only'
        ? `workspace_id = $${params.length}`
        : `(workspace_id = $${params.length} or workspace_id is null)`,
    );
  }
  if (filter.isArchived !== undefined) {
    params.push(filter.isArchived);
    clauses.push(`is_archived = $${params.length}`);
  }
  if (filter.isRead !== undefined) {
    params.push(filter.isRead);
    clauses.push(`is_read = $${params.length}`);
  }
  return clauses.join(' and ');
}

export async function listNotifications(
  db: Queryable,
  userId: string,
  filter: NotificationFilter,
  page: { limit: number; offset: number },
): Promise<{ notifications: NotificationDto[]; total: number }> {
  const params: unknown[] = [];
  const condition = where(userId, filter, params);
  const [rows, counted] = await Promise.all([
    db.query<NotificationRow>(
      `select ${NOTIFICATION_COLUMNS} from notifications where ${condition}
        order by updated_at desc, seq desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from notifications where ${condition}`, params),
  ]);
  return { notifications: rows.map(toNotificationDto), total: counted.at(0)?.total ?? 0 };
}

/** Unread notifications of the inbox (archived ones do not count). */
export async function countUnread(db: Queryable, userId: string, scope?: WorkspaceScope): Promise<number> {
  const params: unknown[] = [];
  const condition = where(userId, { scope, isArchived: false, isRead: false }, params);
  const rows = await db.query<{ count: number }>(
    `select count(*)::int as count from notifications where ${condition}`,
    params,
  );
  return rows.at(0)?.count ?? 0;
}

export async function findNotification(db: Queryable, userId: string, id: string): Promise<NotificationDto | null> {
  const rows = await db.query<NotificationRow>(
    `select ${NOTIFICATION_COLUMNS} from notifications where id = $1 and user_id = $2`,
    [id, userId],
  );
  return rows[0] ? toNotificationDto(rows[0]) : null;
}

export async function markRead(db: Queryable, userId: string, ids: string[]): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'update notifications set is_read = true where user_id = $1 and id = any($2::uuid[]) and not is_read returning id',
    [userId, ids],
  );
  return rows.length;
}

export async function markAllRead(db: Queryable, userId: string, scope?: WorkspaceScope): Promise<number> {
  const params: unknown[] = [];
  const condition = where(userId, { scope, isRead: false }, params);
  const rows = await db.query<{ id: string }>(
    `update notifications set is_read = true where ${condition} returning id`,
    params,
  );
  return rows.length;
}

export async function archive(db: Queryable, userId: string, ids: string[]): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'update notifications set is_archived = true where user_id = $1 and id = any($2::uuid[]) and not is_archived returning id',
    [userId, ids],
  );
  return rows.length;
}

export async function markOneRead(db: Queryable, userId: string, id: string): Promise<NotificationDto | null> {
  const rows = await db.query<NotificationRow>(
    `update notifications set is_read = true where id = $1 and user_id = $2 returning ${NOTIFICATION_COLUMNS}`,
    [id, userId],
  );
  return rows[0] ? toNotificationDto(rows[0]) : null;
}
