import type { NotificationDto } from '../../../../src/contract/notifications';

export const WORKSPACE_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_WORKSPACE_ID = '22222222-2222-4222-8222-222222222222';

/** Fixed once, so the same index always gives the same times. */
const BASE_TIME = Date.now();

/** A notification as the server answers it; `index` orders them (0 is the latest, a minute ago). */
export function notification(index: number, overrides: Partial<NotificationDto> = {}): NotificationDto {
  const at = new Date(BASE_TIME - (index + 1) * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    workspaceId: WORKSPACE_ID,
    title: `Notification ${index}`,
    message: `Something happened (${index})`,
    severity: 'info',
    type: 'system_announcement',
    isRead: false,
    isArchived: false,
    actionUrl: null,
    createdAt: at,
    updatedAt: at,
    occurrences: 1,
    metadata: {},
    ...overrides,
  };
}
