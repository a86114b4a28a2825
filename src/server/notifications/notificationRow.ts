import type { NotificationDto, NotificationSeverity, NotificationType } from '../../contract/notifications';

// One row of the notifications table (m002_tracing) as both database drivers return it.
export interface NotificationRow {
  id: string;
  user_id: string;
  workspace_id: string | null;
  title: string;
  message: string;
  severity: string;
  type: string;
  is_read: boolean;
  is_archived: boolean;
  action_url: string | null;
  metadata: Record<string, unknown> | null;
  group_key: string | null;
  occurrences: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The columns every reader selects, so a DTO can always be built from the result. */
export const NOTIFICATION_COLUMNS =
  'id, user_id, workspace_id, title, message, severity, type, is_read, is_archived, action_url, metadata, group_key, occurrences, created_at, updated_at';

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

export function toNotificationDto(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    title: row.title,
    message: row.message,
    severity: row.severity as NotificationSeverity,
    type: row.type as NotificationType,
    isRead: row.is_read,
    isArchived: row.is_archived,
    actionUrl: row.action_url,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    occurrences: row.occurrences,
    metadata: row.metadata ?? {},
  };
}
