import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsNoneOutlinedIcon from '@mui/icons-material/NotificationsNoneOutlined';

/**
 * Where the header shows the notification bell. The notifications feature owns the bell itself
 * (features/notifications/NotificationBell.tsx); until it ships this is an inert bell.
 */
export function NotificationBellSlot() {
  return (
    <Tooltip title="Notifications">
      <IconButton aria-label="Notifications">
        <NotificationsNoneOutlinedIcon />
      </IconButton>
    </Tooltip>
  );
}
