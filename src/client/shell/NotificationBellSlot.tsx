import { NotificationBell } from '../features/notifications/NotificationBell';

/**
 * Where the header shows the notification bell. The notifications feature owns the bell, its
 * badge and dropdown (features/notifications/NotificationBell.tsx); the shell only places it.
 */
export function NotificationBellSlot() {
  return <NotificationBell />;
}
