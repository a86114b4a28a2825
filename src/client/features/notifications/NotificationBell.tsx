import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import {
  NOTIFICATION_BADGE_CAP,
  NOTIFICATION_DROPDOWN_ITEMS,
  NOTIFICATION_LIST_POLL_MS,
  NOTIFICATION_UNREAD_POLL_MS,
} from '../../../contract/constants';
import type { NotificationDto } from '../../../contract/notifications';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentWorkspaceId } from '../workspaces/workspaceSlice';
import { formatUnreadBadge, mergeNotifications } from './mergeNotifications';
import { actionTarget } from './notificationPresentation';
import { NotificationPanel } from './NotificationPanel';
import { useGetNotificationsQuery, useGetUnreadCountQuery } from './notificationsApi';
import { selectLiveNotifications, selectLiveStreamConnected } from './notificationsSlice';
import { useNotificationActions } from './useNotificationActions';

const NOTHING_SELECTED: ReadonlySet<string> = new Set();

/**
 * The header's bell (SPEC §2, §9): unread badge capped at 99+, and a dropdown of the latest 10.
 * The unread count is polled every 15 s; the list every 30 s unless the live stream is connected
 * (then pushed notifications arrive through the live buffer). Both follow the current workspace.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const workspaceId = useAppSelector(selectCurrentWorkspaceId);
  const liveConnected = useAppSelector(selectLiveStreamConnected);
  const live = useAppSelector(selectLiveNotifications);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // A selection belongs to one workspace's list: another workspace starts with none (derived, not reset by an effect).
  const [selection, setSelection] = useState<{ workspaceId: string | null; ids: ReadonlySet<string> }>({
    workspaceId,
    ids: NOTHING_SELECTED,
  });
  const selected = selection.workspaceId === workspaceId ? selection.ids : NOTHING_SELECTED;
  const setSelected = (update: (current: ReadonlySet<string>) => ReadonlySet<string>) =>
    setSelection((current) => ({
      workspaceId,
      ids: update(current.workspaceId === workspaceId ? current.ids : NOTHING_SELECTED),
    }));

  const list = useGetNotificationsQuery(
    { workspaceId, limit: NOTIFICATION_DROPDOWN_ITEMS },
    { pollingInterval: liveConnected ? 0 : NOTIFICATION_LIST_POLL_MS },
  );
  const unread = useGetUnreadCountQuery({ workspaceId }, { pollingInterval: NOTIFICATION_UNREAD_POLL_MS });
  const actions = useNotificationActions(workspaceId);

  const notifications = useMemo(
    () => mergeNotifications(list.data?.notifications ?? [], live, workspaceId, NOTIFICATION_DROPDOWN_ITEMS),
    [list.data, live, workspaceId],
  );
  const unreadCount = unread.data?.count ?? 0;
  const hasUnread = unreadCount > 0 || notifications.some((n) => !n.isRead);
  const badge = formatUnreadBadge(unreadCount, NOTIFICATION_BADGE_CAP);

  // A higher unread count means something new arrived: bring the list up to date now rather
  // than at its next 30 s poll.
  const previousCount = useRef<number | null>(null);
  const { refetch: refetchList } = list;
  useEffect(() => {
    const before = previousCount.current;
    previousCount.current = unread.data?.count ?? null;
    if (before !== null && unread.data && unread.data.count > before) void refetchList();
  }, [unread.data, refetchList]);

  const close = () => {
    setAnchor(null);
    setSelected(() => NOTHING_SELECTED);
  };
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const open = (notification: NotificationDto) => {
    if (!notification.isRead) void actions.markOneRead(notification.id);
    const target = actionTarget(notification.actionUrl);
    if (!target) return;
    close();
    if (target.kind === 'route') void navigate(target.to);
    else window.open(target.href, '_blank', 'noopener,noreferrer');
  };
  const runOnSelection = async (run: (ids: string[]) => Promise<boolean>) => {
    if (await run([...selected])) setSelected(() => NOTHING_SELECTED);
  };

  return (
    <>
      <Tooltip title="Notifications">
        <IconButton
          aria-label={badge ? `Notifications, ${badge} unread` : 'Notifications'}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : 'false'}
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        >
          <Badge badgeContent={badge} color="error" invisible={!badge} data-testid="notification-badge">
            <NotificationsNoneOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Notifications' } as object }}
      >
        <NotificationPanel
          notifications={notifications}
          loading={list.isLoading}
          failed={list.isError}
          hasUnread={hasUnread}
          selected={selected}
          busy={actions.busy}
          onToggleSelected={toggle}
          onOpen={open}
          onMarkAllRead={() => void actions.markAllRead()}
          onMarkSelectedRead={() => void runOnSelection((ids) => actions.markRead(ids))}
          onArchiveSelected={() => void runOnSelection((ids) => actions.archive(ids))}
        />
      </Popover>
    </>
  );
}
