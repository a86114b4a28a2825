import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import Typography from '@mui/material/Typography';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';
import { NOTIFICATION_LIST_HEIGHT_PX } from '../../../contract/constants';
import type { NotificationDto } from '../../../contract/notifications';
import { NotificationItem } from './NotificationItem';

interface NotificationPanelProps {
  notifications: NotificationDto[];
  loading: boolean;
  failed: boolean;
  hasUnread: boolean;
  selected: ReadonlySet<string>;
  busy: boolean;
  onToggleSelected: (id: string) => void;
  onOpen: (notification: NotificationDto) => void;
  onMarkAllRead: () => void;
  onMarkSelectedRead: () => void;
  onArchiveSelected: () => void;
}

/** The dropdown of SPEC §2: header, selection actions, and the 400px list. */
export function NotificationPanel(props: NotificationPanelProps) {
  const { notifications, loading, failed, hasUnread, selected, busy } = props;
  return (
    <Box sx={{ width: { xs: '100vw', sm: 400 }, maxWidth: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.25, gap: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 700, flex: 1 }}>
          Notifications
        </Typography>
        {hasUnread && (
          <Button size="small" onClick={props.onMarkAllRead} disabled={busy}>
            Mark all as read
          </Button>
        )}
      </Box>
      {selected.size > 0 && (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pb: 1 }}
          role="toolbar"
          aria-label="Selected notifications"
        >
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {selected.size} selected
          </Typography>
          <Button size="small" variant="outlined" onClick={props.onMarkSelectedRead} disabled={busy}>
            Mark read
          </Button>
          <Button size="small" variant="outlined" color="warning" onClick={props.onArchiveSelected} disabled={busy}>
            Archive
          </Button>
        </Box>
      )}
      <Divider />
      <Box sx={{ height: NOTIFICATION_LIST_HEIGHT_PX, overflowY: 'auto' }} data-testid="notification-list">
        {loading && notifications.length === 0 ? (
          <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
            <CircularProgress size={28} aria-label="Loading notifications" />
          </Box>
        ) : notifications.length === 0 ? (
          <Box
            sx={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              height: '100%',
              gap: 1,
              px: 4,
              textAlign: 'center',
              color: 'text.secondary',
            }}
          >
            <NotificationsNoneOutlinedIcon sx={{ fontSize: 40 }} />
            <Typography variant="body2">
              {failed
                ? 'Notifications could not be loaded. They will be tried again shortly.'
                : 'You’re all caught up. Server status changes, session alerts and usage warnings will show up here.'}
            </Typography>
          </Box>
        ) : (
          <List disablePadding aria-label="Notifications list">
            {notifications.map((n) => (
              <NotificationItem
                key={n.id}
                notification={n}
                selected={selected.has(n.id)}
                onToggleSelected={props.onToggleSelected}
                onOpen={props.onOpen}
              />
            ))}
          </List>
        )}
      </Box>
    </Box>
  );
}
