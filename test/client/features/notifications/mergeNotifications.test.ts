import {
  formatUnreadBadge,
  mergeNotifications,
} from '../../../../src/client/features/notifications/mergeNotifications';
import { notification, OTHER_WORKSPACE_ID } from './notificationFixtures';

describe('mergeNotifications', () => {
  it('merges the fetched page with live ones, latest first, one per id, limited', () => {
    const fetched = [notification(2), notification(3), notification(4)];
    const live = [
      notification(0),
      notification(2, { occurrences: 3, updatedAt: new Date(Date.now() + 60_000).toISOString() }),
    ];
    const merged = mergeNotifications(fetched, live, null, 3);
    expect(merged.map((n) => [n.title, n.occurrences])).toEqual([
      ['Notification 2', 3],
      ['Notification 0', 1],
      ['Notification 3', 1],
    ]);
  });

  it('prefers the fetched copy on a tie and leaves out other workspaces’ live ones, keeping account-level ones', () => {
    const fetched = [notification(1, { isRead: true })];
    const live = [
      notification(1),
      notification(0, { workspaceId: OTHER_WORKSPACE_ID }),
      notification(5, { workspaceId: null }),
    ];
    const merged = mergeNotifications(fetched, live, notification(0).workspaceId, 10);
    expect(merged.map((n) => [n.title, n.isRead])).toEqual([
      ['Notification 1', true],
      ['Notification 5', false],
    ]);
  });
});

describe('formatUnreadBadge', () => {
  it('caps at 99+ and hides at zero', () => {
    expect(formatUnreadBadge(0, 99)).toBeNull();
    expect(formatUnreadBadge(7, 99)).toBe('7');
    expect(formatUnreadBadge(99, 99)).toBe('99');
    expect(formatUnreadBadge(100, 99)).toBe('99+');
    expect(formatUnreadBadge(4321, 99)).toBe('99+');
  });
});
